-- MEMBERSHIPS CARRY THE STATUS, AND SIGN-IN ADMITS EVERY ACTIVE MEMBER.
--
-- 1. A member is active or not per organization (organization_memberships.is_active): an admin of one
--    organization deactivates a member there without touching that person's other organizations.
--    private.org_role(), which every policy goes through, ignores inactive memberships, so access to that
--    organization ends at once. profiles.is_active stays the account's own switch (all organizations at
--    once); only the server (service role, direct database) changes it from now on.
-- 2. Profiles deactivated before this migration: their memberships become inactive and the account active,
--    so admins can reactivate them from the Users tab (nothing else changes for them).
-- 3. The last-admin guard counts active admin memberships of active accounts.
-- 4. finish_sign_in no longer takes an area: every active account with at least one active membership signs
--    in; the browser then goes where the role in the chosen organization allows (admins /admin, editors and
--    viewers /admin/blog). The refusals say why: 'inactive' (the account) or 'no-organization'.

alter table public.organization_memberships add column is_active boolean not null default true;
comment on column public.organization_memberships.is_active is
  'False: the member is deactivated in this organization (no access to it); other memberships are unaffected.';

alter table public.organization_memberships disable trigger organization_memberships_guard;
update public.organization_memberships m set is_active = false
from public.profiles p
where p.id = m.user_id and not p.is_active;
alter table public.organization_memberships enable trigger organization_memberships_guard;
alter table public.profiles disable trigger profiles_guard_privileges;
update public.profiles set is_active = true where not is_active;
alter table public.profiles enable trigger profiles_guard_privileges;

/** The caller's role in an organization ('admin' | 'editor' | 'viewer'), or null when they have no access. */
create or replace function private.org_role(org uuid) returns text
language sql stable security definer set search_path = ''
as $$
  select m.role
  from public.organization_memberships m
  where m.organization_id = org
    and m.is_active
    and m.user_id = (select private.current_active_user_id())
$$;

/** True when the given user belongs (active or not) to an organization the caller is an active member of. */
create or replace function private.shares_organization_with(p_user_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1
    from public.organization_memberships theirs
    join public.organization_memberships mine on mine.organization_id = theirs.organization_id
    where theirs.user_id = p_user_id
      and mine.user_id = (select private.current_active_user_id())
      and mine.is_active
  )
$$;

/**
 * Fails with `last_admin` when the change would leave an organization without an active admin. p_user_id is
 * the user losing admin rights, p_orgs the organizations where they lose them. Called by the role guards.
 */
create or replace function private.assert_admins_remain(p_user_id uuid, p_orgs uuid[]) returns void
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_org uuid;
begin
  select m.organization_id into v_org
  from public.organization_memberships m
  where m.organization_id = any (p_orgs)
    and m.user_id = p_user_id
    and m.role = 'admin'
    and m.is_active
    and not exists (
      select 1
      from public.organization_memberships other
      join public.profiles p on p.id = other.user_id
      where other.organization_id = m.organization_id
        and other.role = 'admin'
        and other.is_active
        and other.user_id <> p_user_id
        and p.is_active
    )
  limit 1;
  if v_org is not null then
    raise exception 'last_admin: organization % must keep at least one active admin', v_org
      using errcode = 'P0001', hint = 'Make another member admin first.';
  end if;
end;
$$;

/**
 * Profiles: role (the primary organization's, mirrored from its membership) is an admin's of that
 * organization to change; is_active, the account's own switch, and organization_id are the server's only.
 */
create or replace function public.guard_profile_privileges() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if (new.role, new.is_active, new.organization_id) is not distinct from (old.role, old.is_active, old.organization_id) then
    return new;
  end if;
  if current_user in ('anon', 'authenticated') and (
    new.organization_id is distinct from old.organization_id
    or new.is_active is distinct from old.is_active
    or not private.is_org_admin(old.organization_id)
  ) then
    raise exception 'only an admin of the organization can change the role of a profile; the account switch is the server''s'
      using errcode = '42501';
  end if;
  if old.is_active and not new.is_active then
    perform private.assert_admins_remain(old.id, array(
      select m.organization_id from public.organization_memberships m where m.user_id = old.id));
  elsif old.role = 'admin' and (new.role <> 'admin' or new.organization_id is distinct from old.organization_id) then
    perform private.assert_admins_remain(old.id, array[old.organization_id]);
  end if;
  return new;
end;
$$;

/** Memberships: never moved; the last active admin of an organization stays (role and status). */
create or replace function public.guard_membership_change() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    -- A cascade from deleting the user or the organization is not a demotion.
    if exists (select 1 from public.organizations o where o.id = old.organization_id)
       and exists (select 1 from public.profiles p where p.id = old.user_id and p.is_active) then
      perform private.assert_admins_remain(old.user_id, array[old.organization_id]);
    end if;
    return old;
  end if;
  if new.user_id <> old.user_id or new.organization_id <> old.organization_id then
    raise exception 'a membership cannot be moved; delete it and create another' using errcode = '42501';
  end if;
  if old.role = 'admin' and old.is_active and (new.role <> 'admin' or not new.is_active)
     and exists (select 1 from public.profiles p where p.id = old.user_id and p.is_active) then
    perform private.assert_admins_remain(old.user_id, array[old.organization_id]);
  end if;
  return new;
end;
$$;

-- SIGN-IN: one rule for every role.

drop function public.finish_sign_in(uuid, uuid, uuid, text);

/** The failure reasons stored in login_attempts.failure_reason (FAILURE_REASONS in src/lib/server/login-attempts.ts). */
create or replace function private.sign_in_failure(p_kind text) returns text
language sql immutable parallel safe set search_path = ''
as $$
  select case p_kind
    when 'invalid_credentials' then 'Invalid login credentials'
    when 'not_admin' then 'Admin privileges required'
    when 'inactive' then 'Account inactive'
    when 'no_organization' then 'No active membership'
    when 'locked_out' then 'Too many failed attempts'
  end
$$;

/**
 * Step 2 of a sign-in, after Supabase Auth accepted the password and created p_session_id for p_user_id
 * (service role only). Answers 'granted' (the session may now read data), or 'inactive' (the account is
 * switched off) or 'no-organization' (no active membership anywhere); for those the caller ends the session.
 */
create function public.finish_sign_in(p_attempt_id uuid, p_user_id uuid, p_session_id uuid)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_attempt public.login_attempts;
  v_profile public.profiles;
  v_organization uuid;
  v_admin boolean;
begin
  select * into v_attempt from public.login_attempts a
  where a.id = p_attempt_id and not a.success and a.failure_reason = private.sign_in_failure('invalid_credentials')
  for update;
  select * into v_profile from public.profiles p where p.id = p_user_id;
  if v_attempt.id is null or v_profile.id is null or lower(v_profile.email) <> v_attempt.email
     or not exists (select 1 from auth.sessions s where s.id = p_session_id and s.user_id = p_user_id) then
    raise exception 'finish_sign_in: attempt %, user % and session % do not belong together', p_attempt_id, p_user_id, p_session_id
      using errcode = '22023';
  end if;

  -- The organization the sign-in is logged in: the primary one while active there, else the first active one.
  select m.organization_id, bool_or(m.role = 'admin') over ()
  into v_organization, v_admin
  from public.organization_memberships m
  where m.user_id = p_user_id and m.is_active
  order by m.organization_id is distinct from v_profile.organization_id, m.created_at
  limit 1;

  if not v_profile.is_active or v_organization is null then
    update public.login_attempts
    set failure_reason = private.sign_in_failure(case when v_profile.is_active then 'no_organization' else 'inactive' end)
    where id = p_attempt_id;
    return case when v_profile.is_active then 'no-organization' else 'inactive' end;
  end if;

  update public.login_attempts set success = true, failure_reason = null where id = p_attempt_id;
  insert into private.trusted_sessions (session_id, user_id) values (p_session_id, p_user_id);
  insert into public.user_activity_logs (user_id, organization_id, action, details)
  values (
    p_user_id, v_organization,
    case when v_admin then 'admin_login_success' else 'login_success' end,
    jsonb_build_object('ip_address', host(v_attempt.ip_address), 'user_agent', v_attempt.user_agent)
  );
  update public.profiles set last_login = now() where id = p_user_id;
  return 'granted';
end;
$$;

revoke execute on function public.finish_sign_in(uuid, uuid, uuid) from public, anon, authenticated;
grant execute on function public.finish_sign_in(uuid, uuid, uuid) to service_role;
