-- What hosted Supabase's `supautils` extension lets `postgres` do although it is no superuser, emulated as
-- narrowly as plain Postgres allows (supautils is a C library hooked into Postgres; it is not available here).
-- Applied as the superuser `supabase_admin` on every start after local-dev.sql, so every statement is
-- idempotent. Hosted's settings (supautils.conf) name the tables and roles below.

-- SETTINGS -------------------------------------------------------------------------------------------------
-- supautils.privileged_role_allowed_configs lets `postgres` set session_replication_role (to load data without
-- firing triggers); Postgres can grant exactly that.
grant set on parameter session_replication_role to postgres;
-- and PostgREST's in-database settings (`pgrst.*`), which a migration sets on `authenticator` (below). Postgres
-- takes no wildcard: each of PostgREST's settings is named.
grant set on parameter
  "pgrst.db_aggregates_enabled", "pgrst.db_anon_role", "pgrst.db_extra_search_path", "pgrst.db_hoisted_tx_settings",
  "pgrst.db_max_rows", "pgrst.db_plan_enabled", "pgrst.db_pre_config", "pgrst.db_pre_request",
  "pgrst.db_prepared_statements", "pgrst.db_root_spec", "pgrst.db_schemas", "pgrst.db_tx_end", "pgrst.jwt_aud",
  "pgrst.jwt_cache_max_lifetime", "pgrst.jwt_role_claim_key", "pgrst.jwt_secret", "pgrst.jwt_secret_is_base64",
  "pgrst.openapi_mode", "pgrst.openapi_security_active", "pgrst.openapi_server_proxy_uri",
  "pgrst.server_cors_allowed_origins", "pgrst.server_timing_enabled", "pgrst.server_trace_header"
  to postgres;

-- POLICIES ON AUTH'S AND STORAGE'S TABLES ----------------------------------------------------------------
-- supautils.policy_grants and drop_trigger_grants let `postgres` create, alter and drop policies on, and drop
-- triggers of, these tables although their owners are GoTrue's and Storage's roles. Postgres checks
-- ownership for both, so for the length of one such statement run by a `postgres` session, `postgres` is made
-- a member of the two owner roles (inheriting their rights, unable to SET ROLE to them); when the statement
-- ends, each policy or trigger it touched is checked to be on a listed table and the membership is taken back.
-- A statement that fails takes the membership back with it (its transaction rolls back).
create or replace function local_dev.supautils_granted_table(p_table regclass) returns boolean
language sql stable set search_path = ''
as $$
  select c.relowner not in ('supabase_auth_admin'::regrole, 'supabase_storage_admin'::regrole)
    or format('%I.%I', n.nspname, c.relname) = any (array[
      'auth.audit_log_entries', 'auth.identities', 'auth.refresh_tokens', 'auth.sessions', 'auth.users',
      'storage.buckets', 'storage.objects'
    ])
  from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
  where c.oid = p_table
$$;

/** A login as `postgres` (a superuser needs no loan). */
create or replace function local_dev.supautils_privileged_session() returns boolean
language sql stable set search_path = ''
as $$
  select session_user = 'postgres' and not (select rolsuper from pg_catalog.pg_roles where rolname = 'postgres')
$$;

create or replace function local_dev.supautils_lend_owners() returns event_trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if local_dev.supautils_privileged_session() then
    grant supabase_auth_admin, supabase_storage_admin to postgres with inherit true, set false;
  end if;
end;
$$;

create or replace function local_dev.supautils_check_drops() returns event_trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_dropped record;
begin
  if not local_dev.supautils_privileged_session() then
    return;
  end if;
  for v_dropped in
    select d.object_type, d.object_identity, d.address_names from pg_catalog.pg_event_trigger_dropped_objects() d
    where d.object_type in ('policy', 'trigger')
  loop
    if not local_dev.supautils_granted_table(format('%I.%I', v_dropped.address_names[1], v_dropped.address_names[2])::regclass) then
      raise exception 'must be owner of table %', v_dropped.address_names[2] using errcode = '42501';
    end if;
  end loop;
end;
$$;

create or replace function local_dev.supautils_return_owners() returns event_trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_table regclass;
begin
  if not local_dev.supautils_privileged_session() then
    return;
  end if;
  for v_table in
    select p.polrelid::regclass from pg_catalog.pg_event_trigger_ddl_commands() c
    join pg_catalog.pg_policy p on p.oid = c.objid
    where c.object_type = 'policy'
  loop
    if not local_dev.supautils_granted_table(v_table) then
      raise exception 'must be owner of table %', (select c.relname from pg_catalog.pg_class c where c.oid = v_table) using errcode = '42501';
    end if;
  end loop;
  if exists (select 1 from pg_catalog.pg_auth_members where member = 'postgres'::regrole and roleid = 'supabase_auth_admin'::regrole) then
    revoke supabase_auth_admin, supabase_storage_admin from postgres;
  end if;
end;
$$;

revoke all on function local_dev.supautils_granted_table(regclass), local_dev.supautils_privileged_session() from public;

drop event trigger if exists supautils_lend_owners;
create event trigger supautils_lend_owners on ddl_command_start
  when tag in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY', 'DROP TRIGGER')
  execute function local_dev.supautils_lend_owners();
drop event trigger if exists supautils_check_drops;
create event trigger supautils_check_drops on sql_drop
  when tag in ('DROP POLICY', 'DROP TRIGGER')
  execute function local_dev.supautils_check_drops();
drop event trigger if exists supautils_return_owners;
create event trigger supautils_return_owners on ddl_command_end
  when tag in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY', 'DROP TRIGGER')
  execute function local_dev.supautils_return_owners();

-- RESERVED ROLES -------------------------------------------------------------------------------------------
-- supautils.reserved_roles: `postgres` may change the settings of the API roles and of `authenticator` (the
-- migration that sets `pgrst.db_pre_request` on it), nothing else about them, and nothing at all about the
-- platform's own roles; supautils.reserved_memberships: nor grant their membership (or the server-file roles).
-- Postgres has no hook for role commands, so `postgres` administers `authenticator` as it does the API roles
-- (which ALTER ROLE ... SET needs) and the local backend compares this state before and after every migration
-- and the seed, refusing one that changed it (supabase/local/postgres.ts).
grant authenticator to postgres with admin true, inherit false, set false;

create or replace function local_dev.reserved_roles_state() returns setof text
language sql stable security definer set search_path = ''
as $$
  select format('role %s: %s', r.name, coalesce((
    select format('superuser %s, inherit %s, createrole %s, createdb %s, login %s, replication %s, bypassrls %s, connection limit %s, valid until %s, password %s',
      a.rolsuper, a.rolinherit, a.rolcreaterole, a.rolcreatedb, a.rolcanlogin, a.rolreplication, a.rolbypassrls, a.rolconnlimit,
      coalesce(a.rolvaliduntil::text, 'always'), left(md5(coalesce(a.rolpassword, '')), 8))
    from pg_catalog.pg_authid a where a.rolname = r.name), 'missing'))
  from unnest(array['supabase_admin', 'supabase_auth_admin', 'supabase_storage_admin', 'authenticator', 'anon', 'authenticated', 'service_role']) as r (name)
  union all
  select format('settings of %s: %s', a.rolname, s.setconfig)
  from pg_catalog.pg_db_role_setting s join pg_catalog.pg_authid a on a.oid = s.setrole
  where a.rolname in ('supabase_admin', 'supabase_auth_admin', 'supabase_storage_admin')
  union all
  select format('%s granted to %s (admin %s, inherit %s, set %s)', m.roleid::regrole, m.member::regrole, m.admin_option, m.inherit_option, m.set_option)
  from pg_catalog.pg_auth_members m
  where m.roleid::regrole::text in ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program',
    'supabase_admin', 'supabase_auth_admin', 'supabase_storage_admin', 'authenticator')
$$;
revoke all on function local_dev.reserved_roles_state() from public;
grant execute on function local_dev.reserved_roles_state() to postgres;
