-- ONE RECORD PER SEND
--
-- A send to a site's build hook was a stamp copied onto each request it carried (status, sent_at, attempts,
-- error, hook_failures): what became of a build could only be read by finding the rows of one batch id, and the
-- failure streak lived on requests. Now each send is one row of public.site_rebuild_sends with its own state:
--   claimed      a claim took the requests; the claimer calls the hook (a lease of private.send_lease())
--   hook_called  the hook answered; the build has not reported yet
--   started      its build reported `building` (deploy_id)
--   succeeded    its build reported `ready`
--   failed       the hook did not answer (error, retry_at: when its changes are tried again; infinity: no more by
--                themselves), or its build failed (deploy_id, error), or it was abandoned: its claimer stopped
--                before the hook call (the lease ran out) or no build started within the start timeout, and its
--                changes went with a later send
--   skipped      no usable hook (its changes wait again once a hook is set)
-- A request is waiting (batch_id null), or carried by the send batch_id names; it waits again when that send's
-- hook failed and its retry time has come, when its lease ran out, or when no build started in time. The rules of
-- 20261129001300_build_queue_leases.sql are kept: a claim re-checks each request under its locks, so no request
-- goes into two sends; a send that died before its hook call is sent again after the lease, where builds report
-- and where they do not; a failing hook backs off (1, 2, 4, 8, 16, 30 minutes) and stops after
-- private.build_retries() failures in a row; adding a hook builds what waited.

create table public.site_rebuild_sends (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references public.organizations (id) on delete cascade,
  state text not null default 'claimed' check (state in ('claimed', 'hook_called', 'started', 'succeeded', 'failed', 'skipped')),
  manual boolean not null default false,
  request_count integer not null default 0 check (request_count >= 0),
  claimed_at timestamptz not null default now(),
  hook_called_at timestamptz,
  attempts integer not null default 0 check (attempts between 0 and 20),
  hook_failures integer not null default 0 check (hook_failures between 0 and 100),
  retry_at timestamptz,
  deploy_id uuid references public.site_deploys (id) on delete set null,
  error text check (char_length(error) <= 2000),
  finished_at timestamptz
);
comment on table public.site_rebuild_sends is
  'Each send of an organization''s waiting changes to its build hook, and what became of it (see migration 20261129002000).';
comment on column public.site_rebuild_sends.hook_failures is 'Failed hook calls of the organization in a row, this one included.';
create index site_rebuild_sends_organization_idx on public.site_rebuild_sends (organization_id, claimed_at desc);
create index site_rebuild_sends_deploy_idx on public.site_rebuild_sends (deploy_id) where deploy_id is not null;
alter table public.site_rebuild_sends enable row level security;
revoke all on table public.site_rebuild_sends from anon, authenticated;
grant all on table public.site_rebuild_sends to service_role;
create policy "Admins can read the sends of their organization" on public.site_rebuild_sends
  for select to authenticated using ((select private.is_org_admin(organization_id)));
grant select on table public.site_rebuild_sends to authenticated;

-- The sends the requests recorded so far, one per batch, then the requests keep only which send carries them.
insert into public.site_rebuild_sends (id, organization_id, state, manual, request_count, claimed_at, hook_called_at, attempts,
                                       hook_failures, retry_at, error, finished_at)
select r.batch_id, min(r.organization_id::text)::uuid,
       case min(r.status) when 'sent' then 'claimed' else min(r.status) end,
       bool_or(r.manual), count(*), min(r.sent_at),
       case when min(r.status) = 'hook_called' then min(r.finished_at) end,
       max(r.attempts), max(r.hook_failures),
       case when min(r.status) = 'failed' then max(r.not_before) end,
       max(r.error), max(r.finished_at)
from public.site_rebuild_requests r
where r.batch_id is not null and r.status <> 'pending' and r.sent_at is not null
group by r.batch_id;
update public.site_rebuild_requests r set batch_id = null where r.status = 'pending' or r.sent_at is null;
update public.site_rebuild_requests r set not_before = null where r.status = 'failed';
alter table public.site_rebuild_requests
  add constraint site_rebuild_requests_batch_id_fkey foreign key (batch_id) references public.site_rebuild_sends (id) on delete set null;
drop index public.site_rebuild_requests_pending_idx;
drop index public.site_rebuild_requests_waiting_idx;
drop index public.site_rebuild_requests_sent_at_idx;
drop index public.site_rebuild_requests_sends_idx;
alter table public.site_rebuild_requests
  drop column status, drop column sent_at, drop column finished_at, drop column attempts, drop column error, drop column hook_failures;
create index site_rebuild_requests_waiting_idx on public.site_rebuild_requests (organization_id) where batch_id is null;
comment on column public.site_rebuild_requests.batch_id is 'The send that carries this change (site_rebuild_sends); null while it waits for one.';
comment on column public.site_rebuild_requests.not_before is
  'An automatic retry after a failed build is not due before this time (null: due at once). It still joins any build sent earlier.';
comment on column public.site_rebuild_requests.manual is 'Asked by an admin (Build now, Retry): built whatever the budget''s pace.';

-- THE SEND'S BUILD

/**
 * Whether a send of the organization claimed at p_claimed_at, in state p_state, is a build in flight: claimed
 * within its lease, or its hook called and no build started since, for at most the start timeout (where builds
 * report) or the assumed build time (where they never did).
 */
create function private.send_in_flight(p_organization_id uuid, p_state text, p_claimed_at timestamptz) returns boolean
language sql stable set search_path = ''
as $$
  select case p_state
    when 'claimed' then p_claimed_at > now() - private.send_lease()
    when 'hook_called' then
      p_claimed_at > now() - case when private.builds_report(p_organization_id) then private.build_start_timeout() else private.unreported_build_time() end
      and not private.build_started_since(p_organization_id, p_claimed_at)
    else false
  end
$$;
revoke execute on function private.send_in_flight(uuid, text, timestamptz) from public, anon, authenticated;

/** Whether one of the organization's builds is in flight: a deploy reports `building` (younger than the hold), or a send is. */
create or replace function private.build_in_flight(p_organization_id uuid) returns boolean
language sql stable set search_path = ''
as $$
  select exists (
      select 1 from public.site_deploys d
      where d.organization_id = p_organization_id and d.state = 'building' and d.started_at > now() - private.deploy_hold()
    )
    or exists (
      select 1 from public.site_rebuild_sends s
      where s.organization_id = p_organization_id and s.state in ('claimed', 'hook_called')
        and s.claimed_at > now() - greatest(private.build_start_timeout(), private.send_lease())
        and private.send_in_flight(p_organization_id, s.state, s.claimed_at)
    )
$$;

/**
 * A site's builds since p_since: its deploys that started since, and its sends since whose build has not
 * reported: where its builds report, only those in flight; where they never report, every send whose hook was
 * called, and a claim within its lease.
 */
create or replace function private.site_builds_since(p_organization_id uuid, p_since timestamptz) returns integer
language sql stable set search_path = ''
as $$
  with site as (select private.builds_report(p_organization_id) as reports)
  select (
    (select count(*) from public.site_deploys d where d.organization_id = p_organization_id and d.started_at >= p_since)
    + (select count(*) from public.site_rebuild_sends s
       where s.organization_id = p_organization_id and s.state in ('claimed', 'hook_called')
         and s.claimed_at >= case when (select reports from site) then greatest(p_since, now() - private.build_start_timeout()) else p_since end
         and (s.state = 'hook_called' and not (select reports from site) or private.send_in_flight(p_organization_id, s.state, s.claimed_at)))
  )::integer
$$;

-- WAITING

/**
 * The requests that wait for a build (of one organization, or all), with the send that carried them last: not
 * in a send; or their send's hook failed (due again at its retry_at); or their send was claimed and its lease
 * ran out; or its hook was called in the last day, the organization's builds report, and no build started within
 * the start timeout (the call was lost). `manual` unless their send's hook failed (a failing hook backs off even
 * for Build now; the admin's Retry asks again).
 */
drop function private.waiting_rebuild_requests(uuid);
create function private.waiting_rebuild_requests(p_organization_id uuid)
returns table (id uuid, organization_id uuid, requested_at timestamptz, not_before timestamptz, manual boolean, batch_id uuid)
language sql stable set search_path = ''
as $$
  select r.id, r.organization_id, r.requested_at, r.not_before, r.manual, null::uuid
  from public.site_rebuild_requests r
  where r.batch_id is null and (p_organization_id is null or r.organization_id = p_organization_id)
  union all
  select r.id, r.organization_id, r.requested_at,
         case when s.state = 'failed' then s.retry_at else r.not_before end,
         r.manual and s.state <> 'failed', s.id
  from public.site_rebuild_sends s
  join public.site_rebuild_requests r on r.batch_id = s.id
  where (p_organization_id is null or s.organization_id = p_organization_id)
    and (
      (s.state = 'failed' and s.retry_at is not null)
      or (s.state = 'claimed' and s.claimed_at <= now() - private.send_lease())
      or (s.state = 'hook_called' and s.claimed_at > now() - private.build_lookback() and s.claimed_at <= now() - private.build_start_timeout()
          and private.builds_report(s.organization_id) and not private.build_started_since(s.organization_id, s.claimed_at))
    )
$$;
revoke execute on function private.waiting_rebuild_requests(uuid) from public, anon, authenticated;
create index site_rebuild_sends_open_idx on public.site_rebuild_sends (organization_id, claimed_at) where state in ('claimed', 'hook_called', 'failed');

-- THE CLAIM

/**
 * Claims the organizations' due rebuild requests (one organization, or all: then it also leaves the scheduler's
 * heartbeat) and answers one send per organization. An organization is due when a waiting request is ready (a
 * retry's not_before has passed), no build of it is in flight, and its team's budget lets it build now
 * (private.site_budget), or an admin asked for the build (`manual`); with p_at_once false, also only once its
 * newest request is p_quiet_window_ms old. Due sites are served fewest builds first. The send takes every waiting
 * request of the organization in one UPDATE that re-checks each row (still carried by the send it was read with),
 * so no request goes into two sends; the sends it replaces (lease over, no build started) are recorded as failed.
 * Claims of one team, and of one organization, take turns (an organization whose lock another claimer holds is
 * left to it).
 */
create or replace function public.claim_due_site_rebuilds(p_quiet_window_ms integer, p_organization_id uuid default null, p_at_once boolean default true)
returns table (batch_id uuid, organization_id uuid, organization_slug text, build_hook_url text, request_count integer, reasons text[])
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  v_hold interval := case when p_at_once then interval '0' else make_interval(secs => p_quiet_window_ms / 1000.0) end;
  v_due record;
  v_send uuid;
  v_count integer;
begin
  if p_organization_id is null then
    insert into private.rebuild_scheduler (last_run_at, quiet_window_ms)
    values (now(), case when p_at_once then 0 else p_quiet_window_ms end)
    on conflict (id) do update set last_run_at = excluded.last_run_at, quiet_window_ms = excluded.quiet_window_ms;
  end if;
  -- One claimer per team, then per organization, at a time (each in id order, so claims never deadlock): two
  -- claims cannot both take a team's last build, nor both find nothing in flight.
  perform pg_advisory_xact_lock(hashtextextended('site_rebuild_team:' || t.team_id::text, 0))
  from (select distinct s.team_id from private.waiting_rebuild_requests(p_organization_id) w
        join public.hosting_team_sites s on s.organization_id = w.organization_id order by 1) t;
  perform pg_advisory_xact_lock(hashtextextended('site_rebuild:' || o.organization_id::text, 0))
  from (select distinct w.organization_id from private.waiting_rebuild_requests(p_organization_id) w order by w.organization_id) o;
  for v_due in
    select w.organization_id, bool_or(w.manual) as manual, s.team_id
    from private.waiting_rebuild_requests(p_organization_id) w
    join public.hosting_team_sites s on s.organization_id = w.organization_id
    group by w.organization_id, s.team_id
    having bool_or(w.not_before is null or w.not_before <= now() or w.manual)
       and max(w.requested_at) <= now() - v_hold
       and not private.build_in_flight(w.organization_id)
    order by private.site_builds_since(w.organization_id, now() - interval '31 days'), min(w.requested_at)
  loop
    -- Locks already held are taken again at once; one another claimer holds means it is claiming this organization.
    continue when not pg_try_advisory_xact_lock(hashtextextended('site_rebuild_team:' || v_due.team_id::text, 0))
      or not pg_try_advisory_xact_lock(hashtextextended('site_rebuild:' || v_due.organization_id::text, 0));
    if not v_due.manual and not coalesce((private.site_budget(v_due.organization_id) ->> 'may_build')::boolean, true) then
      continue;
    end if;
    insert into public.site_rebuild_sends (organization_id, manual) values (v_due.organization_id, v_due.manual) returning id into v_send;
    with waiting as (
      select w.id, w.batch_id from private.waiting_rebuild_requests(v_due.organization_id) w
    ), replaced as (
      -- The sends whose changes this one takes over: their claimer stopped, or their build never started.
      update public.site_rebuild_sends s
      set state = 'failed', finished_at = now(), error = case s.state
        when 'claimed' then 'Not sent: the function that claimed it stopped before calling the hook; its changes went with the next send.'
        else 'No build started after the hook call; its changes went with the next send.' end
      where s.id in (select w.batch_id from waiting w) and s.state in ('claimed', 'hook_called')
    )
    update public.site_rebuild_requests r set batch_id = v_send
    from waiting w
    -- Re-checked on the row as it is now: a row another claimer took meanwhile is not taken again.
    where r.id = w.id and r.batch_id is not distinct from w.batch_id;
    get diagnostics v_count = row_count;
    if v_count = 0 then
      delete from public.site_rebuild_sends s where s.id = v_send;
      continue;
    end if;
    update public.site_rebuild_sends s set request_count = v_count where s.id = v_send;
    return query
    select v_send, v_due.organization_id, o.slug, st.build_hook_url, v_count,
           (select array_agg(distinct r.reason) from public.site_rebuild_requests r where r.batch_id = v_send)
    from public.organizations o
    left join public.site_rebuild_settings st on st.organization_id = o.id
    where o.id = v_due.organization_id;
  end loop;
end;
$$;

/**
 * Records what became of a send's hook call (`hook_called`, `failed` or `skipped`, with the tries and the error).
 * A failure counts in the organization's streak (hook_failures) and makes its changes due again after a backoff
 * (1, 2, 4, 8, 16, 30 minutes), never by themselves after private.build_retries() failures in a row. Only a send
 * still claimed changes (one whose lease ran out and was taken over is the new send's business), or one its build
 * already reported on, which keeps the build's state. Service role only.
 */
create or replace function public.record_rebuild_outcome(p_batch_id uuid, p_status text, p_attempts integer, p_error text default null)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_failures integer;
begin
  if p_status not in ('hook_called', 'failed', 'skipped') then
    raise exception 'record_rebuild_outcome: unknown outcome %', p_status using errcode = '22023';
  end if;
  select coalesce((
    select p.hook_failures from public.site_rebuild_sends p
    where p.organization_id = s.organization_id and p.claimed_at < s.claimed_at and p.attempts > 0 and p.state <> 'claimed'
    order by p.claimed_at desc limit 1), 0) + 1
  into v_failures from public.site_rebuild_sends s where s.id = p_batch_id;
  update public.site_rebuild_sends s set
    state = case when s.deploy_id is not null then s.state else p_status end,
    attempts = least(greatest(p_attempts, 0), 20),
    error = left(p_error, 2000),
    hook_called_at = case when p_status = 'hook_called' then now() end,
    finished_at = case when p_status <> 'hook_called' then now() else s.finished_at end,
    hook_failures = case when p_status = 'failed' then least(v_failures, 100) else 0 end,
    retry_at = case
      when p_status <> 'failed' then null
      when v_failures > private.build_retries() then 'infinity'::timestamptz
      else now() + least(interval '30 minutes', interval '1 minute' * power(2, v_failures - 1))
    end
  -- Still claimed, or already matched to the build it started (its notification came before this record).
  where s.id = p_batch_id and (s.state = 'claimed' or (s.deploy_id is not null and s.attempts = 0));
end;
$$;

/**
 * Records what a build reported (as in 20261129000200_build_queue.sql: `building` creates the row, `succeeded`
 * or `failed` finishes it, never reopened; a failed build queues its retry with a growing backoff), and on the
 * send whose hook call started it: the organization's latest send claimed before the build started (give or take
 * the clock slack) and not yet matched to a build becomes `started`, then `succeeded` or `failed` with it.
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
  v_started_at timestamptz;
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
  returning d.id, d.state <> 'building', d.started_at into v_id, v_finished, v_started_at;
  if v_id is null then
    select d.id into v_id from public.site_deploys d
    where d.organization_id = p_organization_id and d.source = p_source and d.external_id = p_external_id;
    return v_id;
  end if;

  -- The send this build answers, matched once; then it follows the build.
  update public.site_rebuild_sends s set deploy_id = v_id
  where s.id = (
    select c.id from public.site_rebuild_sends c
    where c.organization_id = p_organization_id and c.deploy_id is null and c.state in ('claimed', 'hook_called')
      and c.claimed_at <= v_started_at + private.build_clock_slack() and c.claimed_at > v_started_at - private.build_start_timeout()
    order by c.claimed_at desc limit 1)
    and not exists (select 1 from public.site_rebuild_sends o where o.deploy_id = v_id);
  update public.site_rebuild_sends s set
    state = case p_state when 'building' then 'started' when 'succeeded' then 'succeeded' else 'failed' end,
    error = case when p_state = 'failed' then coalesce(left(p_error, 2000), 'The build failed.') else s.error end,
    finished_at = case when p_state = 'building' then null else now() end
  where s.deploy_id = v_id;

  if v_finished and p_state = 'failed' and not exists (
    select 1 from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.batch_id is null
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

-- WHAT THE HEADER SHOWS

/** The site's deploy facts: waiting changes, the scheduler's heartbeat, the latest send and deploy, what is live. */
create or replace function private.site_deploy_facts(p_organization_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select jsonb_build_object(
    'pending_count', (select count(*) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.batch_id is null),
    'oldest_pending_at', (select min(requested_at) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.batch_id is null),
    'newest_pending_at', (select max(requested_at) from public.site_rebuild_requests r where r.organization_id = p_organization_id and r.batch_id is null),
    'next_attempt_at', (
      select min(r.not_before) from public.site_rebuild_requests r
      where r.organization_id = p_organization_id and r.batch_id is null and r.not_before > now()
        and not exists (select 1 from public.site_rebuild_requests q
                        where q.organization_id = p_organization_id and q.batch_id is null and (q.not_before is null or q.not_before <= now()))
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
    'last_send', (
      select jsonb_build_object('sent_at', s.claimed_at, 'state', s.state, 'error', s.error)
      from public.site_rebuild_sends s where s.organization_id = p_organization_id
      order by s.claimed_at desc limit 1
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

/** The header's facts, the budget, and when a failing hook is tried again (or that it is not): the latest send's. */
create or replace function private.site_deploy_status(p_organization_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select private.site_deploy_facts(p_organization_id)
    || jsonb_build_object(
      'budget', private.site_budget(p_organization_id),
      'hook_retry_at', (
        select s.retry_at from public.site_rebuild_sends s
        where s.organization_id = p_organization_id and s.state = 'failed' and s.retry_at > now() and s.retry_at < 'infinity'
          and s.claimed_at = (select max(l.claimed_at) from public.site_rebuild_sends l where l.organization_id = p_organization_id)
      ),
      'hook_retries_stopped', exists (
        select 1 from public.site_rebuild_sends s
        where s.organization_id = p_organization_id and s.state = 'failed' and s.retry_at = 'infinity'
          and exists (select 1 from public.site_rebuild_requests r where r.batch_id = s.id)
      )
    )
$$;

-- ADDING A HOOK BUILDS WHAT WAITED

/** A hook set (or changed): the changes skipped for want of one since the site's last successful build wait again. */
create or replace function private.requeue_skipped_rebuilds() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.build_hook_url is not null and new.build_hook_url is distinct from (case when tg_op = 'UPDATE' then old.build_hook_url end) then
    update public.site_rebuild_requests r set batch_id = null
    from public.site_rebuild_sends s
    where s.id = r.batch_id and s.organization_id = new.organization_id and s.state = 'skipped'
      and r.requested_at > coalesce(
        (select max(d.started_at) from public.site_deploys d where d.organization_id = new.organization_id and d.state = 'succeeded'),
        '-infinity');
  end if;
  return null;
end;
$$;
