-- PROFILES (one per auth user) and ORGANIZATION MEMBERSHIPS (the role a user has in each organization),
-- the membership helpers every policy uses, and the guards on roles.
--
-- profiles.role is the role in the profile's primary organization (profiles.organization_id), the column the
-- back office edits; a trigger keeps the matching membership row in step. Access decisions always read
-- organization_memberships, through the helpers below.

create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  organization_id uuid references public.organizations (id) on delete set null,
  email text not null check (public.is_valid_email(email)),
  full_name text check (length(full_name) <= 120),
  role text not null default 'viewer' check (role in ('admin', 'editor', 'viewer')),
  is_active boolean not null default true,
  last_login timestamptz,
  bio text check (length(bio) <= 2000),
  phone text check (phone ~ '^[0-9+().\s-]{7,40}$'),
  author_title text check (length(author_title) <= 120),
  author_website text check (public.is_valid_http_url(author_website)),
  avatar_url text check (public.is_valid_http_url(avatar_url)),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
alter table public.profiles enable row level security;
create index profiles_organization_id_idx on public.profiles (organization_id);
create index profiles_email_lower_idx on public.profiles (lower(email));

comment on table public.profiles is 'One per auth user: staff data and the public author card.';
comment on column public.profiles.role is 'Role in the primary organization (organization_id); mirrored into organization_memberships.';

create trigger profiles_set_updated_at before update on public.profiles
  for each row execute function public.set_updated_at();

create table public.organization_memberships (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references public.profiles (id) on delete cascade,
  organization_id uuid not null references public.organizations (id) on delete cascade,
  role text not null default 'viewer' check (role in ('admin', 'editor', 'viewer')),
  created_at timestamptz not null default now(),
  unique (user_id, organization_id)
);
alter table public.organization_memberships enable row level security;
create index organization_memberships_organization_id_idx on public.organization_memberships (organization_id);

comment on table public.organization_memberships is 'Which organizations a user belongs to, and with which role.';

-- MEMBERSHIP HELPERS. SECURITY DEFINER so policies can consult memberships without recursing into their own
-- RLS; search_path pinned to '' so every name is schema-qualified. A caller only counts when their profile is
-- active AND the session named in their token still exists: terminating a session or deactivating a user
-- ends access at once, even while the access token is still unexpired.

/** The caller's user id when their profile is active and their session is live, else null. */
create function public.current_active_user_id() returns uuid
language sql stable security definer set search_path = ''
as $$
  select p.id
  from public.profiles p
  where p.id = (select auth.uid())
    and p.is_active
    and exists (
      select 1 from auth.sessions s
      where s.id = nullif((select auth.jwt()) ->> 'session_id', '')::uuid
        and s.user_id = p.id
        and (s.not_after is null or s.not_after > now())
    )
$$;

/** The caller's role in an organization ('admin' | 'editor' | 'viewer'), or null when they have no access. */
create function public.org_role(org uuid) returns text
language sql stable security definer set search_path = ''
as $$
  select m.role
  from public.organization_memberships m
  where m.organization_id = org
    and m.user_id = (select public.current_active_user_id())
$$;

/** True when the caller is an active member of the organization (any role). */
create function public.is_org_member(org uuid) returns boolean
language sql stable security definer set search_path = ''
as $$ select public.org_role(org) is not null $$;

/** True when the caller may write content in the organization (editor or admin). */
create function public.is_org_editor(org uuid) returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.org_role(org) in ('editor', 'admin'), false) $$;

/** True when the caller administers the organization. */
create function public.is_org_admin(org uuid) returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(public.org_role(org) = 'admin', false) $$;

/** True when the given user belongs to an organization the caller is an active member of. */
create function public.shares_organization_with(p_user_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1
    from public.organization_memberships theirs
    join public.organization_memberships mine on mine.organization_id = theirs.organization_id
    where theirs.user_id = p_user_id
      and mine.user_id = (select public.current_active_user_id())
  )
$$;

revoke execute on function public.current_active_user_id(), public.org_role(uuid), public.is_org_member(uuid),
  public.is_org_editor(uuid), public.is_org_admin(uuid), public.shares_organization_with(uuid) from public, anon;
grant execute on function public.current_active_user_id(), public.org_role(uuid), public.is_org_member(uuid),
  public.is_org_editor(uuid), public.is_org_admin(uuid), public.shares_organization_with(uuid)
  to authenticated, service_role;

-- ROLE GUARDS.

/**
 * Fails with `last_admin` when the change would leave an organization without an active admin. p_user_id is
 * the user losing admin rights, p_orgs the organizations where they lose them.
 */
create function public.assert_admins_remain(p_user_id uuid, p_orgs uuid[]) returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_org uuid;
begin
  select m.organization_id into v_org
  from public.organization_memberships m
  where m.organization_id = any (p_orgs)
    and m.user_id = p_user_id
    and m.role = 'admin'
    and not exists (
      select 1
      from public.organization_memberships other
      join public.profiles p on p.id = other.user_id
      where other.organization_id = m.organization_id
        and other.role = 'admin'
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
-- The role guards below run as the caller (they must see who is calling), so authenticated may execute it.
revoke execute on function public.assert_admins_remain(uuid, uuid[]) from public, anon;
grant execute on function public.assert_admins_remain(uuid, uuid[]) to authenticated, service_role;

/**
 * Who may change the privileged profile columns (role, is_active, organization_id): an admin of the profile's
 * organization (of the new one too when moving it), or a trusted caller (service role, the database owner).
 * Nobody else, which includes users raising their own role. Also keeps the last active admin in place.
 */
create function public.guard_profile_privileges() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if (new.role, new.is_active, new.organization_id) is not distinct from (old.role, old.is_active, old.organization_id) then
    return new;
  end if;
  if current_user in ('anon', 'authenticated') and not (
    public.is_org_admin(old.organization_id)
    and (new.organization_id is not distinct from old.organization_id or public.is_org_admin(new.organization_id))
  ) then
    raise exception 'only an admin of the organization can change role, active flag or organization of a profile'
      using errcode = '42501';
  end if;
  if old.is_active and not new.is_active then
    perform public.assert_admins_remain(old.id, array(
      select m.organization_id from public.organization_memberships m where m.user_id = old.id));
  elsif old.role = 'admin' and (new.role <> 'admin' or new.organization_id is distinct from old.organization_id) then
    perform public.assert_admins_remain(old.id, array[old.organization_id]);
  end if;
  return new;
end;
$$;

create trigger profiles_guard_privileges before update on public.profiles
  for each row execute function public.guard_profile_privileges();

/** Mirrors the primary role into organization_memberships (the table the helpers read). */
create function public.sync_primary_membership() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.organization_id is not null then
    insert into public.organization_memberships (user_id, organization_id, role)
    values (new.id, new.organization_id, new.role)
    on conflict (user_id, organization_id) do update set role = excluded.role
      where public.organization_memberships.role is distinct from excluded.role;
  end if;
  return null;
end;
$$;

create trigger profiles_sync_primary_membership after insert or update of role, organization_id on public.profiles
  for each row execute function public.sync_primary_membership();

/** Membership changes: keep the last admin, and mirror a primary-organization role back into the profile. */
create function public.guard_membership_change() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    -- A cascade from deleting the user or the organization is not a demotion.
    if exists (select 1 from public.organizations o where o.id = old.organization_id)
       and exists (select 1 from public.profiles p where p.id = old.user_id and p.is_active) then
      perform public.assert_admins_remain(old.user_id, array[old.organization_id]);
    end if;
    return old;
  end if;
  if new.user_id <> old.user_id or new.organization_id <> old.organization_id then
    raise exception 'a membership cannot be moved; delete it and create another' using errcode = '42501';
  end if;
  if old.role = 'admin' and new.role <> 'admin'
     and exists (select 1 from public.profiles p where p.id = old.user_id and p.is_active) then
    perform public.assert_admins_remain(old.user_id, array[old.organization_id]);
  end if;
  return new;
end;
$$;

create trigger organization_memberships_guard before update or delete on public.organization_memberships
  for each row execute function public.guard_membership_change();

create function public.sync_profile_role() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.profiles set role = new.role
  where id = new.user_id and organization_id = new.organization_id and role is distinct from new.role;
  return null;
end;
$$;

create trigger organization_memberships_sync_profile_role after update of role on public.organization_memberships
  for each row execute function public.sync_profile_role();

revoke execute on function public.guard_profile_privileges(), public.sync_primary_membership(),
  public.guard_membership_change(), public.sync_profile_role() from public, anon, authenticated;

-- NEW AUTH USERS get a profile.

/**
 * Creates the profile of a new auth user: email copied, full_name from user metadata, role viewer.
 * The organization (and role) come from app metadata, which only the service role can set; an
 * organization_id in user metadata (which anyone signing up controls) is honoured only when a pending,
 * unexpired invitation for that e-mail exists in that organization, and then the invitation's role applies
 * and the invitation is marked used.
 */
create function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_org uuid;
  v_role text := 'viewer';
  v_invitation uuid;
  v_claimed_org uuid;
begin
  begin
    v_org := nullif(new.raw_app_meta_data ->> 'organization_id', '')::uuid;
    v_claimed_org := nullif(new.raw_user_meta_data ->> 'organization_id', '')::uuid;
  exception when invalid_text_representation then
    raise exception 'organization_id in user metadata must be a uuid' using errcode = '22023';
  end;
  if v_org is not null then
    v_role := coalesce(nullif(new.raw_app_meta_data ->> 'role', ''), 'viewer');
  elsif v_claimed_org is not null then
    select i.id, i.role, i.organization_id into v_invitation, v_role, v_org
    from public.user_invitations i
    where i.organization_id = v_claimed_org
      and lower(i.email) = lower(new.email)
      and i.used_at is null
      and i.expires_at > now()
    order by i.created_at desc
    limit 1;
    if v_invitation is null then
      v_role := 'viewer';
    else
      update public.user_invitations set used_at = now() where id = v_invitation;
    end if;
  end if;
  if v_org is not null and not exists (select 1 from public.organizations o where o.id = v_org) then
    v_org := null;
  end if;

  insert into public.profiles (id, email, full_name, organization_id, role)
  values (
    new.id,
    lower(new.email),
    nullif(btrim(new.raw_user_meta_data ->> 'full_name'), ''),
    v_org,
    case when v_org is null then 'viewer' else v_role end
  );
  return new;
end;
$$;

/** The profile's email follows the auth account's. */
create function public.handle_user_email_change() returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.profiles set email = lower(new.email) where id = new.id;
  return null;
end;
$$;

revoke execute on function public.handle_new_user(), public.handle_user_email_change() from public, anon, authenticated;

create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();
create trigger on_auth_user_email_changed after update of email on auth.users
  for each row when (new.email is distinct from old.email) execute function public.handle_user_email_change();

-- PRIVILEGES AND POLICIES.

revoke all on table public.profiles from anon, authenticated;
-- Anonymous visitors see only the author card columns, never email or phone.
grant select (id, full_name, bio, avatar_url, author_title, author_website) on table public.profiles to anon;
grant select on table public.profiles to authenticated;
grant update (full_name, bio, phone, author_title, author_website, avatar_url, role, is_active, organization_id)
  on table public.profiles to authenticated;
grant all on table public.profiles to service_role;

create policy "Users can read their own profile" on public.profiles
  for select to authenticated using (id = (select public.current_active_user_id()));
create policy "Members can read profiles of their organizations" on public.profiles
  for select to authenticated using (public.shares_organization_with(id));
create policy "Users can update their own profile" on public.profiles
  for update to authenticated
  using (id = (select public.current_active_user_id()))
  with check (id = (select public.current_active_user_id()));
create policy "Admins can update profiles of their organization" on public.profiles
  for update to authenticated
  using ((select public.is_org_admin(organization_id)))
  with check ((select public.is_org_admin(organization_id)));

revoke all on table public.organization_memberships from anon, authenticated;
grant select, insert, delete on table public.organization_memberships to authenticated;
grant update (role) on table public.organization_memberships to authenticated;
grant all on table public.organization_memberships to service_role;

create policy "Members can read memberships of their organizations" on public.organization_memberships
  for select to authenticated using ((select public.is_org_member(organization_id)));
create policy "Admins can add members to their organization" on public.organization_memberships
  for insert to authenticated with check ((select public.is_org_admin(organization_id)));
create policy "Admins can change roles in their organization" on public.organization_memberships
  for update to authenticated
  using ((select public.is_org_admin(organization_id)))
  with check ((select public.is_org_admin(organization_id)));
create policy "Admins can remove members from their organization" on public.organization_memberships
  for delete to authenticated using ((select public.is_org_admin(organization_id)));

create policy "Admins can update their organization" on public.organizations
  for update to authenticated
  using ((select public.is_org_admin(id)))
  with check ((select public.is_org_admin(id)));
