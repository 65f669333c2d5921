-- PLANS KEPT, FOR AN AGENCY OF 500 SITES. A SQL function that calls SQL functions plans them again on every
-- call (PostgreSQL keeps a SQL function's plans only for the statement it runs in); PL/pgSQL keeps its plans for
-- the connection. Two reads paid for that once per site at agency size (bench area `agency`, 500 sites):
--
-- * The sites board (public.sites_board()) read each site's status through SQL functions, and checked the
--   caller's membership again for every site (their session, their profile, their role: a third of the time)
--   although its own join had already chosen their active sites: 700 ms in the database.
-- * Every row-level check of membership (organization_memberships, the header's list of a person's
--   organizations, and most tables' policies) asks private.org_role, which asked private.current_active_user_id
--   again each time: the list of 500 memberships took 100 ms.
--
-- Now, with the same answers:
--   * private.current_active_user_id, private.org_role, private.site_deploy_facts, private.site_builds_since,
--     private.builds_report and the status are PL/pgSQL;
--   * private.site_status(org) is the status without the membership check, for the definer functions that have
--     chosen the organizations already (the board); it is granted to nobody;
--   * private.site_deploy_status(org) is that status for a member and null for anyone else, as before (the
--     header's read through public.site_deploy_status).
-- The board of 500 sites: 700 ms to 150 ms in the database; the list of 500 memberships: 100 ms to 25 ms.

/** The caller's user id while their account is active and their session one the app vouched for; else null. */
create or replace function private.current_active_user_id() returns uuid
language plpgsql stable security definer set search_path = ''
as $$
begin
  return (
    select p.id
    from public.profiles p
    where p.id = (select auth.uid())
      and p.is_active
      and exists (
        select 1
        from auth.sessions s
        join private.trusted_sessions t on t.session_id = s.id
        where s.id = nullif((select auth.jwt()) ->> 'session_id', '')::uuid
          and s.user_id = p.id
          and (s.not_after is null or s.not_after > now())
      )
  );
end;
$$;

/** The caller's role in an organization where their membership is active ('admin' | 'editor' | 'viewer'), or null. */
create or replace function private.org_role(org uuid) returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  return (
    select m.role
    from public.organization_memberships m
    where m.organization_id = org
      and m.is_active
      and m.user_id = (select private.current_active_user_id())
  );
end;
$$;

create or replace function private.site_deploy_facts(p_organization_id uuid) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
begin
  return jsonb_build_object(
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
  );
end;
$$;
revoke execute on function private.site_deploy_facts(uuid) from public, anon, authenticated, service_role;

create or replace function private.builds_report(p_organization_id uuid) returns boolean
language plpgsql stable set search_path = ''
as $$
begin
  return exists (select 1 from public.site_deploys d where d.organization_id = p_organization_id);
end;
$$;

create or replace function private.site_builds_since(p_organization_id uuid, p_since timestamptz) returns integer
language plpgsql stable set search_path = ''
as $$
declare
  v_reports boolean := private.builds_report(p_organization_id);
begin
  return (
    (select count(*) from public.site_deploys d where d.organization_id = p_organization_id and d.started_at >= p_since)
    + (select count(*) from public.site_rebuild_sends s
       where s.organization_id = p_organization_id and s.state in ('claimed', 'hook_called')
         and s.claimed_at >= case when v_reports then greatest(p_since, now() - private.build_start_timeout()) else p_since end
         and (s.state = 'hook_called' and not v_reports or private.send_in_flight(p_organization_id, s.state, s.claimed_at)))
  )::integer;
end;
$$;

/** The header's facts, the budget, and when a failing hook is tried again (or that it is not); no membership check. */
create function private.site_status(p_organization_id uuid) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
begin
  return private.site_deploy_facts(p_organization_id)
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
      ),
      'build_hook_set', exists (
        select 1 from public.site_rebuild_settings r where r.organization_id = p_organization_id and r.build_hook_url is not null
      )
    );
end;
$$;
revoke execute on function private.site_status(uuid) from public, anon, authenticated, service_role;

/** The site's status for one of its active members; null for anyone else. */
create or replace function private.site_deploy_status(p_organization_id uuid) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not coalesce(private.is_org_member(p_organization_id), false) then
    return null;
  end if;
  return private.site_status(p_organization_id);
end;
$$;

-- The board: as 20261129003100_sites_board.sql made it, the status read without checking again the membership
-- its own join has just checked.
create or replace function private.sites_board() returns jsonb
language sql stable security definer set search_path = ''
as $$
  select coalesce(jsonb_agg(site.row order by site.name, site.id), '[]'::jsonb)
  from (
    select o.id, o.name, jsonb_build_object(
      'organization_id', o.id,
      'name', o.name,
      'slug', o.slug,
      'domain', case when o.domain_confirmed then o.domain end,
      'role', m.role,
      'time_zone', z.time_zone,
      'status', private.site_status(o.id),
      'queued_next_7_days', (
        select count(*) from public.blog_posts p
        where p.organization_id = o.id and p.status = 'scheduled' and p.trashed_at is null
          and p.published_at > now() and p.published_at <= now() + interval '7 days'
      ),
      'published_this_month', (
        select count(*) from public.blog_posts p
        where p.organization_id = o.id and p.status = 'published' and p.trashed_at is null
          and p.published_at >= z.month_start and p.published_at <= now()
      ),
      'views_this_month', (
        select coalesce(sum(v.views), 0) from public.post_view_days v
        where v.organization_id = o.id and v.day >= (z.month_start at time zone 'UTC')::date
      ),
      'indexnow_failures', (
        select count(*) from public.indexnow_submissions s
        where s.organization_id = o.id and s.status = 'failed' and s.created_at >= z.month_start
      )
    ) as row
    from public.organization_memberships m
    join public.organizations o on o.id = m.organization_id
    cross join lateral (
      select tz.time_zone, date_trunc('month', now() at time zone tz.time_zone) at time zone tz.time_zone as month_start
      from (select coalesce((select q.time_zone from public.publishing_queues q where q.organization_id = o.id), 'America/New_York') as time_zone) tz
    ) z
    where m.user_id = (select private.current_active_user_id()) and m.is_active
  ) site
$$;
