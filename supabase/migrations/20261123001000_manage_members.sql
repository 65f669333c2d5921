-- THE USERS TAB MANAGES THE MEMBERS OF AN ORGANIZATION.
--
-- 1. public.organization_members: one row per membership with the member's profile (security invoker, so
--    the RLS of both tables decides what a caller sees). The Users tab lists and counts it, and the System
--    Overview counts it too, so every user count agrees.
-- 2. Role and status changes act on the membership of one organization and are logged in the same
--    transaction (set_member_roles, set_member_status): the browser cannot skip the audit entry.
-- 3. An admin edits a member's name, phone and role (update_member_profile, logged profile_updated_by_admin
--    with the changes). Profiles: an admin of any organization the person is an active member of may change
--    their full_name and phone (and, as before, the primary organization's admin the role); bio, author card
--    and avatar stay the person's own.
-- 4. Invitations can be revoked (revoked_at); a revoked one no longer holds the one-pending-per-address slot.

-- 1. MEMBERS

/** The memberships of the organizations the caller may read, each with the member's profile. */
create view public.organization_members with (security_invoker = true) as
select
  m.user_id as id,
  m.organization_id,
  m.role,
  m.is_active,
  m.created_at as joined_at,
  p.email,
  p.full_name,
  p.phone,
  p.bio,
  p.created_at,
  p.last_login
from public.organization_memberships m
join public.profiles p on p.id = m.user_id;
comment on view public.organization_members is
  'One row per membership (role and status in that organization) with the member''s profile; RLS of both tables applies.';
revoke all on table public.organization_members from public, anon, authenticated;
grant select on table public.organization_members to authenticated, service_role;

/** True when the given user is an active member of an organization the caller administers. */
create function private.is_admin_of_member(p_user_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.organization_memberships m
    where m.user_id = p_user_id and m.is_active and private.is_org_admin(m.organization_id)
  )
$$;
grant execute on function private.is_admin_of_member(uuid) to authenticated, service_role;

drop policy "Users update their own profile, admins those of their organization" on public.profiles;
create policy "Users update their own profile, admins the name and phone of their members" on public.profiles
  for update to authenticated
  using (id = (select private.current_active_user_id()) or private.is_admin_of_member(id))
  with check (id = (select private.current_active_user_id()) or private.is_admin_of_member(id));

/**
 * Profiles: another person's profile changes only in full_name and phone (an admin of one of their
 * organizations, by the policy) and role (the primary organization's admin); is_active, the account's own
 * switch, and organization_id are the server's only.
 */
create or replace function public.guard_profile_privileges() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated')
     and old.id is distinct from private.current_active_user_id()
     and (new.bio, new.author_title, new.author_website, new.avatar_url, new.email)
         is distinct from (old.bio, old.author_title, old.author_website, old.avatar_url, old.email) then
    raise exception 'an admin may change only the name, phone and role of a member; the rest is the member''s own'
      using errcode = '42501';
  end if;
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

-- 2. ROLE AND STATUS OF MEMBERSHIPS, LOGGED IN THE SAME TRANSACTION

/** Refuses (42501) unless the caller is an active admin of the organization. */
create function private.assert_org_admin(p_organization_id uuid, p_what text) returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not private.is_org_admin(p_organization_id) then
    raise exception '%: only an admin of organization % can do this', p_what, p_organization_id using errcode = '42501';
  end if;
end;
$$;

/**
 * Sets the role of the given members in one organization (all or none: the last-admin guard fails the
 * whole statement). Logs role_changed (one user) or role_changed_bulk (each of several) for every member
 * whose role changed. Returns how many of the users are members there.
 */
create function private.set_member_roles(p_organization_id uuid, p_user_ids uuid[], p_role text) returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_actor uuid := private.current_active_user_id();
  v_member record;
  v_count integer := 0;
begin
  perform private.assert_org_admin(p_organization_id, 'set_member_roles');
  if p_role is null or p_role not in ('admin', 'editor', 'viewer') then
    raise exception 'set_member_roles: unknown role %', left(p_role, 20) using errcode = '22023';
  end if;
  for v_member in
    select m.id, m.user_id, m.role, p.email, p.full_name
    from public.organization_memberships m join public.profiles p on p.id = m.user_id
    where m.organization_id = p_organization_id and m.user_id = any (p_user_ids)
    order by m.user_id
    for update of m
  loop
    v_count := v_count + 1;
    continue when v_member.role = p_role;
    update public.organization_memberships set role = p_role where id = v_member.id;
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    values (
      v_actor, p_organization_id,
      case when cardinality(p_user_ids) = 1 then 'role_changed' else 'role_changed_bulk' end,
      'user', v_member.user_id::text,
      jsonb_build_object('email', v_member.email, 'full_name', v_member.full_name, 'old_role', v_member.role,
        'new_role', p_role, 'changed_by', v_actor)
    );
  end loop;
  return v_count;
end;
$$;

/**
 * Activates or deactivates the given members in one organization (their other memberships stay). p_reason
 * 'delete' is the bulk Delete: it deactivates and logs user_soft_deleted_bulk; otherwise user_activated /
 * user_deactivated (with _bulk for several). Returns how many of the users are members there.
 */
create function private.set_member_status(p_organization_id uuid, p_user_ids uuid[], p_active boolean, p_reason text default 'status')
returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_actor uuid := private.current_active_user_id();
  v_member record;
  v_count integer := 0;
  v_action text;
begin
  perform private.assert_org_admin(p_organization_id, 'set_member_status');
  if p_active is null or p_reason is null or p_reason not in ('status', 'delete') or (p_reason = 'delete' and p_active) then
    raise exception 'set_member_status: invalid change' using errcode = '22023';
  end if;
  v_action := case
    when p_reason = 'delete' then 'user_soft_deleted_bulk'
    else 'user_' || case when p_active then 'activated' else 'deactivated' end
         || case when cardinality(p_user_ids) = 1 then '' else '_bulk' end
  end;
  for v_member in
    select m.id, m.user_id, m.is_active, p.email, p.full_name
    from public.organization_memberships m join public.profiles p on p.id = m.user_id
    where m.organization_id = p_organization_id and m.user_id = any (p_user_ids)
    order by m.user_id
    for update of m
  loop
    v_count := v_count + 1;
    continue when v_member.is_active = p_active;
    update public.organization_memberships set is_active = p_active where id = v_member.id;
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    values (
      v_actor, p_organization_id, v_action, 'user', v_member.user_id::text,
      jsonb_build_object('email', v_member.email, 'full_name', v_member.full_name, 'is_active', p_active,
        case when p_reason = 'delete' then 'deleted_by' else 'changed_by' end, v_actor)
    );
  end loop;
  return v_count;
end;
$$;

-- 3. AN ADMIN EDITS A MEMBER

/**
 * Sets a member's full name, phone (the profile: only while the member is active in the organization) and
 * role in the organization; logs profile_updated_by_admin with `changes` ({ field: { from, to } }) when
 * anything changed. Blank name or phone clears it. Returns the changes.
 */
create function private.update_member_profile(
  p_organization_id uuid, p_user_id uuid, p_full_name text, p_phone text, p_role text
) returns jsonb
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_actor uuid := private.current_active_user_id();
  v_member record;
  v_name text := nullif(btrim(p_full_name), '');
  v_phone text := nullif(btrim(p_phone), '');
  v_changes jsonb := '{}';
begin
  perform private.assert_org_admin(p_organization_id, 'update_member_profile');
  if p_role is null or p_role not in ('admin', 'editor', 'viewer') then
    raise exception 'update_member_profile: unknown role %', left(p_role, 20) using errcode = '22023';
  end if;
  select m.id, m.role, m.is_active, p.email, p.full_name, p.phone into v_member
  from public.organization_memberships m join public.profiles p on p.id = m.user_id
  where m.organization_id = p_organization_id and m.user_id = p_user_id
  for update of m, p;
  if not found then
    raise exception 'update_member_profile: % is not a member of %', p_user_id, p_organization_id using errcode = 'P0002';
  end if;
  if v_name is distinct from v_member.full_name then
    v_changes := v_changes || jsonb_build_object('full_name', jsonb_build_object('from', v_member.full_name, 'to', v_name));
  end if;
  if v_phone is distinct from v_member.phone then
    v_changes := v_changes || jsonb_build_object('phone', jsonb_build_object('from', v_member.phone, 'to', v_phone));
  end if;
  if v_changes <> '{}' then
    if not v_member.is_active then
      raise exception 'update_member_profile: % is not active in %; reactivate them first', p_user_id, p_organization_id
        using errcode = '42501';
    end if;
    update public.profiles set full_name = v_name, phone = v_phone where id = p_user_id;
  end if;
  if p_role <> v_member.role then
    update public.organization_memberships set role = p_role where id = v_member.id;
    v_changes := v_changes || jsonb_build_object('role', jsonb_build_object('from', v_member.role, 'to', p_role));
  end if;
  if v_changes <> '{}' then
    insert into public.user_activity_logs (user_id, organization_id, action, resource_type, resource_id, details)
    values (
      v_actor, p_organization_id, 'profile_updated_by_admin', 'user', p_user_id::text,
      jsonb_build_object('email', v_member.email, 'full_name', coalesce(v_name, v_member.full_name), 'changes', v_changes)
        || case when v_changes ? 'role' then jsonb_build_object('new_role', p_role) else '{}' end
    );
  end if;
  return v_changes;
end;
$$;

grant execute on function private.assert_org_admin(uuid, text), private.set_member_roles(uuid, uuid[], text),
  private.set_member_status(uuid, uuid[], boolean, text), private.update_member_profile(uuid, uuid, text, text, text)
  to authenticated, service_role;

/** Sets the role of members of one organization (admins of it only; 42501 otherwise); logged. */
create function public.set_member_roles(p_organization_id uuid, p_user_ids uuid[], p_role text) returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.set_member_roles(p_organization_id, p_user_ids, p_role) $$;

/** Activates or deactivates members of one organization (admins of it only); p_reason 'delete' for the bulk Delete; logged. */
create function public.set_member_status(p_organization_id uuid, p_user_ids uuid[], p_active boolean, p_reason text default 'status')
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.set_member_status(p_organization_id, p_user_ids, p_active, p_reason) $$;

/** An admin sets a member's name, phone and role; logged profile_updated_by_admin. Returns the changes. */
create function public.update_member_profile(p_organization_id uuid, p_user_id uuid, p_full_name text, p_phone text, p_role text)
returns jsonb
language sql volatile security invoker set search_path = ''
as $$ select private.update_member_profile(p_organization_id, p_user_id, p_full_name, p_phone, p_role) $$;

revoke execute on function public.set_member_roles(uuid, uuid[], text), public.set_member_status(uuid, uuid[], boolean, text),
  public.update_member_profile(uuid, uuid, text, text, text) from public, anon;
grant execute on function public.set_member_roles(uuid, uuid[], text), public.set_member_status(uuid, uuid[], boolean, text),
  public.update_member_profile(uuid, uuid, text, text, text) to authenticated, service_role;

-- 4. REVOKED INVITATIONS

alter table public.user_invitations add column revoked_at timestamptz;
comment on column public.user_invitations.revoked_at is
  'Set when an admin revoked the invitation: its link answers like an unknown one.';
drop index public.user_invitations_pending_email_idx;
-- One pending invitation per person and organization.
create unique index user_invitations_pending_email_idx on public.user_invitations (organization_id, email)
  where used_at is null and revoked_at is null;

/** A revoked invitation stays revoked: only the server changes it (admins may still delete it). */
create function public.guard_revoked_invitation() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if old.revoked_at is not null and current_user in ('anon', 'authenticated') then
    raise exception 'invitation % was revoked; send a new one', old.id using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function public.guard_revoked_invitation() from public, anon, authenticated;
create trigger user_invitations_guard_revoked before update on public.user_invitations
  for each row execute function public.guard_revoked_invitation();
