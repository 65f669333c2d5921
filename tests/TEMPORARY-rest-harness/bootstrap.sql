-- TEMPORARY: a minimal Supabase-like bootstrap until backend-auth's supabase/local/bootstrap.sql is merged.
create role anon nologin noinherit;
create role authenticated nologin noinherit;
create role service_role nologin noinherit bypassrls;
create role authenticator login noinherit password 'authenticator';
grant anon, authenticated, service_role to authenticator;
create schema auth;
grant usage on schema auth to anon, authenticated, service_role;
create function auth.uid() returns uuid language sql stable as $$
  select (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')::uuid $$;
create function auth.jwt() returns jsonb language sql stable as $$
  select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb $$;
create function auth.role() returns text language sql stable as $$ select auth.jwt() ->> 'role' $$;
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant execute on functions to anon, authenticated, service_role;
create function public.pgrst_reload_schema() returns event_trigger language plpgsql as $$
begin notify pgrst, 'reload schema'; end $$;
create event trigger pgrst_ddl_watch on ddl_command_end execute function public.pgrst_reload_schema();
create event trigger pgrst_drop_watch on sql_drop execute function public.pgrst_reload_schema();
