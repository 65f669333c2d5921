-- Supabase's database setup for the embedded local backend, applied once on a new cluster (as the
-- cluster's superuser `supabase_admin`, as on hosted Supabase) before supabase/migrations. It reproduces what
-- a hosted Supabase project (and `supabase start`) has before any migration runs: the API roles, a `postgres`
-- that is NOT a superuser, the `extensions` schema, the default grants on `public`, the `auth` schema owned by
-- GoTrue's role with its tables and helper functions, and the event triggers that tell PostgREST to reload its
-- schema cache. Names, owners and grants follow hosted Supabase, so a migration that hosted Supabase refuses
-- (a function created in `auth`, a column added to `storage.objects`) fails here too.

-- ROLES ------------------------------------------------------------------------------------------------
-- `postgres` is the role migrations and the seed run as, with hosted's attributes: it may create roles and
-- databases and bypasses row level security, but it is no superuser.
create role postgres login nosuperuser createdb createrole replication bypassrls password 'postgres';
alter database postgres owner to postgres;

-- The three API roles never log in; `authenticator` logs in and switches to one of them per request.
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit password 'postgres';
grant anon, authenticated, service_role to authenticator;
-- As on hosted Supabase (Postgres 16 and later), `postgres` administers the API roles (their settings,
-- granting them to roles it creates).
grant anon, authenticated, service_role to postgres with admin option;

-- GoTrue's and Storage's roles own their schemas; the local Auth and Storage connect as them.
create role supabase_auth_admin login noinherit password 'postgres';
create role supabase_storage_admin login noinherit password 'postgres';

-- Hosted Supabase bounds API queries so a runaway request cannot hold a connection.
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';

-- EXTENSIONS -----------------------------------------------------------------------------------------
-- Hosted Supabase installs extensions into their own schema, on everyone's search_path through it, so
-- seeds can call `extensions.crypt(...)` / `extensions.gen_salt('bf')` / `extensions.uuid_generate_v4()`.
create schema extensions;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
grant all on all functions in schema extensions to postgres, anon, authenticated, service_role;
grant all on schema extensions to postgres;
alter default privileges for role postgres in schema extensions grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema extensions grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema extensions grant all on sequences to postgres, anon, authenticated, service_role;

alter role postgres set search_path = "$user", public, extensions;
alter role supabase_admin set search_path = "$user", public, auth, extensions;
alter database postgres set search_path = "$user", public, extensions;

-- PUBLIC SCHEMA GRANTS -------------------------------------------------------------------------------
-- As on hosted Supabase: every new table, function and sequence in public is granted to the API roles;
-- row level security, not grants, decides what each role sees.
grant usage on schema public to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on sequences to postgres, anon, authenticated, service_role;

-- AUTH SCHEMA (GoTrue's tables, as its migrations leave them) ---------------------------------------
-- Created as GoTrue creates them: by its own role, which so owns the schema and everything in it.
create schema auth authorization supabase_auth_admin;
set role supabase_auth_admin;

create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
create type auth.factor_status as enum ('unverified', 'verified');
create type auth.code_challenge_method as enum ('s256', 'plain');
create type auth.one_time_token_type as enum (
  'confirmation_token', 'reauthentication_token', 'recovery_token',
  'email_change_token_new', 'email_change_token_current', 'phone_change_token'
);

create table auth.instances (
  id uuid not null primary key,
  uuid uuid,
  raw_base_config text,
  created_at timestamptz,
  updated_at timestamptz
);

create table auth.users (
  instance_id uuid,
  id uuid not null primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
comment on table auth.users is 'Auth: Stores user login data within a secure schema.';
comment on column auth.users.is_sso_user is 'Auth: Set this column to true when the account comes from SSO. These accounts can have duplicate emails.';
create index users_instance_id_idx on auth.users (instance_id);
create index users_instance_id_email_idx on auth.users (instance_id, lower(email));
create unique index users_email_partial_key on auth.users (email) where (is_sso_user = false);
create unique index confirmation_token_idx on auth.users (confirmation_token) where confirmation_token !~ '^[0-9 ]*$';
create unique index recovery_token_idx on auth.users (recovery_token) where recovery_token !~ '^[0-9 ]*$';
create unique index email_change_token_current_idx on auth.users (email_change_token_current) where email_change_token_current !~ '^[0-9 ]*$';
create unique index email_change_token_new_idx on auth.users (email_change_token_new) where email_change_token_new !~ '^[0-9 ]*$';
create unique index reauthentication_token_idx on auth.users (reauthentication_token) where reauthentication_token !~ '^[0-9 ]*$';
create index users_is_anonymous_idx on auth.users (is_anonymous);

create table auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid() primary key,
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
comment on table auth.identities is 'Auth: Stores identities associated to a user.';
create index identities_user_id_idx on auth.identities (user_id);
create index identities_email_idx on auth.identities (email text_pattern_ops);

create table auth.sessions (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp without time zone,
  user_agent text,
  ip inet,
  tag text
);
comment on table auth.sessions is 'Auth: Stores session data associated to a user.';
comment on column auth.sessions.not_after is 'Auth: Not after is a nullable column that contains a timestamp after which the session should be regarded as expired.';
create index sessions_user_id_idx on auth.sessions (user_id);
create index user_id_created_at_idx on auth.sessions (user_id, created_at);
create index sessions_not_after_idx on auth.sessions (not_after desc);

create table auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
comment on table auth.refresh_tokens is 'Auth: Store of tokens used to refresh JWT tokens once they expire.';
create index refresh_tokens_instance_id_idx on auth.refresh_tokens (instance_id);
create index refresh_tokens_instance_id_user_id_idx on auth.refresh_tokens (instance_id, user_id);
create index refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create index refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
create index refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);

create table auth.audit_log_entries (
  instance_id uuid,
  id uuid not null primary key,
  payload json,
  created_at timestamptz,
  ip_address varchar(64) not null default ''
);
comment on table auth.audit_log_entries is 'Auth: Audit trail for user actions.';
create index audit_logs_instance_id_idx on auth.audit_log_entries (instance_id);

create table auth.one_time_tokens (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp without time zone not null default now(),
  updated_at timestamp without time zone not null default now(),
  constraint one_time_tokens_user_id_token_type_key unique (user_id, token_type)
);
create index one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
create index one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);

create table auth.mfa_factors (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text,
  phone text,
  last_challenged_at timestamptz unique
);
comment on table auth.mfa_factors is 'auth: stores metadata about factors';
create index factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);

create table auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid not null primary key,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);
comment on table auth.mfa_amr_claims is 'auth: stores authenticator method reference claims for multi factor authentication';

create table auth.schema_migrations (version varchar(255) not null primary key);
comment on table auth.schema_migrations is 'Auth: Manages updates to the auth system.';

-- Helper functions exactly as Supabase defines them: they read the claims PostgREST sets per request
-- (the legacy `request.jwt.claim.*` settings first, then `request.jwt.claims`).
create or replace function auth.uid() returns uuid
language sql stable
as $$
  select
  coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;
comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';

create or replace function auth.role() returns text
language sql stable
as $$
  select
  coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;
comment on function auth.role() is 'Deprecated. Use auth.jwt() -> ''role'' instead.';

create or replace function auth.email() returns text
language sql stable
as $$
  select
  coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;
comment on function auth.email() is 'Deprecated. Use auth.jwt() -> ''email'' instead.';

create or replace function auth.jwt() returns jsonb
language sql stable
as $$
  select
    coalesce(
        nullif(current_setting('request.jwt.claim', true), ''),
        nullif(current_setting('request.jwt.claims', true), '')
    )::jsonb
$$;

reset role;

-- As on hosted Supabase: the API roles may resolve names in `auth` (auth.uid() in policies) but get no table
-- privileges. `postgres` may read and write GoTrue's tables (seeds create users, migrations add triggers on
-- auth.users) but may not create anything in the schema, nor touch GoTrue's own migration bookkeeping.
alter role supabase_auth_admin set search_path = auth;
grant usage on schema auth to anon, authenticated, service_role, postgres;
grant all on all tables in schema auth to postgres;
grant all on all sequences in schema auth to postgres;
grant all on all routines in schema auth to postgres;
revoke all on auth.schema_migrations from postgres;
grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt() to public, anon, authenticated, service_role;

-- STORAGE SCHEMA (its tables: storage.sql, run as supabase_storage_admin on every start) -----------------
create schema storage authorization supabase_storage_admin;
alter role supabase_storage_admin set search_path = storage;

-- POSTGREST SCHEMA RELOAD ----------------------------------------------------------------------------
-- Supabase's event triggers: any DDL that can change the API notifies PostgREST (here: the REST
-- handler, listening on channel `pgrst`) to reload its schema cache.
create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql
as $$
declare
  cmd record;
begin
  for cmd in select * from pg_event_trigger_ddl_commands()
  loop
    if cmd.command_tag in (
      'CREATE SCHEMA', 'ALTER SCHEMA'
    , 'CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE'
    , 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE'
    , 'CREATE VIEW', 'ALTER VIEW'
    , 'CREATE MATERIALIZED VIEW', 'ALTER MATERIALIZED VIEW'
    , 'CREATE FUNCTION', 'ALTER FUNCTION'
    , 'CREATE TRIGGER'
    , 'CREATE TYPE', 'ALTER TYPE'
    , 'CREATE RULE'
    , 'COMMENT'
    )
    -- don't notify in case of CREATE TEMP table or other objects created on pg_temp
    and cmd.schema_name is distinct from 'pg_temp'
    then
      notify pgrst, 'reload schema';
    end if;
  end loop;
end; $$;

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql
as $$
declare
  obj record;
begin
  for obj in select * from pg_event_trigger_dropped_objects()
  loop
    if obj.object_type in (
      'schema'
    , 'table'
    , 'foreign table'
    , 'view'
    , 'materialized view'
    , 'function'
    , 'trigger'
    , 'type'
    , 'rule'
    )
    and obj.is_temporary is false -- no pg_temp objects
    then
      notify pgrst, 'reload schema';
    end if;
  end loop;
end; $$;

create event trigger pgrst_ddl_watch on ddl_command_end execute procedure extensions.pgrst_ddl_watch();
create event trigger pgrst_drop_watch on sql_drop execute procedure extensions.pgrst_drop_watch();

-- Hosted Supabase has this (empty) publication for Realtime; migrations may add tables to it.
create publication supabase_realtime;

-- MIGRATION BOOKKEEPING (the Supabase CLI's tables) -------------------------------------------------
-- The CLI creates them as `postgres`, which so owns them.
create schema supabase_migrations authorization postgres;
set role postgres;
create table supabase_migrations.schema_migrations (
  version text not null primary key,
  statements text[],
  name text
);
create table supabase_migrations.seed_files (
  path text not null primary key,
  hash text not null
);
reset role;

-- LOCAL ONLY --------------------------------------------------------------------------------------------
-- The local backend's own tables (mail outbox, wrong-code counts) live in the schema `local_dev`, created by
-- local-dev.sql, which runs on every start so that clusters made before a table was added get it too.
