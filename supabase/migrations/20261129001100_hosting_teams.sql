-- PUBLISHING WITHIN THE HOSTING BILL: every build counted, paced to a budget per hosting team, fair per site.
--
-- On Netlify's credit plans a production deploy costs credits (15 by default); a team whose credits run out has
-- every site paused until the next cycle. Client sites of an agency share one team, so one site's pace could take
-- the others offline. Here:
-- 1. hosting_teams (and hosting_team_sites, which site is in which): the sites that share one Netlify team (one credit pool), with the plan's
--    monthly credits, what a deploy costs, the day the billing cycle starts (UTC; a day past a month's end is its
--    last day), the share of credits builds may use (the rest is left for bandwidth, requests and functions) and
--    whether the team buys more automatically. Every organization belongs to one; one made without a team gets a
--    team of its own (Free's 300 credits until an admin sets the plan). Only admins of every organization of a
--    team read and change it.
-- 2. Every build counted (private.site_builds_since): the site's production deploys that started in the cycle
--    (its deploy notifications, a failed build included: the safe side), plus hook calls whose build has not
--    started yet; where builds never report, each hook call.
-- 3. Paced (private.site_budget): the cycle's builds are the share's credits / credits per deploy. They accrue
--    evenly over the cycle, with a small burst allowance (5%, at least one), so a team within its pace builds
--    at once; one build per site is kept back for the cycle's last six hours, when everything waiting goes out.
--    A site may use at most twice its even share of what has accrued (one site's burst cannot spend the others'
--    builds), and the claim serves the sites with the fewest builds first. Once the share is spent, automatic
--    builds stop until the next cycle (the sites stay up with what they show); an admin's Build now
--    (request_site_rebuild with p_manual) builds anyway.
-- 4. claim_due_site_rebuilds applies it, holding a team's lock so two claims cannot both take its last build;
--    site_deploy_status answers the budget too (`budget`: why a build waits and when the next one is).
-- 5. One mail to the team's admins at 80% of the share and one at 95% (claim_budget_alerts, called by the
--    scheduler).

-- 1. HOSTING TEAMS

create table public.hosting_teams (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(btrim(name)) between 1 and 120),
  /** The plan's credits a month (Free 300, Personal 1,000, Pro 5,000 per team). */
  monthly_credits integer not null default 300 check (monthly_credits between 1 and 10000000),
  /** What one production deploy costs. */
  credits_per_deploy integer not null default 15 check (credits_per_deploy between 1 and 1000),
  /** The day of the month the billing cycle starts (UTC); in a shorter month, its last day. */
  cycle_start_day integer not null default 1 check (cycle_start_day between 1 and 31),
  /** The share of the credits builds may use, in percent. */
  build_share_percent integer not null default 80 check (build_share_percent between 1 and 100),
  /** Whether Netlify buys more credits when they run out (then nothing is paused, but it costs). */
  auto_recharge boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.hosting_teams enable row level security;
revoke all on table public.hosting_teams from anon, authenticated;
grant select on table public.hosting_teams to authenticated;
grant update (name, monthly_credits, credits_per_deploy, cycle_start_day, build_share_percent, auto_recharge)
  on table public.hosting_teams to authenticated;
grant all on table public.hosting_teams to service_role;

/**
 * Which team each organization's site is in (one row per organization). Apart from organizations, whose columns
 * visitors read: which sites share a team (an agency's clients) is nobody's business but the operator's.
 */
create table public.hosting_team_sites (
  organization_id uuid primary key references public.organizations (id) on delete cascade,
  team_id uuid not null references public.hosting_teams (id) on delete restrict
);
alter table public.hosting_team_sites enable row level security;
revoke all on table public.hosting_team_sites from anon, authenticated;
grant all on table public.hosting_team_sites to service_role;
create index hosting_team_sites_team_id_idx on public.hosting_team_sites (team_id);

/** Whether the caller is an active admin of every organization of the team (and it has one). */
create function private.is_team_admin(p_team_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (select 1 from public.hosting_team_sites s where s.team_id = p_team_id)
    and not exists (
      select 1 from public.hosting_team_sites s
      where s.team_id = p_team_id and not private.is_org_admin(s.organization_id)
    )
$$;
revoke execute on function private.is_team_admin(uuid) from public, anon;
grant execute on function private.is_team_admin(uuid) to authenticated, service_role;

create policy "Admins of every site of a team read it" on public.hosting_teams
  for select to authenticated using ((select private.is_team_admin(id)));
create policy "Admins of every site of a team change it" on public.hosting_teams
  for update to authenticated using ((select private.is_team_admin(id))) with check ((select private.is_team_admin(id)));

/** Keeps updated_at and logs a change of the team's figures in the audit log of each of its organizations. */
create function private.record_hosting_team_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  new.updated_at := now();
  if (old.name, old.monthly_credits, old.credits_per_deploy, old.cycle_start_day, old.build_share_percent, old.auto_recharge)
     is distinct from (new.name, new.monthly_credits, new.credits_per_deploy, new.cycle_start_day, new.build_share_percent, new.auto_recharge) then
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    select private.current_active_user_id(), s.organization_id, 'hosting_team_changed', 'hosting_team', new.id::text,
      jsonb_build_object('name', new.name, 'monthly_credits', new.monthly_credits, 'credits_per_deploy', new.credits_per_deploy,
                         'cycle_start_day', new.cycle_start_day, 'build_share_percent', new.build_share_percent, 'auto_recharge', new.auto_recharge)
    from public.hosting_team_sites s where s.team_id = new.id;
  end if;
  return new;
end;
$$;
revoke execute on function private.record_hosting_team_change() from public, anon, authenticated;
create trigger hosting_teams_record_change before update on public.hosting_teams
  for each row execute function private.record_hosting_team_change();

/** An organization is made in a team of its own, named after it, with the Free plan's figures (site:add moves it). */
create function private.give_organization_a_team() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_team uuid;
begin
  insert into public.hosting_teams (name) values (new.name) returning id into v_team;
  insert into public.hosting_team_sites (organization_id, team_id) values (new.id, v_team);
  return null;
end;
$$;
revoke execute on function private.give_organization_a_team() from public, anon, authenticated;
create trigger organizations_give_a_team after insert on public.organizations
  for each row execute function private.give_organization_a_team();

/** A team whose last site is gone (the organization deleted) goes with it. */
create function private.remove_empty_team() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.hosting_teams t
  where t.id = old.team_id and not exists (select 1 from public.hosting_team_sites s where s.team_id = old.team_id);
  return null;
end;
$$;
revoke execute on function private.remove_empty_team() from public, anon, authenticated;
create trigger hosting_team_sites_remove_empty_team after delete on public.hosting_team_sites
  for each row execute function private.remove_empty_team();

-- Every organization so far is a team of one.
do $$
declare
  v_org record;
  v_team uuid;
begin
  for v_org in select o.id, o.name from public.organizations o loop
    insert into public.hosting_teams (name) values (v_org.name) returning id into v_team;
    insert into public.hosting_team_sites (organization_id, team_id) values (v_org.id, v_team);
  end loop;
end;
$$;

/**
 * Puts an organization in a hosting team (the operator's site:add, service role only): the team named p_team_name,
 * made when there is none, with the figures given (null: kept, or the defaults for a new team). A team left with no
 * organization is removed. Answers the team's row.
 */
create function public.place_site_in_team(
  p_organization_id uuid,
  p_team_name text,
  p_monthly_credits integer default null,
  p_credits_per_deploy integer default null,
  p_cycle_start_day integer default null,
  p_build_share_percent integer default null,
  p_auto_recharge boolean default null
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_team public.hosting_teams;
  v_previous uuid;
begin
  select s.team_id into v_previous from public.hosting_team_sites s where s.organization_id = p_organization_id for update;
  if not found then
    raise exception 'place_site_in_team: no organization %', p_organization_id using errcode = 'P0002';
  end if;
  select t.* into v_team from public.hosting_teams t where t.name = btrim(p_team_name) order by t.created_at limit 1 for update;
  if v_team.id is null then
    insert into public.hosting_teams (name) values (btrim(p_team_name)) returning * into v_team;
  end if;
  update public.hosting_teams t set
    monthly_credits = coalesce(p_monthly_credits, t.monthly_credits),
    credits_per_deploy = coalesce(p_credits_per_deploy, t.credits_per_deploy),
    cycle_start_day = coalesce(p_cycle_start_day, t.cycle_start_day),
    build_share_percent = coalesce(p_build_share_percent, t.build_share_percent),
    auto_recharge = coalesce(p_auto_recharge, t.auto_recharge)
  where t.id = v_team.id
  returning * into v_team;
  update public.hosting_team_sites s set team_id = v_team.id where s.organization_id = p_organization_id;
  if v_previous is distinct from v_team.id then
    delete from public.hosting_teams t
    where t.id = v_previous and not exists (select 1 from public.hosting_team_sites s where s.team_id = v_previous);
  end if;
  return to_jsonb(v_team) || jsonb_build_object('sites', (select count(*) from public.hosting_team_sites s where s.team_id = v_team.id));
end;
$$;
revoke execute on function public.place_site_in_team(uuid, text, integer, integer, integer, integer, boolean) from public, anon, authenticated;
grant execute on function public.place_site_in_team(uuid, text, integer, integer, integer, integer, boolean) to service_role;

-- 2. EVERY BUILD COUNTED

/** The start of the billing cycle that holds p_at: day p_day of its month at 00:00 UTC (a shorter month: its last day). */
create function private.cycle_start(p_day integer, p_at timestamptz) returns timestamptz
language sql immutable set search_path = ''
as $$
  with months as (
    select m, (m + make_interval(days => least(p_day, extract(day from m + interval '1 month' - interval '1 day')::integer) - 1)) at time zone 'UTC' as start
    from (values (date_trunc('month', p_at at time zone 'UTC')), (date_trunc('month', p_at at time zone 'UTC') - interval '1 month')) as v (m)
  )
  select max(start) from months where start <= p_at
$$;

/** The start of the cycle after the one that starts at p_start. */
create function private.cycle_end(p_day integer, p_start timestamptz) returns timestamptz
language sql immutable set search_path = ''
as $$
  select (m + make_interval(days => least(p_day, extract(day from m + interval '1 month' - interval '1 day')::integer) - 1)) at time zone 'UTC'
  from (values (date_trunc('month', p_start at time zone 'UTC') + interval '1 month')) as v (m)
$$;

/**
 * The builds of a site since p_since that cost (or will cost) a deploy: its production deploys that started
 * (notifications; a failed one too), and its hook calls whose build has not started yet; where builds never
 * report, every hook call.
 */
create function private.site_builds_since(p_organization_id uuid, p_since timestamptz) returns integer
language sql stable set search_path = ''
as $$
  select (
    (select count(*) from public.site_deploys d where d.organization_id = p_organization_id and d.started_at >= p_since)
    + (select count(distinct r.batch_id) from public.site_rebuild_requests r
       where r.organization_id = p_organization_id and r.status in ('sent', 'hook_called') and r.sent_at >= p_since
         and (not private.builds_report(p_organization_id)
              or (r.sent_at > now() - private.build_start_timeout() and not private.build_started_since(p_organization_id, r.sent_at))))
  )::integer
$$;
revoke execute on function private.site_builds_since(uuid, timestamptz) from public, anon, authenticated;

-- 3. PACED

/** How long before a cycle's end everything waiting goes out, from the builds kept back for it. */
create function private.final_flush() returns interval
language sql immutable set search_path = '' as $$ select interval '6 hours' $$;

/**
 * The build budget of an organization's site now: its team's figures, the cycle, the builds used and allowed by
 * the pace (see the banner), whether the site may build now, and when it may next.
 */
create function private.site_budget(p_organization_id uuid) returns jsonb
language plpgsql stable set search_path = ''
as $$
declare
  v_team public.hosting_teams;
  v_start timestamptz;
  v_end timestamptz;
  v_budget integer;
  v_sites integer;
  v_team_used integer;
  v_site_used integer;
  v_reserve integer;
  v_burst integer;
  v_paced integer;
  v_final boolean;
  v_allowance integer;
  v_site_cap integer;
  v_may boolean;
  v_next timestamptz;
  v_needed integer;
begin
  select t.* into v_team from public.hosting_teams t join public.hosting_team_sites s on s.team_id = t.id where s.organization_id = p_organization_id;
  if v_team.id is null then
    return null;
  end if;
  v_start := private.cycle_start(v_team.cycle_start_day, now());
  v_end := private.cycle_end(v_team.cycle_start_day, v_start);
  v_budget := floor(v_team.monthly_credits * v_team.build_share_percent / 100.0 / v_team.credits_per_deploy);
  select count(*), coalesce(sum(private.site_builds_since(s.organization_id, v_start)), 0) into v_sites, v_team_used
  from public.hosting_team_sites s where s.team_id = v_team.id;
  v_site_used := private.site_builds_since(p_organization_id, v_start);
  v_reserve := least(v_sites, v_budget / 4);
  v_burst := greatest(1, v_budget / 20);
  v_paced := v_budget - v_reserve;
  v_final := now() >= v_end - private.final_flush();
  v_allowance := case
    when v_final then v_budget
    else least(v_budget, floor(v_paced * extract(epoch from now() - v_start) / extract(epoch from v_end - v_start))::integer + v_burst)
  end;
  -- At most twice its even share of what has accrued; in the final hours every site may have its last build.
  v_site_cap := case when v_sites <= 1 or v_final then v_budget else greatest(1, ceil(2.0 * v_allowance / v_sites)::integer) end;
  v_may := v_team_used < v_allowance and v_site_used < v_site_cap;
  if v_may then
    v_next := now();
  elsif v_team_used >= v_budget then
    v_next := v_end;
  else
    -- The allowance that lets this site build: one more than the team used, and enough for the site's cap.
    v_needed := greatest(v_team_used + 1, case when v_sites <= 1 then 0 else floor(v_site_used * v_sites / 2.0)::integer + 1 end);
    v_next := case
      when v_paced <= 0 then v_end - private.final_flush()
      else least(v_end - private.final_flush(),
                 v_start + (v_end - v_start) * (greatest(0, v_needed - v_burst)::double precision / v_paced))
    end;
  end if;
  return jsonb_build_object(
    'team_id', v_team.id,
    'team_name', v_team.name,
    'monthly_credits', v_team.monthly_credits,
    'credits_per_deploy', v_team.credits_per_deploy,
    'build_share_percent', v_team.build_share_percent,
    'auto_recharge', v_team.auto_recharge,
    'cycle_start', v_start,
    'cycle_end', v_end,
    'sites', v_sites,
    'builds_in_cycle', v_budget,
    'team_builds_used', v_team_used,
    'site_builds_used', v_site_used,
    'builds_left', greatest(0, v_budget - v_team_used),
    'credits_used', v_team_used * v_team.credits_per_deploy,
    'allowed_now', v_allowance,
    'may_build', v_may,
    'share_spent', v_team_used >= v_budget,
    'next_build_at', v_next
  );
end;
$$;
revoke execute on function private.site_budget(uuid) from public, anon, authenticated;

-- 4. THE CLAIM APPLIES IT

alter table public.site_rebuild_requests add column manual boolean not null default false;
comment on column public.site_rebuild_requests.manual is
  'An admin''s Build now: its organization builds whatever the budget''s pace (still one build at a time).';

drop function public.claim_due_site_rebuilds(integer, uuid, boolean);
drop function private.waiting_rebuild_requests(uuid);

/**
 * The requests that wait for a build (of one organization, or all): pending; or their hook call failed; or
 * they were sent in the last day, their organization's builds report, and no build started within the start
 * timeout (the call was lost).
 */
create function private.waiting_rebuild_requests(p_organization_id uuid)
returns table (id uuid, organization_id uuid, requested_at timestamptz, not_before timestamptz, manual boolean)
language sql stable set search_path = ''
as $$
  select r.id, r.organization_id, r.requested_at, r.not_before, r.manual
  from public.site_rebuild_requests r
  where r.status in ('pending', 'failed') and (p_organization_id is null or r.organization_id = p_organization_id)
  union all
  select r.id, r.organization_id, r.requested_at, r.not_before, r.manual
  from public.site_rebuild_requests r
  where r.status in ('sent', 'hook_called')
    and r.sent_at > now() - private.build_lookback() and r.sent_at <= now() - private.build_start_timeout()
    and (p_organization_id is null or r.organization_id = p_organization_id)
    and private.builds_report(r.organization_id)
    and not private.build_started_since(r.organization_id, r.sent_at)
$$;
revoke execute on function private.waiting_rebuild_requests(uuid) from public, anon, authenticated;

/**
 * Claims the organizations' due rebuild requests (one organization, or all: then it also leaves the
 * scheduler's heartbeat) and answers one batch per organization. An organization is due when a waiting
 * request is ready (a pending retry's not_before has passed), no build of it is in flight, and its team's
 * budget lets it build now (private.site_budget), or an admin asked for the build (`manual`); with p_at_once
 * false, also only once its newest request is p_quiet_window_ms old. Due sites are served fewest builds first,
 * each claim counted before the next is weighed. The batch takes every waiting request of the organization,
 * marked `sent` with the batch id in one UPDATE; claims of one team, and of one organization, take turns.
 */
create function public.claim_due_site_rebuilds(p_quiet_window_ms integer, p_organization_id uuid default null, p_at_once boolean default true)
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
    select w.organization_id, bool_or(w.manual) as manual
    from private.waiting_rebuild_requests(p_organization_id) w
    group by w.organization_id
    having bool_or(w.not_before is null or w.not_before <= now() or w.manual)
       and max(w.requested_at) <= now() - v_hold
       and not private.build_in_flight(w.organization_id)
    order by private.site_builds_since(w.organization_id, now() - interval '31 days'), min(w.requested_at)
  loop
    if not v_due.manual and not coalesce((private.site_budget(v_due.organization_id) ->> 'may_build')::boolean, true) then
      continue;
    end if;
    v_batch := gen_random_uuid();
    return query
    with claimed as (
      update public.site_rebuild_requests r
      set status = 'sent', sent_at = now(), batch_id = v_batch, finished_at = null, error = null
      where r.id in (select w.id from private.waiting_rebuild_requests(v_due.organization_id) w)
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
revoke execute on function public.claim_due_site_rebuilds(integer, uuid, boolean) from public, anon, authenticated;
grant execute on function public.claim_due_site_rebuilds(integer, uuid, boolean) to service_role;

/**
 * Records a pending rebuild request for the organization and claims the batches that are due at once (see
 * claim_due_site_rebuilds). p_manual: an admin's Build now, which builds past the budget's pace. Returns
 * `{ request_id, batches }`.
 */
create or replace function public.request_site_rebuild(p_organization_id uuid, p_reason text, p_quiet_window_ms integer, p_manual boolean default false)
returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_request_id uuid;
begin
  insert into public.site_rebuild_requests (organization_id, reason, manual)
  values (p_organization_id, left(p_reason, 200), p_manual)
  returning id into v_request_id;
  return jsonb_build_object(
    'request_id', v_request_id,
    'batches', coalesce(
      (select jsonb_agg(to_jsonb(b)) from public.claim_due_site_rebuilds(p_quiet_window_ms, p_organization_id) b),
      '[]'::jsonb
    )
  );
end;
$$;
drop function public.request_site_rebuild(uuid, text, integer);
revoke execute on function public.request_site_rebuild(uuid, text, integer, boolean) from public, anon, authenticated;
grant execute on function public.request_site_rebuild(uuid, text, integer, boolean) to service_role;

-- WHAT THE HEADER SHOWS: the site's facts as before, and its budget.
alter function private.site_deploy_status(uuid) rename to site_deploy_facts;
create function private.site_deploy_status(p_organization_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  select private.site_deploy_facts(p_organization_id) || jsonb_build_object('budget', private.site_budget(p_organization_id))
$$;
revoke execute on function private.site_deploy_status(uuid) from public, anon;
grant execute on function private.site_deploy_status(uuid) to authenticated, service_role;

/**
 * The hosting team of an organization as its Settings show it (an admin of every site of the team): the team's
 * figures, this cycle's deploys and credits per site and in all, the scheduled posts still to go out this cycle
 * (the queues' pace) and the builds of the last 14 days (the recent pace). Null for anyone else.
 */
create function private.hosting_team_usage(p_organization_id uuid) returns jsonb
language sql stable security definer set search_path = ''
as $$
  with team as (
    select t.*, private.cycle_start(t.cycle_start_day, now()) as cycle_start
    from public.hosting_teams t join public.hosting_team_sites s on s.team_id = t.id
    where s.organization_id = p_organization_id and private.is_team_admin(t.id)
  )
  select jsonb_build_object(
    'budget', private.site_budget(p_organization_id),
    'sites', (
      select jsonb_agg(jsonb_build_object(
        'organization_id', o.id, 'name', o.name, 'slug', o.slug,
        'deploys', private.site_builds_since(o.id, team.cycle_start),
        'credits', private.site_builds_since(o.id, team.cycle_start) * team.credits_per_deploy,
        'scheduled_in_cycle', (select count(*) from public.blog_posts p where p.organization_id = o.id and p.status = 'scheduled'
                               and p.published_at < private.cycle_end(team.cycle_start_day, team.cycle_start))
      ) order by o.name)
      from public.hosting_team_sites s join public.organizations o on o.id = s.organization_id where s.team_id = team.id
    ),
    'builds_last_14_days', (
      select coalesce(sum(private.site_builds_since(s.organization_id, now() - interval '14 days')), 0)
      from public.hosting_team_sites s where s.team_id = team.id
    )
  )
  from team
$$;
revoke execute on function private.hosting_team_usage(uuid) from public, anon;
grant execute on function private.hosting_team_usage(uuid) to authenticated, service_role;

/** The RPC the back office calls (see private.hosting_team_usage): null unless the caller administers every site of the team. */
create function public.hosting_team_usage(p_organization_id uuid) returns jsonb
language sql stable set search_path = ''
as $$ select private.hosting_team_usage(p_organization_id) $$;
revoke execute on function public.hosting_team_usage(uuid) from public, anon;
grant execute on function public.hosting_team_usage(uuid) to authenticated, service_role;

-- 5. ALERTS AT 80% AND 95% OF THE SHARE

/** The cycle and the share's percentage (80, 95) each team's admins were last mailed about. */
create table private.budget_alerts (
  team_id uuid primary key references public.hosting_teams (id) on delete cascade,
  cycle_start timestamptz not null,
  percent integer not null check (percent in (80, 95))
);
revoke all on table private.budget_alerts from public, anon, authenticated;

/**
 * The teams whose builds this cycle have just reached 80% or 95% of the share, each answered once per cycle and
 * level (the highest reached), with the addresses of their organizations' active admins. Service role only
 * (the scheduler mails them).
 */
create function public.claim_budget_alerts() returns table (team_id uuid, team_name text, percent integer, budget jsonb, admin_emails text[])
language plpgsql volatile security definer set search_path = ''
as $$
#variable_conflict use_column
declare
  v_team record;
  v_budget jsonb;
  v_used numeric;
  v_level integer;
begin
  for v_team in
    select t.id, t.name, a.cycle_start as alerted_cycle_start, a.percent as alerted_percent,
      (select s.organization_id from public.hosting_team_sites s where s.team_id = t.id order by 1 limit 1) as any_org
    from public.hosting_teams t left join private.budget_alerts a on a.team_id = t.id
    for update of t skip locked
  loop
    continue when v_team.any_org is null;
    v_budget := private.site_budget(v_team.any_org);
    continue when (v_budget ->> 'builds_in_cycle')::integer = 0;
    v_used := (v_budget ->> 'team_builds_used')::numeric / (v_budget ->> 'builds_in_cycle')::numeric;
    v_level := case when v_used >= 0.95 then 95 when v_used >= 0.8 then 80 end;
    continue when v_level is null
      or (v_team.alerted_cycle_start = (v_budget ->> 'cycle_start')::timestamptz and v_team.alerted_percent >= v_level);
    insert into private.budget_alerts as a (team_id, cycle_start, percent)
    values (v_team.id, (v_budget ->> 'cycle_start')::timestamptz, v_level)
    on conflict (team_id) do update set cycle_start = excluded.cycle_start, percent = excluded.percent;
    return query
    select v_team.id, v_team.name, v_level, v_budget,
      coalesce(array_agg(distinct p.email order by p.email), '{}')
    from public.hosting_team_sites s
    join public.organization_memberships m on m.organization_id = s.organization_id and m.is_active and m.role = 'admin'
    join public.profiles p on p.id = m.user_id and p.is_active
    where s.team_id = v_team.id;
  end loop;
end;
$$;
revoke execute on function public.claim_budget_alerts() from public, anon, authenticated;
grant execute on function public.claim_budget_alerts() to service_role;
