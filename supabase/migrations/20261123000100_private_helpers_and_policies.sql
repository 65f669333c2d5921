-- ACCESS, REWRITTEN: the helpers move out of the API, sessions must be vouched for, memberships need consent,
-- and every table gets one permissive policy per role and action.
--
-- 1. The membership helpers that policies call (current_active_user_id, org_role, is_org_member/editor/admin,
--    shares_organization_with, assert_admins_remain, is_member_email_of_admin_org) move to the `private`
--    schema. PostgREST exposes only `public` (supabase/config.toml [api] schemas), so they can no longer be
--    called as RPCs; policies and triggers still call them. RPCs the app calls stay in `public` as SECURITY
--    INVOKER functions with their own caller checks, delegating privileged work to `private`.
-- 2. A session counts only when the server vouched for it: private.trusted_sessions holds the auth session
--    ids that the sign-in function created after its lockout and password checks (the invitation and
--    password-reset flows sign in through it too; see 20261123000300). current_active_user_id(), the gate of every policy, requires one. A token obtained straight
--    from /auth/v1/token (walking around the lockout) signs in to Auth but reads and writes nothing.
-- 3. Memberships need consent: nobody but the service role inserts them (accepting an invitation, or an
--    admin creating a brand-new account through the admin function). Removing a member stays possible.
-- 4. New auth users take organization and role from app metadata only (set by the service role), never
--    from user metadata, and never consume an invitation.
-- 5. An editor cannot take over another author's post (author_id) nor move a post to another organization.
-- 6. The activity log accepts, from signed-in users, only the actions the app logs, the caller as actor, a
--    bounded details document, and an organization the caller belongs to.

create schema if not exists private;
comment on schema private is 'Helpers of policies and privileged RPCs; not exposed by the API.';
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;
-- Functions created here are not executable by everyone unless granted.
alter default privileges in schema private revoke execute on functions from public;

-- TRUSTED SESSIONS.

create table private.trusted_sessions (
  session_id uuid primary key references auth.sessions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);
alter table private.trusted_sessions enable row level security;
create index trusted_sessions_user_id_idx on private.trusted_sessions (user_id);
revoke all on table private.trusted_sessions from public, anon, authenticated;
comment on table private.trusted_sessions is
  'Auth sessions the sign-in function created after its checks (private.finish_sign_in); only these read data.';

-- HELPERS (SECURITY DEFINER so policies can consult memberships without recursing into their own RLS;
-- search_path '' so every name is schema-qualified).

/** The caller's user id when their profile is active and their session is live and vouched for, else null. */
create function private.current_active_user_id() returns uuid
language sql stable security definer set search_path = ''
as $$
  select p.id
  from public.profiles p
  where p.id = (select auth.uid())
    and p.is_active
    and exists (
      select 1
      from auth.sessions s
      join private.trusted_sessions t on t.session_id = s.id
      where s.id = nullif((select auth.jwt()) ->> 'session_id', '')::uuid
        and s.user_id = p.id
        and (s.not_after is null or s.not_after > now())
    )
$$;

/** The caller's role in an organization ('admin' | 'editor' | 'viewer'), or null when they have no access. */
create function private.org_role(org uuid) returns text
language sql stable security definer set search_path = ''
as $$
  select m.role
  from public.organization_memberships m
  where m.organization_id = org
    and m.user_id = (select private.current_active_user_id())
$$;

/** True when the caller is an active member of the organization (any role). */
create function private.is_org_member(org uuid) returns boolean
language sql stable security definer set search_path = ''
as $$ select private.org_role(org) is not null $$;

/** True when the caller may write content in the organization (editor or admin). */
create function private.is_org_editor(org uuid) returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(private.org_role(org) in ('editor', 'admin'), false) $$;

/** True when the caller administers the organization. */
create function private.is_org_admin(org uuid) returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce(private.org_role(org) = 'admin', false) $$;

/** True when the given user belongs to an organization the caller is an active member of. */
create function private.shares_organization_with(p_user_id uuid) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1
    from public.organization_memberships theirs
    join public.organization_memberships mine on mine.organization_id = theirs.organization_id
    where theirs.user_id = p_user_id
      and mine.user_id = (select private.current_active_user_id())
  )
$$;

/** True when the e-mail belongs to a member of an organization the caller administers. */
create function private.is_member_email_of_admin_org(p_email text) returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1
    from public.profiles p
    join public.organization_memberships m on m.user_id = p.id
    where lower(p.email) = lower(p_email)
      and private.is_org_admin(m.organization_id)
  )
$$;

/**
 * Fails with `last_admin` when the change would leave an organization without an active admin. p_user_id is
 * the user losing admin rights, p_orgs the organizations where they lose them. Called by the role guards.
 */
create function private.assert_admins_remain(p_user_id uuid, p_orgs uuid[]) returns void
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

/** True for the server: the service role's key, or a direct database connection (no API token at all). */
create function private.is_service_caller() returns boolean
language sql stable set search_path = ''
as $$ select coalesce((select auth.jwt()) ->> 'role', '') in ('service_role', '') $$;

/** The actions a signed-in user may write to the activity log themselves (the server logs the others). */
create function private.is_client_activity(p_action text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$
  select p_action in (
    'admin_dashboard_access', 'admin_logout', 'password_changed', 'post_deleted', 'post_published',
    'role_changed', 'role_changed_bulk', 'user_activated', 'user_activated_bulk', 'user_deactivated',
    'user_deactivated_bulk', 'user_soft_deleted_bulk', 'session_terminated'
  )
$$;

grant execute on function private.current_active_user_id(), private.org_role(uuid), private.is_org_member(uuid),
  private.is_org_editor(uuid), private.is_org_admin(uuid), private.shares_organization_with(uuid),
  private.is_member_email_of_admin_org(text), private.assert_admins_remain(uuid, uuid[]),
  private.is_client_activity(text), private.is_service_caller()
  to authenticated, service_role;

-- POLICIES: all dropped, then created again on the private helpers, one permissive policy per table, role
-- and action (several permissive policies are OR-ed and each runs for every row).

do $$
declare
  v_policy record;
begin
  for v_policy in select policyname, tablename from pg_catalog.pg_policies where schemaname = 'public' loop
    execute format('drop policy %I on public.%I', v_policy.policyname, v_policy.tablename);
  end loop;
end;
$$;

-- The old public helpers: callable as RPCs, which is what this migration ends.
drop function public.is_member_email_of_admin_org(text);
drop function public.shares_organization_with(uuid);
drop function public.assert_admins_remain(uuid, uuid[]);
drop function public.is_org_admin(uuid);
drop function public.is_org_editor(uuid);
drop function public.is_org_member(uuid);
drop function public.org_role(uuid);
drop function public.current_active_user_id();

-- ORGANIZATIONS
create policy "Anyone can read organizations" on public.organizations
  for select to anon, authenticated using (true);
create policy "Admins can update their organization" on public.organizations
  for update to authenticated
  using ((select private.is_org_admin(id)))
  with check ((select private.is_org_admin(id)));

-- PROFILES. The primary organization is the service role's to set (invitations, account creation).
revoke update (organization_id) on table public.profiles from authenticated;
create policy "Anyone can read authors of published posts" on public.profiles
  for select to anon using (
    exists (
      select 1 from public.blog_posts p
      where p.author_id = profiles.id and p.status = 'published' and p.published_at <= now()
    )
  );
create policy "Members can read their own profile and those of their organizations" on public.profiles
  for select to authenticated using (
    id = (select private.current_active_user_id()) or private.shares_organization_with(id)
  );
create policy "Users update their own profile, admins those of their organization" on public.profiles
  for update to authenticated
  using (id = (select private.current_active_user_id()) or (select private.is_org_admin(organization_id)))
  with check (id = (select private.current_active_user_id()) or (select private.is_org_admin(organization_id)));

-- ORGANIZATION MEMBERSHIPS: read by members, role changes and removals by admins, no inserts.
revoke insert on table public.organization_memberships from authenticated;
create policy "Members can read memberships of their organizations" on public.organization_memberships
  for select to authenticated using ((select private.is_org_member(organization_id)));
create policy "Admins can change roles in their organization" on public.organization_memberships
  for update to authenticated
  using ((select private.is_org_admin(organization_id)))
  with check ((select private.is_org_admin(organization_id)));
create policy "Admins can remove members from their organization" on public.organization_memberships
  for delete to authenticated using ((select private.is_org_admin(organization_id)));

-- BLOG
create policy "Anyone can read categories" on public.blog_categories
  for select to anon, authenticated using (true);
create policy "Editors can create categories" on public.blog_categories
  for insert to authenticated with check ((select private.is_org_editor(organization_id)));
create policy "Editors can update categories" on public.blog_categories
  for update to authenticated
  using ((select private.is_org_editor(organization_id)))
  with check ((select private.is_org_editor(organization_id)));
create policy "Editors can delete categories" on public.blog_categories
  for delete to authenticated using ((select private.is_org_editor(organization_id)));

create policy "Visitors can read published posts" on public.blog_posts
  for select to anon using (status = 'published' and published_at <= now());
create policy "Members read all posts of their organizations, others the published ones" on public.blog_posts
  for select to authenticated using (
    (status = 'published' and published_at <= now()) or (select private.is_org_member(organization_id))
  );
create policy "Editors can create posts as themselves" on public.blog_posts
  for insert to authenticated with check (
    (select private.is_org_editor(organization_id))
    and (author_id = (select private.current_active_user_id()) or (select private.is_org_admin(organization_id)))
  );
create policy "Editors can update posts of their organizations" on public.blog_posts
  for update to authenticated
  using ((select private.is_org_editor(organization_id)))
  with check ((select private.is_org_editor(organization_id)));
create policy "Admins and authors can delete posts" on public.blog_posts
  for delete to authenticated using (
    (select private.is_org_admin(organization_id))
    or ((select private.is_org_editor(organization_id)) and author_id = (select private.current_active_user_id()))
  );

create policy "Visitors can read redirects of published posts" on public.blog_post_redirects
  for select to anon using (
    exists (
      select 1 from public.blog_posts p
      where p.id = post_id and p.status = 'published' and p.published_at <= now()
    )
  );
create policy "Members read redirects of their organizations, others those of published posts" on public.blog_post_redirects
  for select to authenticated using (
    (select private.is_org_member(organization_id))
    or exists (
      select 1 from public.blog_posts p
      where p.id = post_id and p.status = 'published' and p.published_at <= now()
    )
  );
create policy "Editors can create redirects" on public.blog_post_redirects
  for insert to authenticated with check ((select private.is_org_editor(organization_id)));
create policy "Editors can update redirects" on public.blog_post_redirects
  for update to authenticated
  using ((select private.is_org_editor(organization_id)))
  with check ((select private.is_org_editor(organization_id)));
create policy "Editors can delete redirects" on public.blog_post_redirects
  for delete to authenticated using ((select private.is_org_editor(organization_id)));

create policy "Members can read views of their organizations" on public.post_views
  for select to authenticated using ((select private.is_org_member(organization_id)));

-- AUDIT AND STAFF ACCESS
create policy "Admins can read invitations of their organization" on public.user_invitations
  for select to authenticated using ((select private.is_org_admin(organization_id)));
create policy "Admins can invite to their organization" on public.user_invitations
  for insert to authenticated with check (
    (select private.is_org_admin(organization_id)) and invited_by = (select private.current_active_user_id())
  );
create policy "Admins can update invitations of their organization" on public.user_invitations
  for update to authenticated
  using ((select private.is_org_admin(organization_id)))
  with check ((select private.is_org_admin(organization_id)));
create policy "Admins can revoke invitations of their organization" on public.user_invitations
  for delete to authenticated using ((select private.is_org_admin(organization_id)));

create policy "Users read their own activity, admins that of their organization" on public.user_activity_logs
  for select to authenticated using (
    user_id = (select private.current_active_user_id()) or (select private.is_org_admin(organization_id))
  );
create policy "Users log their own actions in their organizations" on public.user_activity_logs
  for insert to authenticated with check (
    user_id = (select private.current_active_user_id())
    and private.is_client_activity(action)
    and (organization_id is null or private.is_org_member(organization_id))
  );

create policy "Admins can read sign-in attempts of their members" on public.login_attempts
  for select to authenticated using (private.is_member_email_of_admin_org(email));

-- NEWSLETTER, WEBHOOK, REBUILDS
create policy "Admins can read subscribers of their organization" on public.newsletter_subscribers
  for select to authenticated using ((select private.is_org_admin(organization_id)));
create policy "Admins can remove subscribers of their organization" on public.newsletter_subscribers
  for delete to authenticated using ((select private.is_org_admin(organization_id)));
create policy "Admins can read the webhook integration of their organization" on public.webhook_integrations
  for select to authenticated using ((select private.is_org_admin(organization_id)));
create policy "Admins can read webhook deliveries of their organization" on public.webhook_deliveries
  for select to authenticated using ((select private.is_org_admin(organization_id)));
create policy "Admins can read rebuild settings of their organization" on public.site_rebuild_settings
  for select to authenticated using ((select private.is_org_admin(organization_id)));
create policy "Admins can create rebuild settings of their organization" on public.site_rebuild_settings
  for insert to authenticated with check ((select private.is_org_admin(organization_id)));
create policy "Admins can update rebuild settings of their organization" on public.site_rebuild_settings
  for update to authenticated
  using ((select private.is_org_admin(organization_id)))
  with check ((select private.is_org_admin(organization_id)));
create policy "Admins can delete rebuild settings of their organization" on public.site_rebuild_settings
  for delete to authenticated using ((select private.is_org_admin(organization_id)));
create policy "Admins can read rebuild requests of their organization" on public.site_rebuild_requests
  for select to authenticated using ((select private.is_org_admin(organization_id)));

-- ROLE GUARDS, on the private helpers. The primary organization is no longer the caller's to change.

create or replace function public.guard_profile_privileges() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if (new.role, new.is_active, new.organization_id) is not distinct from (old.role, old.is_active, old.organization_id) then
    return new;
  end if;
  if current_user in ('anon', 'authenticated') and (
    new.organization_id is distinct from old.organization_id or not private.is_org_admin(old.organization_id)
  ) then
    raise exception 'only an admin of the organization can change role or active flag of a profile'
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
  if old.role = 'admin' and new.role <> 'admin'
     and exists (select 1 from public.profiles p where p.id = old.user_id and p.is_active) then
    perform private.assert_admins_remain(old.user_id, array[old.organization_id]);
  end if;
  return new;
end;
$$;

/**
 * A post keeps its organization, and only an admin of it changes its author: an editor editing someone
 * else's post cannot make it theirs (which would let them delete it) nor hand it to anyone.
 */
create function public.guard_post_ownership() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if new.organization_id <> old.organization_id then
    raise exception 'a post cannot move to another organization' using errcode = '42501';
  end if;
  if new.author_id is distinct from old.author_id and current_user in ('anon', 'authenticated')
     and not private.is_org_admin(old.organization_id) then
    raise exception 'only an admin of the organization can change the author of a post' using errcode = '42501';
  end if;
  return new;
end;
$$;
revoke execute on function public.guard_post_ownership() from public, anon, authenticated;

create trigger blog_posts_guard_ownership before update of organization_id, author_id on public.blog_posts
  for each row execute function public.guard_post_ownership();

-- NEW AUTH USERS: organization and role from app metadata only.

/**
 * Creates the profile of a new auth user: email copied, full_name from user metadata. The organization and
 * role come from app metadata, which only the service role can set (the invitation and account-creation
 * functions); anything in user metadata, which whoever signs up controls, is ignored. No invitation is
 * touched here: only the invitation function, after checking its token, uses one.
 */
create or replace function public.handle_new_user() returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_org uuid;
  v_role text;
begin
  begin
    v_org := nullif(new.raw_app_meta_data ->> 'organization_id', '')::uuid;
  exception when invalid_text_representation then
    v_org := null;
  end;
  if v_org is not null and not exists (select 1 from public.organizations o where o.id = v_org) then
    v_org := null;
  end if;
  v_role := new.raw_app_meta_data ->> 'role';
  if v_org is null or v_role is null or v_role not in ('admin', 'editor', 'viewer') then
    v_role := 'viewer';
  end if;

  insert into public.profiles (id, email, full_name, organization_id, role)
  values (new.id, lower(new.email), left(nullif(btrim(new.raw_user_meta_data ->> 'full_name'), ''), 120), v_org, v_role);
  return new;
end;
$$;

-- ACTIVITY LOG: the caller is the actor.

alter table public.user_activity_logs
  add constraint user_activity_logs_details_size check (octet_length(details::text) <= 4000);
grant insert (user_id, organization_id, action, resource_type, resource_id, details)
  on table public.user_activity_logs to authenticated;

drop function public.log_user_activity(uuid, text, jsonb, text, text);

/**
 * Logs one of the caller's own actions (see private.is_client_activity) in an organization they belong to
 * (default: their primary organization); returns the entry's id. Runs as the caller: the insert policy on
 * user_activity_logs decides, so a direct insert cannot do more. The server logs its own actions (sign-ins,
 * accepted invitations, created accounts) with the service role.
 */
create function public.log_user_activity(
  p_action text,
  p_details jsonb default '{}',
  p_resource_type text default null,
  p_resource_id text default null,
  p_organization_id uuid default null
) returns uuid
language plpgsql volatile security invoker set search_path = ''
as $$
declare
  v_actor uuid := private.current_active_user_id();
  v_id uuid;
begin
  if v_actor is null then
    raise exception 'log_user_activity: sign in to log an action' using errcode = '42501';
  end if;
  if not private.is_client_activity(p_action) then
    raise exception 'log_user_activity: unknown action %', left(p_action, 64) using errcode = '22023';
  end if;
  insert into public.user_activity_logs (user_id, organization_id, action, details, resource_type, resource_id)
  values (
    v_actor,
    coalesce(p_organization_id, (select p.organization_id from public.profiles p where p.id = v_actor)),
    p_action, coalesce(p_details, '{}'), p_resource_type, p_resource_id
  )
  returning id into v_id;
  return v_id;
end;
$$;
revoke execute on function public.log_user_activity(text, jsonb, text, text, uuid) from public, anon;
grant execute on function public.log_user_activity(text, jsonb, text, text, uuid) to authenticated;

-- RPCs OF THE APP: SECURITY INVOKER entry points in public, privileged bodies in private.

/** The caller's role in an organization, or null (what the back office and the functions check). */
create function public.org_role(org uuid) returns text
language sql stable security invoker set search_path = ''
as $$ select private.org_role(org) $$;
revoke execute on function public.org_role(uuid) from public, anon;
grant execute on function public.org_role(uuid) to authenticated, service_role;

alter function public.list_organization_sessions(uuid) set schema private;
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
      where m.user_id = s.user_id and m.organization_id = p_organization_id
    )
    and (s.not_after is null or s.not_after > now())
  order by 6 desc;
end;
$$;

/** Live sessions of the members of an organization (admins of it only), most recently active first. */
create function public.list_organization_sessions(p_organization_id uuid)
returns table (
  session_id uuid, user_id uuid, full_name text, email text, created_at timestamptz, last_activity timestamptz,
  expires_at timestamptz, user_agent text, ip text
)
language sql stable security invoker set search_path = ''
as $$ select * from private.list_organization_sessions(p_organization_id) $$;

alter function public.terminate_session(uuid) set schema private;
create or replace function private.terminate_session(p_session_id uuid) returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_user uuid;
begin
  select s.user_id into v_user from auth.sessions s where s.id = p_session_id;
  if v_user is null then
    raise exception 'terminate_session: no session %', p_session_id using errcode = 'P0002';
  end if;
  if not private.is_service_caller()
     and v_user is distinct from private.current_active_user_id()
     and not exists (
       select 1 from public.organization_memberships m
       where m.user_id = v_user and private.is_org_admin(m.organization_id)
     ) then
    raise exception 'terminate_session: only the user or an admin of their organization can end session %', p_session_id
      using errcode = '42501';
  end if;
  delete from auth.refresh_tokens where session_id = p_session_id;
  delete from auth.sessions where id = p_session_id;
end;
$$;

/**
 * Ends a session: the caller's own, or one of a member of an organization the caller administers.
 * Fails with 42501 when not allowed and P0002 when there is no such session.
 */
create function public.terminate_session(p_session_id uuid) returns void
language sql volatile security invoker set search_path = ''
as $$ select private.terminate_session(p_session_id) $$;

alter function public.rotate_webhook_token(uuid) set schema private;
create or replace function private.rotate_webhook_token(p_organization_id uuid) returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_token text := 'whk_' || encode(extensions.gen_random_bytes(32), 'hex');
begin
  if not private.is_service_caller() and not private.is_org_admin(p_organization_id) then
    raise exception 'rotate_webhook_token: only an admin of organization % can rotate its token', p_organization_id
      using errcode = '42501';
  end if;
  insert into public.webhook_integrations (organization_id, token_hash)
  values (p_organization_id, public.hash_webhook_token(v_token))
  on conflict (organization_id) do update set
    previous_token_hash = public.webhook_integrations.token_hash,
    previous_token_expires_at = now() + interval '24 hours',
    token_hash = excluded.token_hash,
    rotated_at = now();
  return v_token;
end;
$$;

/**
 * Makes a new webhook token for an organization (admins of it) and returns it: the only time it is visible.
 * The previous token keeps working for 24 hours.
 */
create function public.rotate_webhook_token(p_organization_id uuid) returns text
language sql volatile security invoker set search_path = ''
as $$ select private.rotate_webhook_token(p_organization_id) $$;

alter function public.increment_post_view(uuid) set schema private;

/** Counts a view of a published post (callable by visitors); returns the new view count. */
create function public.increment_post_view(p_post_id uuid) returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.increment_post_view(p_post_id) $$;

revoke execute on function private.list_organization_sessions(uuid), private.terminate_session(uuid),
  private.rotate_webhook_token(uuid), private.increment_post_view(uuid) from public, anon, authenticated;
grant execute on function private.list_organization_sessions(uuid), private.terminate_session(uuid),
  private.rotate_webhook_token(uuid) to authenticated, service_role;
grant execute on function private.increment_post_view(uuid) to anon, authenticated, service_role;
revoke execute on function public.list_organization_sessions(uuid), public.terminate_session(uuid),
  public.rotate_webhook_token(uuid), public.increment_post_view(uuid) from public, anon;
grant execute on function public.list_organization_sessions(uuid), public.terminate_session(uuid),
  public.rotate_webhook_token(uuid) to authenticated, service_role;
grant execute on function public.increment_post_view(uuid) to anon, authenticated, service_role;
