-- THE AUDIT LOG PAST ITS FIRST PAGE. The Security tab counted only the entries it had loaded (100 activities, 50
-- sign-in attempts), so "Total Activities" read 100 for an organization with more, and the exports held only what
-- was loaded. Now:
-- 1. organization_audit_counts answers the organization's own totals: every activity entry, the distinct members
--    who acted, and the successful and failed sign-ins of its active members (the attempts the admin may read).
-- 2. organization_login_attempts takes an offset, so the exports read every attempt a page at a time (as they
--    read every activity entry), not only the newest 1,000.
-- Both are an admin's of the organization only (42501 otherwise), as the attempts were.

create function private.organization_audit_counts(p_organization_id uuid) returns jsonb
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_activities bigint;
  v_users bigint;
  v_succeeded bigint;
  v_failed bigint;
begin
  if not private.is_org_admin(p_organization_id) then
    raise exception 'organization_audit_counts: only an admin of organization % can read its audit log', p_organization_id
      using errcode = '42501';
  end if;
  select count(*), count(distinct l.user_id) into v_activities, v_users
  from public.user_activity_logs l where l.organization_id = p_organization_id;
  select count(*) filter (where a.success), count(*) filter (where not a.success) into v_succeeded, v_failed
  from (
    select distinct lower(p.email) as email
    from public.organization_memberships m
    join public.profiles p on p.id = m.user_id
    where m.organization_id = p_organization_id and m.is_active
  ) member
  join public.login_attempts a on lower(a.email) = member.email;
  return jsonb_build_object('activities', v_activities, 'active_users', v_users, 'successful_logins', v_succeeded, 'failed_logins', v_failed);
end;
$$;
revoke execute on function private.organization_audit_counts(uuid) from public, anon, authenticated;
grant execute on function private.organization_audit_counts(uuid) to authenticated;

create function public.organization_audit_counts(p_organization_id uuid) returns jsonb
language sql stable security invoker set search_path = ''
as $$ select private.organization_audit_counts(p_organization_id) $$;
revoke execute on function public.organization_audit_counts(uuid) from public, anon;
grant execute on function public.organization_audit_counts(uuid) to authenticated;

-- The attempts with an offset; otherwise as 20261129000100_login_attempts_read_once.sql made them.
drop function public.organization_login_attempts(uuid, integer);
drop function private.organization_login_attempts(uuid, integer);

create function private.organization_login_attempts(p_organization_id uuid, p_limit integer, p_offset integer)
returns table (id uuid, email text, success boolean, failure_reason text, ip_address inet, created_at timestamptz)
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_limit integer := least(greatest(coalesce(p_limit, 50), 1), 1000);
  v_offset integer := greatest(coalesce(p_offset, 0), 0);
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
    limit v_limit + v_offset
  ) a
  order by a.created_at desc, a.id
  offset v_offset
  limit v_limit;
end;
$$;
revoke execute on function private.organization_login_attempts(uuid, integer, integer) from public, anon, authenticated;
grant execute on function private.organization_login_attempts(uuid, integer, integer) to authenticated;

create function public.organization_login_attempts(p_organization_id uuid, p_limit integer default 50, p_offset integer default 0)
returns table (id uuid, email text, success boolean, failure_reason text, ip_address inet, created_at timestamptz)
language sql stable security invoker set search_path = ''
as $$ select * from private.organization_login_attempts(p_organization_id, p_limit, p_offset) $$;
revoke execute on function public.organization_login_attempts(uuid, integer, integer) from public, anon;
grant execute on function public.organization_login_attempts(uuid, integer, integer) to authenticated;
