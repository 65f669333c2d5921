/**
 * The local backend applies migrations as hosted Supabase does: as a `postgres` that is no superuser, with
 * `auth` and `storage` owned by GoTrue's and Storage's roles. A migration hosted Supabase would refuse fails to
 * start the instance (and is not recorded); what hosted allows through supautils (policies on storage.objects,
 * PostgREST settings on authenticator, dropping a trigger of auth.users) applies. Own instance, own migrations.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from './support/local-backend-instance.ts';

const ALLOWED = `
create table public.notes (id serial primary key, owner uuid);
create function public.note_added() returns trigger language plpgsql security definer set search_path = '' as $$
begin return new; end $$;
create trigger note_added after insert on auth.users for each row execute function public.note_added();
drop trigger note_added on auth.users;
create policy "Members read notes files" on storage.objects for select to authenticated using (bucket_id = 'notes');
create policy "Members add notes files" on storage.objects for insert to authenticated with check (bucket_id = 'notes');
drop policy "Members add notes files" on storage.objects;
alter role authenticator set pgrst.db_pre_request = 'public.note_added';
alter role anon set statement_timeout = '4s';
set local session_replication_role = replica;
insert into storage.buckets (id, name) values ('notes', 'notes');
`;

/** Statements hosted Supabase refuses, each with the error it gives. */
const REFUSED: [label: string, sql: string, error: RegExp][] = [
  ['a function created in auth', "create function auth.hello() returns int language sql as 'select 1';", /permission denied for schema auth/],
  ['a table created in storage', 'create table storage.notes (id int);', /permission denied for schema storage/],
  ['a column added to storage.objects', 'alter table storage.objects add column note text;', /must be owner of table objects/],
  ['a column added to auth.users', 'alter table auth.users add column note text;', /must be owner of table users/],
  ['a policy on a table of auth that hosted does not open', 'create policy "Everyone" on auth.schema_migrations for select using (true);', /must be owner of table schema_migrations/],
  ['an attribute of an API role', 'alter role anon bypassrls;', /roles that hosted Supabase reserves[\s\S]*now: role anon: superuser f, inherit f, createrole f, createdb f, login f, replication f, bypassrls t/],
  ["authenticator's password", "alter role authenticator password 'guessed';", /roles that hosted Supabase reserves[\s\S]*now: role authenticator:/],
  ["GoTrue's role", 'alter role supabase_auth_admin set search_path = public;', /permission denied to alter role/],
  ['membership of a server-file role', 'grant pg_read_server_files to postgres;', /permission denied to grant role "pg_read_server_files"/],
  ['membership of authenticator', 'create role reader; grant authenticator to reader;', /roles that hosted Supabase reserves[\s\S]*now: authenticator granted to reader/],
];

let backend: TestBackend;
let migrations: string;

beforeAll(() => {
  migrations = mkdtempSync(join(tmpdir(), 'hosted-roles-migrations-'));
  writeFileSync(join(migrations, '20260101000000_allowed.sql'), ALLOWED);
  backend = startTestBackend({ migrations });
});
afterAll(async () => {
  await backend?.stop();
  rmSync(migrations, { recursive: true, force: true });
});

describe('roles as on hosted Supabase', () => {
  it('postgres is no superuser; auth and storage, and their tables, belong to their admin roles', async () => {
    expect(await backend.sql(`select rolsuper, rolcreaterole, rolbypassrls from pg_roles where rolname = 'postgres'`)).toEqual([
      { rolsuper: false, rolcreaterole: true, rolbypassrls: true },
    ]);
    expect(
      await backend.sql(`select nspname as schema, nspowner::regrole::text as owner, has_schema_privilege('postgres', oid, 'create') as postgres_creates
        from pg_namespace where nspname in ('auth', 'storage') order by 1`),
    ).toEqual([
      { schema: 'auth', owner: 'supabase_auth_admin', postgres_creates: false },
      { schema: 'storage', owner: 'supabase_storage_admin', postgres_creates: false },
    ]);
    expect(
      await backend.sql(`select oid::regclass::text as name, relowner::regrole::text as owner from pg_class
        where oid in ('storage.objects'::regclass, 'storage.buckets'::regclass, 'auth.users'::regclass) order by 1`),
    ).toEqual([
      { name: 'auth.users', owner: 'supabase_auth_admin' },
      { name: 'storage.buckets', owner: 'supabase_storage_admin' },
      { name: 'storage.objects', owner: 'supabase_storage_admin' },
    ]);
  });

  it("applies what hosted allows through supautils, and postgres keeps no membership of the owners' roles", async () => {
    expect(await backend.sql(`select polname from pg_policy where polrelid = 'storage.objects'::regclass order by 1`)).toEqual([
      { polname: 'Members read notes files' },
    ]);
    expect(await backend.sql(`select tgname from pg_trigger where tgrelid = 'auth.users'::regclass and tgname = 'note_added'`)).toEqual([]);
    const [settings] = await backend.sql<{ setconfig: string[] }>(`select setconfig from pg_db_role_setting where setrole = 'authenticator'::regrole`);
    expect(settings?.setconfig).toContain('pgrst.db_pre_request=public.note_added');
    expect(
      await backend.sql(`select pg_has_role('postgres', 'supabase_storage_admin', 'member') as storage, pg_has_role('postgres', 'supabase_auth_admin', 'member') as auth`),
    ).toEqual([{ storage: false, auth: false }]);
    expect(await backend.sql('select version from supabase_migrations.schema_migrations')).toEqual([{ version: '20260101000000' }]);
  });

  describe('refuses a migration (the instance does not start) with', () => {
    beforeAll(() => backend.takeDown());

    it.each(REFUSED)('%s', (_label, sql, error) => {
      const file = join(migrations, '20260102000000_refused.sql');
      writeFileSync(file, `create table public.before_refusal (id int);\n${sql}\n`);
      try {
        const started = backend.cli('start');
        expect(started.status).not.toBe(0);
        expect(`${started.stderr}${started.stdout}`).toMatch(/20260102000000_refused\.sql failed/);
        expect(`${started.stderr}${started.stdout}`).toMatch(error);
      } finally {
        rmSync(file);
      }
    });

    it('and none of them left anything behind', async () => {
      await backend.bringUp();
      expect(await backend.sql('select version from supabase_migrations.schema_migrations')).toEqual([{ version: '20260101000000' }]);
      expect(await backend.sql(`select to_regclass('public.before_refusal') as name, to_regrole('reader') as reader`)).toEqual([{ name: null, reader: null }]);
      expect(await backend.sql(`select rolbypassrls from pg_roles where rolname = 'anon'`)).toEqual([{ rolbypassrls: false }]);
    });
  });

  it('refuses to start on a database whose postgres is a superuser (made before these roles), saying to reset it', async () => {
    await backend.superuserSql('alter role postgres superuser');
    await backend.takeDown();
    const started = backend.cli('start');
    expect(started.status).not.toBe(0);
    expect(`${started.stderr}${started.stdout}`).toMatch(/created before the local backend had hosted Supabase's roles[\s\S]*npm run db:reset/);
  });
});
