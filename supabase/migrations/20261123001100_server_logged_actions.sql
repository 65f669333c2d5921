-- THE DATABASE WRITES THE AUDIT ENTRIES OF WHAT IT DOES. Role, status and profile changes are logged by the
-- SQL functions that make them (20261123001000); ending a session is logged here by terminate_session, in the
-- same transaction. So signed-in users may no longer write those actions themselves (an entry they could
-- write is an entry they could forge): what remains for the browser is what only it sees (signing out, its own
-- password change, deleting a post until post work is logged by the database).

/** The actions a signed-in user may write to the activity log themselves (the database logs the others). */
create or replace function private.is_client_activity(p_action text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$ select p_action in ('admin_logout', 'password_changed', 'post_deleted') $$;

/**
 * Ends a session: the caller's own, or one of a member of an organization the caller administers; logs
 * `session_terminated` (who, whose session, from which browser and address) in that organization.
 */
create or replace function private.terminate_session(p_session_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_session auth.sessions;
  v_actor uuid := private.current_active_user_id();
  v_organization uuid;
  v_target public.profiles;
begin
  select * into v_session from auth.sessions s where s.id = p_session_id;
  if v_session.id is null then
    raise exception 'terminate_session: no session %', p_session_id using errcode = 'P0002';
  end if;
  select * into v_target from public.profiles p where p.id = v_session.user_id;
  -- The organization the entry belongs to: one the caller administers and the user belongs to, else theirs.
  select m.organization_id into v_organization
  from public.organization_memberships m
  where m.user_id = v_session.user_id and private.is_org_admin(m.organization_id)
  order by m.organization_id is distinct from v_target.organization_id
  limit 1;
  if not private.is_service_caller() and v_session.user_id is distinct from v_actor and v_organization is null then
    raise exception 'terminate_session: only the user or an admin of their organization can end session %', p_session_id
      using errcode = '42501';
  end if;
  delete from auth.refresh_tokens where session_id = p_session_id;
  delete from auth.sessions where id = p_session_id;
  if v_actor is not null then
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    values (
      v_actor, coalesce(v_organization, v_target.organization_id), 'session_terminated', 'session', p_session_id::text,
      jsonb_build_object(
        'user_id', v_session.user_id, 'email', v_target.email, 'full_name', v_target.full_name,
        'own_session', v_session.user_id = v_actor,
        'user_agent', left(v_session.user_agent, 300), 'ip_address', host(v_session.ip)
      )
    );
  end if;
end;
$$;
