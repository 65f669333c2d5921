-- The Security tab shows one organization at a time.
--
-- 1. Sign-in attempts of one organization: login_attempts has no organization, and its policy lets an admin
--    read the attempts of every active member of every organization they administer, so an admin of two
--    organizations saw both in each. public.organization_login_attempts answers those of the active members
--    of the organization asked for, to an admin of it only; it runs as the caller, so the table's policy
--    still applies on top.
-- 2. A category the writing tool's delivery created records `via: 'webhook'` like the delivery's post
--    entries, so the audit log names the writing tool from what the entry says (`by_server` stays).

-- 1 -----------------------------------------------------------------------------------------------------------

/**
 * The newest p_limit (1 to 1000) sign-in attempts made with the e-mail of an active member of the
 * organization, newest first. Only an admin of the organization may ask (42501 otherwise); reads nothing else
 * and writes nothing.
 */
create function public.organization_login_attempts(p_organization_id uuid, p_limit integer default 50)
returns table (id uuid, email text, success boolean, failure_reason text, ip_address inet, created_at timestamptz)
language plpgsql stable security invoker set search_path = ''
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 50), 1), 1000);
begin
  if not private.is_org_admin(p_organization_id) then
    raise exception 'organization_login_attempts: only an admin of organization % can read its sign-in attempts', p_organization_id
      using errcode = '42501';
  end if;
  -- Per member address, its newest attempts through login_attempts_email_idx; then the newest of those.
  return query
  select a.id, a.email, a.success, a.failure_reason, a.ip_address, a.created_at
  from (
    select distinct lower(p.email) as email
    from public.organization_memberships m
    join public.profiles p on p.id = m.user_id
    where m.organization_id = p_organization_id and m.is_active
  ) member
  cross join lateral (
    select l.id, l.email, l.success, l.failure_reason, l.ip_address, l.created_at
    from public.login_attempts l
    where lower(l.email) = member.email
    order by l.created_at desc
    limit v_limit
  ) a
  order by a.created_at desc, a.id
  limit v_limit;
end;
$$;
revoke execute on function public.organization_login_attempts(uuid, integer) from public, anon;
grant execute on function public.organization_login_attempts(uuid, integer) to authenticated;

-- 2 -----------------------------------------------------------------------------------------------------------

/**
 * Writes one activity entry for a taxonomy change, by the caller; the server's own changes (the webhook
 * creating a category) have no actor and say so with details.by_server, and with details.via when a delivery
 * or the scheduler made them.
 */
create or replace function private.log_taxonomy_change(
  p_organization_id uuid, p_action text, p_resource_type text, p_resource_id text, p_details jsonb
) returns void
language sql volatile security definer set search_path = ''
as $$
  insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
  select v.actor, p_organization_id, p_action, p_resource_type, left(p_resource_id, 128),
    p_details
      || case when v.actor is null and private.is_service_caller() then '{"by_server": true}'::jsonb else '{}'::jsonb end
      || case when v.actor is null and v.change in ('webhook', 'schedule') then jsonb_build_object('via', v.change) else '{}'::jsonb end
  from (select private.current_active_user_id() as actor, private.post_change() as change) v
$$;
