-- ONE BUILD RUNNING AND ONE WAITING PER ORGANIZATION, NO QUIET WINDOW; FAILED BUILDS RETRIED BY THEMSELVES.
--
-- A run of articles 20 s apart waited up to two minutes each: after a send, every request waited for 60 s of
-- quiet and then for the scheduler's minute. Netlify's own queue is the model now: at most one build of an
-- organization is in flight, and what arrives meanwhile goes into the next build, sent as soon as the running
-- one reports its end (deploy-events flushes the organization then; the scheduler's tick is the safety net).
--
-- A build is in flight when its deploy reports `building` (and is younger than private.deploy_hold()), or when a
-- batch was sent to the hook and no build has started since (for at most private.build_start_timeout()). An
-- organization whose builds never reported (no site_deploys row: no deploy notifications configured) cannot be
-- told when a build ends: there a send holds the next for private.unreported_build_time(), a minute.
--
-- Failures recover by themselves:
-- * a hook that failed (network, non-2xx): its requests stay waiting and go with the next claim, at the next
--   tick at the latest;
-- * a batch whose build never started within the timeout (the hook call was lost): its requests wait again;
-- * a failed build: record_site_deploy queues a retry request, due after a backoff that doubles with each
--   failure in a row (1, 2, 4, 8, 16, 30 minutes; six in all), so a broken build does not build every minute;
--   any new change, or the admin's Retry, builds at once.
--
-- A request's `succeeded` only ever meant that the build hook answered: it is called `hook_called` now, and the
-- logs say so until the build reports its result.
--
-- p_at_once false (REBUILD_AT_ONCE=off) keeps holding requests until the newest is p_quiet_window_ms old: the
-- test suites hold their server's builds that way. With p_at_once true (production) there is no window.

alter table public.site_rebuild_requests drop constraint site_rebuild_requests_status_check;
update public.site_rebuild_requests set status = 'hook_called' where status = 'succeeded';
alter table public.site_rebuild_requests add constraint site_rebuild_requests_status_check
  check (status in ('pending', 'sent', 'hook_called', 'failed', 'skipped'));
comment on column public.site_rebuild_requests.status is
  'pending (waiting), sent (the hook is being called), hook_called (the hook answered; the build reports in site_deploys), failed (the hook did not answer; retried with the next claim), skipped (no usable hook).';

alter table public.site_rebuild_requests add column not_before timestamptz;
comment on column public.site_rebuild_requests.not_before is
  'An automatic retry after a failed build is not due before this time (null: due at once). It still joins any build sent earlier.';

/** How long a sent batch may wait for its build to start before its hook call is presumed lost. */
create function private.build_start_timeout() returns interval
language sql immutable set search_path = '' as $$ select interval '10 minutes' $$;

/** Clock difference tolerated between the database and the build's reports (Netlify stamps its own start). */
create function private.build_clock_slack() returns interval
language sql immutable set search_path = '' as $$ select interval '5 seconds' $$;

/** How far back a sent batch is checked for a lost hook call (older history is left alone). */
create function private.build_lookback() returns interval
language sql immutable set search_path = '' as $$ select interval '1 day' $$;

-- The claim looks up waiting and recently sent requests on every call (the scheduler: every minute).
create index site_rebuild_requests_waiting_idx on public.site_rebuild_requests (organization_id) where status in ('pending', 'failed');
create index site_rebuild_requests_sent_at_idx on public.site_rebuild_requests (sent_at) where status in ('sent', 'hook_called');

/**
 * Whether a build of the organization has started since `p_sent_at` (the deploy that answers a hook call): one
 * that started then or after (give or take the clock slack) and had not finished before it. Not security
 * definer, so it inlines; its callers are.
 */
create function private.build_started_since(p_organization_id uuid, p_sent_at timestamptz) returns boolean
language sql stable set search_path = ''
as $$
  select exists (
    select 1 from public.site_deploys d
    where d.organization_id = p_organization_id and d.started_at >= p_sent_at - private.build_clock_slack()
      and (d.finished_at is null or d.finished_at >= p_sent_at)
  )
$$;
revoke execute on function private.build_started_since(uuid, timestamptz) from public, anon, authenticated;

/** Whether the organization's builds report (Netlify's deploy notifications, or the local build). */
create function private.builds_report(p_organization_id uuid) returns boolean
language sql stable set search_path = ''
as $$ select exists (select 1 from public.site_deploys d where d.organization_id = p_organization_id) $$;
revoke execute on function private.builds_report(uuid) from public, anon, authenticated;

/**
 * How long a send holds the next one where builds never report: no notification can end the wait, so a build
 * is assumed to take this long.
 */
create function private.unreported_build_time() returns interval
language sql immutable set search_path = '' as $$ select interval '1 minute' $$;

/**
 * Whether one of the organization's builds is in flight: a deploy reports `building` (younger than the hold),
 * or a batch was sent to the hook and no build has started since, for at most the start timeout (where builds
 * report) or the assumed build time (where they never did).
 */
create function private.build_in_flight(p_organization_id uuid) returns boolean
language sql stable set search_path = ''
as $$
  select exists (
      select 1 from public.site_deploys d
      where d.organization_id = p_organization_id and d.state = 'building' and d.started_at > now() - private.deploy_hold()
    )
    or exists (
      select 1 from public.site_rebuild_requests r
      where r.status in ('sent', 'hook_called')
        and r.sent_at > now() - case when private.builds_report(p_organization_id) then private.build_start_timeout() else private.unreported_build_time() end
        and r.organization_id = p_organization_id
        and not private.build_started_since(p_organization_id, r.sent_at)
    )
$$;
revoke execute on function private.build_in_flight(uuid) from public, anon, authenticated;

/**
 * The requests that wait for a build (of one organization, or all): pending; or their hook call failed; or
 * they were sent in the last day, their organization's builds report, and no build started within the start
 * timeout (the call was lost).
 */
create function private.waiting_rebuild_requests(p_organization_id uuid)
returns table (id uuid, organization_id uuid, requested_at timestamptz, not_before timestamptz)
language sql stable set search_path = ''
as $$
  select r.id, r.organization_id, r.requested_at, r.not_before
  from public.site_rebuild_requests r
  where r.status in ('pending', 'failed') and (p_organization_id is null or r.organization_id = p_organization_id)
  union all
  select r.id, r.organization_id, r.requested_at, r.not_before
  from public.site_rebuild_requests r
  where r.status in ('sent', 'hook_called')
    and r.sent_at > now() - private.build_lookback() and r.sent_at <= now() - private.build_start_timeout()
    and (p_organization_id is null or r.organization_id = p_organization_id)
    and private.builds_report(r.organization_id)
    and not private.build_started_since(r.organization_id, r.sent_at)
$$;
revoke execute on function private.waiting_rebuild_requests(uuid) from public, anon, authenticated;

drop function public.claim_due_site_rebuilds(integer, uuid, boolean);

/**
 * Claims the organizations' due rebuild requests (one organization, or all: then it also leaves the
 * scheduler's heartbeat) and answers one batch per organization. An organization is due when a waiting
 * request is ready (see private.waiting_rebuild_requests; a pending retry's not_before has passed) and no build of
 * it is in flight; with p_at_once false, also only once its newest request is p_quiet_window_ms old. The batch
 * takes every waiting request of the organization. The claim marks the rows `sent` with the batch id in one
 * UPDATE, so concurrent callers never claim a request twice; claims of one organization take turns.
 */
create function public.claim_due_site_rebuilds(p_quiet_window_ms integer, p_organization_id uuid default null, p_at_once boolean default true)
returns table (batch_id uuid, organization_id uuid, organization_slug text, build_hook_url text, request_count integer, reasons text[])
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  v_hold interval := case when p_at_once then interval '0' else make_interval(secs => p_quiet_window_ms / 1000.0) end;
begin
  if p_organization_id is null then
    insert into private.rebuild_scheduler (last_run_at, quiet_window_ms)
    values (now(), case when p_at_once then 0 else p_quiet_window_ms end)
    on conflict (id) do update set last_run_at = excluded.last_run_at, quiet_window_ms = excluded.quiet_window_ms;
  end if;
  -- One claimer per organization at a time (in organization order, so the scheduler's claim of all
  -- organizations never deadlocks with another): two concurrent deliveries cannot both find nothing in flight.
  perform pg_advisory_xact_lock(hashtextextended('site_rebuild:' || o.organization_id::text, 0))
  from (select distinct w.organization_id from private.waiting_rebuild_requests(p_organization_id) w order by w.organization_id) o;
  return query
  with waiting as materialized (
    select * from private.waiting_rebuild_requests(p_organization_id)
  ), due as materialized (
    select w.organization_id, gen_random_uuid() as batch_id
    from waiting w
    group by w.organization_id
    having bool_or(w.not_before is null or w.not_before <= now())
       and max(w.requested_at) <= now() - v_hold
       and not private.build_in_flight(w.organization_id)
  ), claimed as (
    update public.site_rebuild_requests r
    set status = 'sent', sent_at = now(), batch_id = d.batch_id, finished_at = null, error = null
    from due d, waiting w
    where w.id = r.id and w.organization_id = d.organization_id
    returning r.batch_id, r.organization_id, r.reason
  )
  select c.batch_id, c.organization_id, o.slug, s.build_hook_url, count(*)::integer, array_agg(distinct c.reason)
  from claimed c
  join public.organizations o on o.id = c.organization_id
  left join public.site_rebuild_settings s on s.organization_id = c.organization_id
  group by c.batch_id, c.organization_id, o.slug, s.build_hook_url;
end;
$$;
revoke execute on function public.claim_due_site_rebuilds(integer, uuid, boolean) from public, anon, authenticated;
grant execute on function public.claim_due_site_rebuilds(integer, uuid, boolean) to service_role;

/** Automatic retries after failed builds in a row (1, 2, 4, 8, 16, 30 minutes apart): then Retry or a change. */
create function private.build_retries() returns integer
language sql immutable set search_path = '' as $$ select 6 $$;

/**
 * Records what a build reported: `building` creates the row (a repeated event changes nothing), `succeeded`
 * or `failed` finishes it (creating it when its start was never reported). A finished build is never
 * reopened or changed again, so a replayed or late event cannot rewrite history. A build that failed queues
 * its retry (unless a request already waits): due after 1 minute, doubled for each failed build since the
 * last success, at most 30 minutes, and no more after private.build_retries() failures in a row. Service
 * role only.
 */
create or replace function public.record_site_deploy(
  p_organization_id uuid,
  p_source text,
  p_external_id text,
  p_state text,
  p_started_at timestamptz default null,
  p_error text default null,
  p_url text default null
) returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_id uuid;
  v_finished boolean := false;
  v_failures integer;
begin
  if p_state not in ('building', 'succeeded', 'failed') then
    raise exception 'record_site_deploy: unknown state %', p_state using errcode = '22023';
  end if;
  insert into public.site_deploys as d (organization_id, source, external_id, state, started_at, finished_at, error, url)
  values (p_organization_id, p_source, p_external_id, p_state, coalesce(p_started_at, now()),
          case when p_state = 'building' then null else now() end,
          left(p_error, 2000), p_url)
  on conflict (organization_id, source, external_id) do update
    set state = excluded.state, finished_at = excluded.finished_at, error = excluded.error,
        url = coalesce(excluded.url, d.url)
    where d.state = 'building' and excluded.state <> 'building'
  returning d.id, d.state <> 'building' into v_id, v_finished;
  if v_id is null then
    select d.id into v_id from public.site_deploys d
    where d.organization_id = p_organization_id and d.source = p_source and d.external_id = p_external_id;
  elsif v_finished and p_state = 'failed' and not exists (
    select 1 from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.status = 'pending'
  ) then
    select count(*) into v_failures from public.site_deploys d
    where d.organization_id = p_organization_id and d.state = 'failed'
      and d.started_at > coalesce(
        (select max(s.started_at) from public.site_deploys s where s.organization_id = p_organization_id and s.state = 'succeeded'),
        '-infinity');
    if v_failures <= private.build_retries() then
      insert into public.site_rebuild_requests (organization_id, reason, not_before)
      values (p_organization_id, 'Retry after a failed build',
              now() + least(interval '30 minutes', interval '1 minute' * power(2, greatest(v_failures, 1) - 1)));
    end if;
  end if;
  return v_id;
end;
$$;

-- WHAT THE ADMIN HEADER SHOWS: also when an automatic retry is due, whether the
-- organization's builds report, and how long its recent builds took (the estimate after Publish).

create or replace function private.site_deploy_status(p_organization_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'pending_count', (select count(*) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.status = 'pending'),
    'oldest_pending_at', (select min(requested_at) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.status = 'pending'),
    'newest_pending_at', (select max(requested_at) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.status = 'pending'),
    'next_attempt_at', (
      select min(r.not_before) from public.site_rebuild_requests r
      where r.organization_id = p_organization_id and r.status = 'pending' and r.not_before > now()
        and not exists (select 1 from public.site_rebuild_requests q
                        where q.organization_id = p_organization_id and q.status = 'pending' and (q.not_before is null or q.not_before <= now()))
    ),
    'scheduler_ran_at', (select last_run_at from private.rebuild_scheduler),
    'quiet_window_ms', (select quiet_window_ms from private.rebuild_scheduler),
    'reports_builds', private.builds_report(p_organization_id),
    'recent_build_ms', (
      select round(percentile_cont(0.5) within group (order by extract(epoch from (b.finished_at - b.started_at)) * 1000))::bigint
      from (
        select d.started_at, d.finished_at from public.site_deploys d
        where d.organization_id = p_organization_id and d.state = 'succeeded' and d.finished_at is not null
        order by d.started_at desc limit 5
      ) b
    ),
    'last_request', (
      select jsonb_build_object('sent_at', r.sent_at, 'status', r.status, 'error', r.error)
      from public.site_rebuild_requests r
      where r.organization_id = p_organization_id and r.status <> 'pending' and r.sent_at is not null
      order by r.sent_at desc limit 1
    ),
    'latest_deploy', (
      select jsonb_build_object('state', d.state, 'started_at', d.started_at, 'finished_at', d.finished_at, 'error', d.error, 'url', d.url,
                                'stale', d.state = 'building' and d.started_at <= now() - private.deploy_hold())
      from public.site_deploys d where d.organization_id = p_organization_id
      order by d.started_at desc limit 1
    ),
    'live', (
      select jsonb_build_object('started_at', d.started_at, 'finished_at', d.finished_at, 'url', d.url)
      from public.site_deploys d where d.organization_id = p_organization_id and d.state = 'succeeded'
      order by d.started_at desc limit 1
    ),
    'now', now()
  )
  where private.is_org_member(p_organization_id)
$$;
