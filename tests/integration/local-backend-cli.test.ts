import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';

const CLI = resolve(import.meta.dirname, '../../supabase/local/cli.ts');
const apiPort = Number(process.env.LOCAL_BACKEND_TEST_API_PORT ?? 25421);
const dbPort = Number(process.env.LOCAL_BACKEND_TEST_DB_PORT ?? 25422);
const apiUrl = `http://127.0.0.1:${apiPort}`;

let work: string;
let dataDir: string;
let migrations: string;
const cli = (...args: string[]) => {
  const run = spawnSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
};
const query = async (text: string) => {
  const client = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres` });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
};

// A separate instance with its own migrations folder and seed, as `--migrations` / `--seed` allow.
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'local-backend-cli-'));
  dataDir = join(work, 'data');
  migrations = join(work, 'migrations');
  mkdirSync(migrations);
  writeFileSync(join(migrations, '20260101000000_create_notes.sql'), 'create table public.notes (id serial primary key, body text not null);\n');
  writeFileSync(join(work, 'seed.sql'), "insert into public.notes (body) values ('seeded');\n");
});
afterAll(() => {
  cli('stop');
  rmSync(work, { recursive: true, force: true });
});

describe('CLI', () => {
  it('status exits non-zero while nothing runs', () => {
    const status = cli('status');
    expect(status.status).toBe(1);
    expect(status.stderr).toMatch(/not running/);
  });

  it('start brings up a new instance (bootstrap, migrations, seed)', () => {
    const result = cli('start', '--api-port', String(apiPort), '--db-port', String(dbPort), '--migrations', migrations, '--seed', join(work, 'seed.sql'));
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`API URL: ${apiUrl}`);
  });

  it('status prints the env lines of `supabase status -o env`', () => {
    const status = cli('status');
    expect(status.status).toBe(0);
    expect(status.stdout.trim().split('\n')).toEqual([
      `ANON_KEY="${LOCAL_SUPABASE.anonKey}"`,
      `API_URL="${apiUrl}"`,
      `DB_URL="postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres"`,
      `JWT_SECRET="${LOCAL_SUPABASE.jwtSecret}"`,
      `REST_URL="${apiUrl}/rest/v1"`,
      `SERVICE_ROLE_KEY="${LOCAL_SUPABASE.serviceRoleKey}"`,
    ]);
  });

  it('applied the migration (recorded like the Supabase CLI) and the seed', async () => {
    expect(await query('select version, name from supabase_migrations.schema_migrations')).toEqual([
      { version: '20260101000000', name: 'create_notes' },
    ]);
    expect(await query('select body from public.notes')).toEqual([{ body: 'seeded' }]);
  });

  it('ensure leaves a running instance alone', async () => {
    const pid = readFileSync(join(dataDir, 'local-backend.pid'), 'utf8');
    expect(cli('ensure').status).toBe(0);
    expect(readFileSync(join(dataDir, 'local-backend.pid'), 'utf8')).toBe(pid);
  });

  it('keeps data across stop and start, applies new migrations and does not seed again', async () => {
    const admin = createClient(apiUrl, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } }).auth.admin;
    const email = `persist-${Date.now()}@example.test`;
    expect((await admin.createUser({ email, password: 'persist-pass-1', email_confirm: true })).error).toBeNull();

    expect(cli('stop').status).toBe(0);
    expect(cli('status').status).toBe(1);
    writeFileSync(join(migrations, '20260102000000_add_note_title.sql'), 'alter table public.notes add column title text;\n');
    expect(cli('start').status).toBe(0);

    const anon = createClient(apiUrl, LOCAL_SUPABASE.anonKey, { auth: { persistSession: false } });
    expect((await anon.auth.signInWithPassword({ email, password: 'persist-pass-1' })).error).toBeNull();
    expect(await query('select count(*)::int as n from public.notes')).toEqual([{ n: 1 }]);
    expect((await query('select version from supabase_migrations.schema_migrations order by 1')).map((r) => r.version)).toEqual([
      '20260101000000',
      '20260102000000',
    ]);
  });

  it('takes a migration moved to an earlier version as the one it recorded: its record is renamed, it is not applied again', async () => {
    expect(cli('stop').status).toBe(0);
    // `alter table … add column title` would fail if it ran again (the column exists).
    renameSync(join(migrations, '20260102000000_add_note_title.sql'), join(migrations, '20260101120000_add_note_title.sql'));
    const started = cli('start');
    expect(started.status, started.stderr).toBe(0);
    expect(await query('select version, name from supabase_migrations.schema_migrations order by 1')).toEqual([
      { version: '20260101000000', name: 'create_notes' },
      { version: '20260101120000', name: 'add_note_title' },
    ]);
    expect(await query('select count(*)::int as n from public.notes')).toEqual([{ n: 1 }]);
  });

  it('mail lists the outbox, filtered by --to', async () => {
    const anon = createClient(apiUrl, LOCAL_SUPABASE.anonKey, { auth: { persistSession: false } });
    const admin = createClient(apiUrl, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } }).auth.admin;
    const email = `mail-${Date.now()}@example.test`;
    await admin.createUser({ email, password: 'mail-pass-1', email_confirm: true });
    await anon.auth.resetPasswordForEmail(email);
    const mail = cli('mail', '--to', email);
    expect(mail.status).toBe(0);
    expect(mail.stdout).toContain(`recovery  to ${email}`);
    expect(mail.stdout).toContain('Subject: Reset Your Password');
    expect(mail.stdout).toMatch(/\/auth\/v1\/verify\?token=[0-9a-f]{56}&type=recovery/);
  });

  it('reset drops the database and starts again from bootstrap, migrations and seed', async () => {
    await query("insert into public.notes (body) values ('extra')");
    const reset = cli('reset');
    expect(reset.status, reset.stderr).toBe(0);
    expect(await query('select body from public.notes')).toEqual([{ body: 'seeded' }]);
    expect(await query("select count(*)::int as n from auth.users")).toEqual([{ n: 0 }]);
  });
});
