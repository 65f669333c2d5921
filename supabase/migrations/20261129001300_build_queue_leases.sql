-- THE BUILD QUEUE UNDER CRASHES AND RACES: nothing sent twice, nothing lost, a failing hook backs off.
--
-- 1. A claim cannot double-send. The claim's UPDATE re-checks each row's status on the row as it is when the
--    update reaches it (Postgres re-evaluates the WHERE on a row another transaction changed meanwhile), so a row
--    another claimer took is skipped, not claimed again into a second batch; and an organization the claim did not
--    lock at its start (its first request arrived during the claim) is claimed only if its lock is free now.
-- 2. A claim is a lease. A request left `sent` (its batch claimed, the hook call's outcome never recorded: the
--    function died in between, or could not record it) is waiting again once the lease is over, whether or not the
--    organization's builds report; it goes with the next claim.
-- 3. A failing hook backs off and stops, as a failing build does: each failure of a batch's hook call (after the
--    call's own three tries) makes its requests due again only after 1, 2, 4, 8, 16, then 30 minutes; after
--    private.build_retries() failures in a row they are no longer tried by themselves. A new change or the admin's
--    Retry sends them at once (record_rebuild_outcome records a send's outcome). The header says when the next try
--    is, or that there is none (site_deploy_status: `hook_retry_at`, `hook_retries_stopped`).
-- 4. Adding a hook builds what waited: requests skipped for want of a hook since the site's last successful build
--    are waiting again when a hook is set.

-- 2. THE LEASE

/** How long a claimed batch may stay `sent` before its hook call is presumed never made (a function runs at most 30 s). */
create function private.send_lease() returns interval
language sql immutable set search_path = '' as $$ select interval '2 minutes' $$;

alter table public.site_rebuild_requests add column hook_failures integer not null default 0 check (hook_failures between 0 and 100);
comment on column public.site_rebuild_requests.hook_failures is
  'How many of the hook calls that carried this request failed in a row; drives the backoff (record_rebuild_outcome).';

/**
 * The requests that wait for a build (of one organization, or all): pending; or their hook call failed; or their
 * batch was claimed and its outcome never recorded within the lease; or they were sent in the last day, their
 * organization's builds report, and no build started within the start timeout (the call was lost).
 */
create or replace function private.waiting_rebuild_requests(p_organization_id uuid)
returns table (id uuid, organization_id uuid, requested_at timestamptz, not_before timestamptz, manual boolean)
language sql stable set search_path = ''
as $$
  select r.id, r.organization_id, r.requested_at, r.not_before, r.manual
  from public.site_rebuild_requests r
  where r.status in ('pending', 'failed') and (p_organization_id is null or r.organization_id = p_organization_id)
  union all
  select r.id, r.organization_id, r.requested_at, r.not_before, r.manual
  from public.site_rebuild_requests r
  where r.status = 'sent' and r.sent_at <= now() - private.send_lease()
    and (p_organization_id is null or r.organization_id = p_organization_id)
  union all
  select r.id, r.organization_id, r.requested_at, r.not_before, r.manual
  from public.site_rebuild_requests r
  where r.status = 'hook_called'
    and r.sent_at > now() - private.build_lookback() and r.sent_at <= now() - private.build_start_timeout()
    and (p_organization_id is null or r.organization_id = p_organization_id)
    and private.builds_report(r.organization_id)
    and not private.build_started_since(r.organization_id, r.sent_at)
$$;

-- 1. THE CLAIM

/**
 * Claims the organizations' due rebuild requests (one organization, or all: then it also leaves the
 * scheduler's heartbeat) and answers one batch per organization. An organization is due when a waiting
 * request is ready (a retry's not_before has passed), no build of it is in flight, and its team's budget lets it
 * build now (private.site_budget), or an admin asked for the build (`manual`); with p_at_once false, also only
 * once its newest request is p_quiet_window_ms old. Due sites are served fewest builds first, each claim counted
 * before the next is weighed. The batch takes every waiting request of the organization, marked `sent` with the
 * batch id in one UPDATE that re-checks each row's state, so no request goes into two batches; claims of one team,
 * and of one organization, take turns (an organization whose lock another claimer holds is left to it).
 */
create or replace function public.claim_due_site_rebuilds(p_quiet_window_ms integer, p_organization_id uuid default null, p_at_once boolean default true)
returns table (batch_id uuid, organization_id uuid, organization_slug text, build_hook_url text, request_count integer, reasons text[])
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  v_hold interval := case when p_at_once then interval '0' else make_interval(secs => p_quiet_window_ms / 1000.0) end;
  v_due record;
  v_batch uuid;
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
    v_batch := gen_random_uuid();
    return query
    with claimed as (
      update public.site_rebuild_requests r
      set status = 'sent', sent_at = now(), batch_id = v_batch, finished_at = null, error = null
      where r.id in (select w.id from private.waiting_rebuild_requests(v_due.organization_id) w)
        -- Re-checked on the row as it is now: a row another claimer took meanwhile is not taken again.
        and (r.status in ('pending', 'failed')
             or (r.status = 'sent' and r.sent_at <= now() - private.send_lease())
             or (r.status = 'hook_called' and r.sent_at <= now() - private.build_start_timeout()))
      returning r.batch_id, r.organization_id, r.reason
    )
    select c.batch_id, c.organization_id, o.slug, s.build_hook_url, count(*)::integer, array_agg(distinct c.reason)
    from claimed c
    join public.organizations o on o.id = c.organization_id
    left join public.site_rebuild_settings s on s.organization_id = c.organization_id
    group by c.batch_id, c.organization_id, o.slug, s.build_hook_url;
  end loop;
end;
$$;

-- 3. A FAILING HOOK BACKS OFF

/**
 * Records what became of a batch's hook call (`hook_called`, `failed` or `skipped`, with the tries and the error)
 * on its requests. A failure counts against each request (hook_failures) and makes it due again after a backoff
 * (1, 2, 4, 8, 16, 30 minutes), never by itself after private.build_retries() failures in a row. Only rows still
 * in this batch's claim change (a batch whose lease ran out and was claimed again is the new batch's). Service
 * role only.
 */
create function public.record_rebuild_outcome(p_batch_id uuid, p_status text, p_attempts integer, p_error text default null)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if p_status not in ('hook_called', 'failed', 'skipped') then
    raise exception 'record_rebuild_outcome: unknown outcome %', p_status using errcode = '22023';
  end if;
  update public.site_rebuild_requests r set
    status = p_status,
    attempts = least(greatest(p_attempts, 0), 20),
    error = left(p_error, 2000),
    finished_at = now(),
    hook_failures = case when p_status = 'failed' then least(r.hook_failures + 1, 100) else 0 end,
    not_before = case
      when p_status <> 'failed' then r.not_before
      when r.hook_failures + 1 > private.build_retries() then 'infinity'::timestamptz
      else now() + least(interval '30 minutes', interval '1 minute' * power(2, r.hook_failures))
    end,
    manual = case when p_status = 'failed' then false else r.manual end
  where r.batch_id = p_batch_id and r.status = 'sent';
end;
$$;
revoke execute on function public.record_rebuild_outcome(uuid, text, integer, text) from public, anon, authenticated;
grant execute on function public.record_rebuild_outcome(uuid, text, integer, text) to service_role;

-- What the header shows: the site's facts and budget, and when a failing hook is tried again (or that it is not).
create or replace function private.site_deploy_status(p_organization_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select private.site_deploy_facts(p_organization_id)
    || jsonb_build_object(
      'budget', private.site_budget(p_organization_id),
      'hook_retry_at', (
        select min(r.not_before) from public.site_rebuild_requests r
        where r.organization_id = p_organization_id and r.status = 'failed' and r.not_before > now() and r.not_before < 'infinity'
      ),
      'hook_retries_stopped', exists (
        select 1 from public.site_rebuild_requests r
        where r.organization_id = p_organization_id and r.status = 'failed' and r.not_before = 'infinity'
      )
    )
$$;

-- 4. ADDING A HOOK BUILDS WHAT WAITED

/** A hook set (or changed): the changes skipped for want of one since the site's last successful build wait again. */
create function private.requeue_skipped_rebuilds() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.build_hook_url is not null and new.build_hook_url is distinct from (case when tg_op = 'UPDATE' then old.build_hook_url end) then
    update public.site_rebuild_requests r
    set status = 'pending', batch_id = null, sent_at = null, finished_at = null, error = null, attempts = 0
    where r.organization_id = new.organization_id and r.status = 'skipped'
      and r.requested_at > coalesce(
        (select max(d.started_at) from public.site_deploys d where d.organization_id = new.organization_id and d.state = 'succeeded'),
        '-infinity');
  end if;
  return null;
end;
$$;
revoke execute on function private.requeue_skipped_rebuilds() from public, anon, authenticated;
create trigger site_rebuild_settings_requeue_skipped after insert or update of build_hook_url on public.site_rebuild_settings
  for each row execute function private.requeue_skipped_rebuilds();
