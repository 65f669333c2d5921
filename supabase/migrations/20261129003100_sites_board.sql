-- EVERY SITE OF A PERSON ON ONE SCREEN. An agency runs one organization per client site; the sites board
-- (/admin/sites) shows each site the caller can see, with its state now and the figures to act on, in one
-- call whatever the number of sites: public.sites_board().
--
-- A row per organization where the caller is an ACTIVE member (a deactivated membership, or a deactivated
-- user, sees none of it), with the caller's role there. Each row carries what the admin header already reads
-- for that organization (private.site_deploy_status: the latest build, waiting changes, the budget of its
-- hosting team, which may be another team than the next site's), and:
--   queued_next_7_days   scheduled and queued posts going out within 7 days from now;
--   published_this_month posts published since the first of the month in the site's time zone;
--   views_this_month     counted views since that day (views are counted per UTC day);
--   indexnow_failures    IndexNow submissions this month that failed for good.
-- Nothing else: no post content, no member list, no build hook (whoever knows a hook can start builds).
-- Anon cannot call it; an authenticated caller gets only their own sites.

create function private.sites_board() returns jsonb
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
      'status', private.site_deploy_status(o.id),
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
revoke execute on function private.sites_board() from public, anon;
grant execute on function private.sites_board() to authenticated;

-- What the API exposes runs with the caller's rights; the definer's rights stay in the private schema.
create function public.sites_board() returns jsonb
language sql stable security invoker set search_path = ''
as $$ select private.sites_board() $$;
revoke execute on function public.sites_board() from public, anon;
grant execute on function public.sites_board() to authenticated;
comment on function public.sites_board() is
  'The sites board: one row per organization the caller is an active member of, with its state and figures (see 20261129003100_sites_board.sql).';
