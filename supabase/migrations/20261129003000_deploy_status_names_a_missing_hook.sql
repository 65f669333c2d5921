-- A SITE WITHOUT A BUILD HOOK IS TOLD SO AT ONCE. The site's status (site_deploy_status) now says whether the
-- organization has a build hook (`build_hook_set`), never the hook itself (whoever knows it can start builds).
-- Without one, the back office says from the first change that nothing reaches the site until an admin sets it,
-- instead of estimating a build that never comes and offering a Retry that cannot help. Otherwise as
-- 20261129002000_one_record_per_send.sql made it.

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
      ),
      'build_hook_set', exists (
        select 1 from public.site_rebuild_settings r where r.organization_id = p_organization_id and r.build_hook_url is not null
      )
    )
$$;
