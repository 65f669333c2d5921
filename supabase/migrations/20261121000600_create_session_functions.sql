-- SESSIONS come from auth.sessions (Supabase Auth's own table), not from a copy: admins list and end them
-- through these SECURITY DEFINER functions. Ending a session deletes it and its refresh tokens; the
-- membership helpers check that the token's session still exists, so access ends at once.

/** Live sessions of the members of an organization (admins of it only), most recently active first. */
create function public.list_organization_sessions(p_organization_id uuid)
returns table (
  session_id uuid,
  user_id uuid,
  full_name text,
  email text,
  created_at timestamptz,
  last_activity timestamptz,
  expires_at timestamptz,
  user_agent text,
  ip text
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if coalesce((select auth.jwt()) ->> 'role', '') not in ('service_role', '')
     and not public.is_org_admin(p_organization_id) then
    raise exception 'list_organization_sessions: only an admin of organization % can list its sessions', p_organization_id
      using errcode = '42501';
  end if;
  return query
  select s.id, s.user_id, p.full_name, p.email, s.created_at,
         greatest(s.created_at, s.updated_at, s.refreshed_at at time zone 'UTC'),
         s.not_after, s.user_agent, host(s.ip)
  from auth.sessions s
  join public.profiles p on p.id = s.user_id
  where exists (
      select 1 from public.organization_memberships m
      where m.user_id = s.user_id and m.organization_id = p_organization_id
    )
    and (s.not_after is null or s.not_after > now())
  order by 6 desc;
end;
$$;
revoke execute on function public.list_organization_sessions(uuid) from public, anon;
grant execute on function public.list_organization_sessions(uuid) to authenticated, service_role;

/**
 * Ends a session: the caller's own, or one of a member of an organization the caller administers.
 * Fails with 42501 when not allowed and P0002 when there is no such session.
 */
create function public.terminate_session(p_session_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid;
begin
  select s.user_id into v_user from auth.sessions s where s.id = p_session_id;
  if v_user is null then
    raise exception 'terminate_session: no session %', p_session_id using errcode = 'P0002';
  end if;
  if coalesce((select auth.jwt()) ->> 'role', '') not in ('service_role', '')
     and v_user is distinct from (select auth.uid())
     and not exists (
       select 1 from public.organization_memberships m
       where m.user_id = v_user and public.is_org_admin(m.organization_id)
     ) then
    raise exception 'terminate_session: only the user or an admin of their organization can end session %', p_session_id
      using errcode = '42501';
  end if;
  delete from auth.refresh_tokens where session_id = p_session_id;
  delete from auth.sessions where id = p_session_id;
end;
$$;
revoke execute on function public.terminate_session(uuid) from public, anon;
grant execute on function public.terminate_session(uuid) to authenticated, service_role;
