-- THE QUEUES' PACE COUNTS BUILDS, NOT POSTS.
--
-- Settings' forecast at the queues' pace counted every scheduled post as a deploy of its own, but posts that go
-- out at the same time (a queue slot of several posts, posts_per_slot) go out in one build. Each site now also
-- says how many distinct times its scheduled posts go out this cycle: the builds they need.

/** As in 20261129001100_hosting_teams.sql, each site also with `scheduled_slots_in_cycle`. */
create or replace function private.hosting_team_usage(p_organization_id uuid) returns jsonb
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
        'scheduled_in_cycle', scheduled.posts,
        'scheduled_slots_in_cycle', scheduled.slots
      ) order by o.name)
      from public.hosting_team_sites s
      join public.organizations o on o.id = s.organization_id
      cross join lateral (
        select count(*) as posts, count(distinct p.published_at) as slots from public.blog_posts p
        where p.organization_id = o.id and p.status = 'scheduled' and p.published_at < private.cycle_end(team.cycle_start_day, team.cycle_start)
      ) scheduled
      where s.team_id = team.id
    ),
    'builds_last_14_days', (
      select coalesce(sum(private.site_builds_since(s.organization_id, now() - interval '14 days')), 0)
      from public.hosting_team_sites s where s.team_id = team.id
    )
  )
  from team
$$;
