-- The smaller findings of the second security pass.
--
-- 1. A JWT without a `role` claim counted as the service role in private.is_service_caller(): a Storage
--    signed-URL token (signed with the same secret, no role) sent to the REST API runs as anon with such
--    claims. Now only the service role's JWT counts, or no JWT at all (a direct database session: migrations,
--    seeding, Auth's own triggers).
-- 2. Functions in `private` were executable by PUBLIC: a per-schema default privilege cannot revoke the
--    global default that grants EXECUTE on every new function to PUBLIC. The global default of the migration
--    role is revoked (new functions are executable only where a migration grants it), and PUBLIC loses
--    EXECUTE on every function of `private`: the signed-in and service roles keep what PUBLIC gave them
--    (policies, constraints and the public RPCs call these functions as the caller), anon keeps only what
--    a migration granted it by name.
-- 3. Members could write `admin_logout` and `password_changed` audit entries with any details and any
--    resource: the database now writes those entries' details itself (the moment, and for a password change
--    how it was made, whatever the member sent), and an entry names no resource. `post_deleted` is
--    the database's own entry since 20261123006000 and no longer one a member may write.
-- 4. An admin could put any unclaimed domain on its organization, which steers a site that finds its
--    organization by domain (no SITE_ORG): an admin's domain is now unconfirmed until the operator confirms it
--    (`domain_confirmed`, service role only), and only confirmed domains pick a site's organization
--    (src/lib/site/organizations.ts). Domains set before this migration are confirmed.

-- 1 -----------------------------------------------------------------------------------------------------------

create or replace function private.is_service_caller() returns boolean
language sql stable set search_path = ''
as $$ select (select auth.jwt()) is null or (select auth.jwt()) ->> 'role' is not distinct from 'service_role' $$;

-- 2 -----------------------------------------------------------------------------------------------------------

alter default privileges revoke execute on functions from public;
do $$
declare
  v_function record;
begin
  for v_function in
    select p.oid::regprocedure as signature, p.prorettype = 'pg_catalog.trigger'::regtype as is_trigger
    from pg_catalog.pg_proc p
    where p.pronamespace = 'private'::regnamespace and p.prokind = 'f'
      and (p.proacl is null or exists (
        select 1 from pg_catalog.aclexplode(p.proacl) a where a.grantee = 0 and a.privilege_type = 'EXECUTE'))
  loop
    execute format('revoke execute on function %s from public', v_function.signature);
    -- What PUBLIC gave the API's signed-in and service roles stays theirs (policies, constraints and the
    -- public RPCs call these as the caller); anon and every other role lose it. A trigger function needs
    -- no grant: it runs whenever its trigger fires.
    if not v_function.is_trigger then
      execute format('grant execute on function %s to authenticated, service_role', v_function.signature);
    end if;
  end loop;
end;
$$;

-- 3 -----------------------------------------------------------------------------------------------------------

create or replace function private.is_client_activity(p_action text) returns boolean
language sql immutable parallel safe set search_path = ''
as $$ select p_action in ('admin_logout', 'password_changed') $$;

/** What the database records of a member's own action: the moment, and for a password change its path. */
create function private.client_activity_details(p_action text) returns jsonb
language sql stable set search_path = ''
as $$
  select jsonb_build_object('timestamp', now())
    || case when p_action = 'password_changed' then jsonb_build_object('method', 'admin_dashboard') else '{}'::jsonb end
$$;
revoke execute on function private.client_activity_details(text) from public, anon;
grant execute on function private.client_activity_details(text) to authenticated;

/** Writes the database's details into a member's own entry (before the insert policy checks the row). */
create function private.fill_client_activity() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user = 'authenticated' then
    new.details := private.client_activity_details(new.action);
  end if;
  return new;
end;
$$;
revoke execute on function private.fill_client_activity() from public, anon, authenticated;
-- Row-level security checks an inserted row after the BEFORE triggers: whatever details a member sends, the
-- row holds the database's, and the policy accepts nothing else (and no resource).
drop policy "Users log their own actions in their organizations" on public.user_activity_logs;
create policy "Users log their own actions in their organizations" on public.user_activity_logs
  for insert to authenticated with check (
    user_id = (select private.current_active_user_id())
    and private.is_client_activity(action)
    and details = private.client_activity_details(action) and resource_type is null and resource_id is null
    and (organization_id is null or private.is_org_member(organization_id))
  );
create trigger user_activity_logs_fill_client_activity before insert on public.user_activity_logs
  for each row execute function private.fill_client_activity();

drop function public.log_user_activity(text, jsonb, text, text, uuid);

/**
 * Logs one of the caller's own actions (admin_logout, password_changed) in an organization they belong to
 * (default: their primary organization); the database writes the details. Returns the entry's id.
 */
create function public.log_user_activity(p_action text, p_organization_id uuid default null) returns uuid
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
  insert into public.user_activity_logs (user_id, organization_id, action)
  values (v_actor, coalesce(p_organization_id, (select p.organization_id from public.profiles p where p.id = v_actor)), p_action)
  returning id into v_id;
  return v_id;
end;
$$;
revoke execute on function public.log_user_activity(text, uuid) from public, anon;
grant execute on function public.log_user_activity(text, uuid) to authenticated;

-- 4 -----------------------------------------------------------------------------------------------------------

alter table public.organizations add column domain_confirmed boolean not null default false;
update public.organizations set domain_confirmed = domain is not null;
comment on column public.organizations.domain_confirmed is
  'Whether the operator confirmed the domain (service role only): only a confirmed domain picks the organization of a site without SITE_ORG.';

/** An admin's change of the domain leaves it unconfirmed (only the service role writes domain_confirmed). */
create function private.guard_domain_confirmation() returns trigger
language plpgsql set search_path = ''
as $$
begin
  if current_user in ('anon', 'authenticated') and new.domain is distinct from old.domain then
    new.domain_confirmed := false;
  end if;
  return new;
end;
$$;
revoke execute on function private.guard_domain_confirmation() from public, anon, authenticated;
create trigger organizations_guard_domain_confirmation before update of domain on public.organizations
  for each row execute function private.guard_domain_confirmation();
