-- AN ORGANIZATION'S SIGN-IN ATTEMPTS, READ WITHOUT A CHECK PER ROW.
--
-- organization_login_attempts ran as its caller, so the row-level policy of login_attempts
-- (is_member_email_of_admin_org: the caller administers an organization of that address) ran for every attempt
-- it read, each a join of profiles and memberships. With a few thousand attempts and members the Security tab
-- hit the statement timeout ("Failed to fetch audit logs"). The function checks the caller once (an admin of the
-- organization) and reads only the attempts of that organization's active members, which is all the policy
-- would let that admin see of them: its body now runs as its owner (private.organization_login_attempts), with
-- the same answer, behind the public function the back office calls, which stays security invoker as every
-- function of the exposed schema does.

create function private.organization_login_attempts(p_organization_id uuid, p_limit integer)
returns table (id uuid, email text, success boolean, failure_reason text, ip_address inet, created_at timestamptz)
language plpgsql stable security definer set search_path = ''
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
revoke execute on function private.organization_login_attempts(uuid, integer) from public, anon, authenticated;
grant execute on function private.organization_login_attempts(uuid, integer) to authenticated;

create or replace function public.organization_login_attempts(p_organization_id uuid, p_limit integer default 50)
returns table (id uuid, email text, success boolean, failure_reason text, ip_address inet, created_at timestamptz)
language sql stable security invoker set search_path = ''
as $$ select * from private.organization_login_attempts(p_organization_id, p_limit) $$;
revoke execute on function public.organization_login_attempts(uuid, integer) from public, anon;
grant execute on function public.organization_login_attempts(uuid, integer) to authenticated;
