-- ENDED SESSIONS ARE AUDITED. terminate_session now writes `session_terminated` itself, in the transaction
-- that deletes the session (a browser logging after the call could be closed first, or skip it):
-- 1. The actor, and the organizations the entry belongs to, are read BEFORE the delete: ending your own
--    session ends the session private.current_active_user_id() and private.is_org_admin() look at.
-- 2. One entry per organization whose audit log should show it: each organization where the caller is an
--    admin and the session's user a member, and, when you end your own session, each of your organizations.
-- 3. The entry is about the session (resource) and names its user in details (user_id, email, full_name),
--    so the audit log reads "Alex Morgan ended Jordan Lee's session".
-- The server (service role) ending a session has no actor and logs nothing. Who may end what is unchanged.

/** Ends a session (the caller's own, or a member's of an organization the caller administers) and logs it. */
create or replace function private.terminate_session(p_session_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid;
  v_actor uuid := private.current_active_user_id();
  v_organizations uuid[];
  v_person record;
begin
  select s.user_id into v_user from auth.sessions s where s.id = p_session_id;
  if v_user is null then
    raise exception 'terminate_session: no session %', p_session_id using errcode = 'P0002';
  end if;
  if not private.is_service_caller()
     and v_user is distinct from v_actor
     and not exists (
       select 1 from public.organization_memberships m
       where m.user_id = v_user and private.is_org_admin(m.organization_id)
     ) then
    raise exception 'terminate_session: only the user or an admin of their organization can end session %', p_session_id
      using errcode = '42501';
  end if;
  if v_actor is not null then
    select coalesce(array_agg(m.organization_id), '{}') into v_organizations
    from public.organization_memberships m
    where m.user_id = v_user
      and (private.is_org_admin(m.organization_id) or (v_user = v_actor and private.is_org_member(m.organization_id)));
    select p.email, p.full_name into v_person from public.profiles p where p.id = v_user;
  end if;

  delete from auth.refresh_tokens where session_id = p_session_id;
  delete from auth.sessions where id = p_session_id;

  if v_actor is not null then
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    select v_actor, o.id, 'session_terminated', 'session', p_session_id::text,
           jsonb_build_object('user_id', v_user, 'email', v_person.email, 'full_name', v_person.full_name)
    from unnest(v_organizations) as o(id);
  end if;
end;
$$;
