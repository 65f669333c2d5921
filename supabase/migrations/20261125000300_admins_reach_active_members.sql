-- Admins reach only the active members of their organization. A member an admin deactivated may still be
-- active in another organization: until now the admin could still list that person's sessions (address and
-- browser), end them (signing them out of the other organization's work too), read their sign-in attempts and
-- send them password reset mails. Each of these now requires an active membership in an organization the
-- caller administers (the reset mail: src/lib/server/staff-accounts.ts).

/** Live sessions of the active members of an organization (admins of it only), most recently active first. */
create or replace function private.list_organization_sessions(p_organization_id uuid)
returns table (
  session_id uuid, user_id uuid, full_name text, email text, created_at timestamptz, last_activity timestamptz,
  expires_at timestamptz, user_agent text, ip text
)
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not private.is_service_caller() and not private.is_org_admin(p_organization_id) then
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
      where m.user_id = s.user_id and m.organization_id = p_organization_id and m.is_active
    )
    and (s.not_after is null or s.not_after > now())
  order by 6 desc;
end;
$$;

/**
 * Ends a session: the caller's own, or one of an active member of an organization the caller administers; logs
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
  where m.user_id = v_session.user_id and m.is_active and private.is_org_admin(m.organization_id)
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

/** True when the e-mail belongs to an active member of an organization the caller administers. */
create or replace function private.is_member_email_of_admin_org(p_email text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1
    from public.profiles p
    join public.organization_memberships m on m.user_id = p.id
    where lower(p.email) = lower(p_email)
      and m.is_active
      and private.is_org_admin(m.organization_id)
  )
$$;
