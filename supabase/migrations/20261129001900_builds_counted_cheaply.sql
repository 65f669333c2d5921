-- A SITE'S BUILDS COUNTED WITHOUT READING ITS WHOLE CYCLE
--
-- private.site_builds_since counts a site's deploys since a time, and the batches sent to its hook whose build has
-- not reported yet. Where builds report, only a batch sent within the start timeout can still be such a batch,
-- but the count read every batch of the cycle, asking for each whether a build had started since: a 30-site
-- team's budget (each site counted for the team's total) took 40 ms, the scheduler's claim a second and more each
-- minute (found by npm run bench:budget). It now reads only the batches that can count, by an index on the
-- site's sends; what it counts is unchanged.

create index site_rebuild_requests_sends_idx on public.site_rebuild_requests (organization_id, sent_at)
  where status in ('sent', 'hook_called');

/**
 * A site's builds since p_since: its deploys that started since, and the batches sent to its hook since whose
 * build has not reported (where its builds report, only those sent within the start timeout, and only while no
 * build has started since; where they never report, every batch sent).
 */
create or replace function private.site_builds_since(p_organization_id uuid, p_since timestamptz) returns integer
language sql stable set search_path = ''
as $$
  with site as (select private.builds_report(p_organization_id) as reports)
  select (
    (select count(*) from public.site_deploys d where d.organization_id = p_organization_id and d.started_at >= p_since)
    + (select count(distinct r.batch_id) from public.site_rebuild_requests r
       where r.organization_id = p_organization_id and r.status in ('sent', 'hook_called')
         and r.sent_at >= case when (select reports from site) then greatest(p_since, now() - private.build_start_timeout()) else p_since end
         and (not (select reports from site) or not private.build_started_since(p_organization_id, r.sent_at)))
  )::integer
$$;
