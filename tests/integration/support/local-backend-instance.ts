/**
 * A local backend instance as one integration test file sees it: a separate one (`startTestBackend`), started
 * with the CLI on a temporary data dir and the test ports (env LOCAL_BACKEND_TEST_API_PORT /
 * LOCAL_BACKEND_TEST_DB_PORT, default 25421 / 25422, never the development instance's 54321 / 54322), stopped
 * and deleted afterwards; or the worker's own (`workerBackend`), for a file that only needs a migrated, seeded
 * instance to talk to.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { LOCAL_SUPABASE } from '../../../src/lib/server/service-config.ts';

const CLI = resolve(import.meta.dirname, '../../../supabase/local/cli.ts');

/** A started test instance. */
export interface TestBackend {
  apiUrl: string;
  apiPort: number;
  dbPort: number;
  dataDir: string;
  /** Runs a CLI command against this instance (its data dir appended). */
  cli(...args: string[]): { status: number; stdout: string; stderr: string };
  /** Client with the anon key, no session persistence (a browser without storage). */
  anon(): SupabaseClient;
  /** Client with the service_role key. */
  service(): SupabaseClient;
  /** Connection as `postgres` (not a superuser, as on hosted Supabase), for checking rows. */
  sql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** Connection as the cluster's superuser `supabase_admin`, for what only the platform may see or do. */
  superuserSql<T extends pg.QueryResultRow = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  /** Mails in the outbox to one address, newest first, read over HTTP like a test would. */
  outbox(to: string): Promise<{ to: string; subject: string; text: string; html: string; link: string; type: string }[]>;
  /** Stops and starts the instance on the same data dir (what survives must be in the database). */
  restart(): Promise<void>;
  /** Stops the instance, keeping its data dir: the backend is down until `bringUp`. */
  takeDown(): Promise<void>;
  /** Starts the instance again after `takeDown`. */
  bringUp(): Promise<void>;
  stop(): Promise<void>;
}

/** How to start a test instance. */
export interface TestBackendOptions {
  /** A config.toml to start with instead of the project's (`--config`). */
  config?: string;
  /** Extra environment for the instance's process (SITE_URL, ADDITIONAL_REDIRECT_URLS). */
  env?: Record<string, string>;
  /** Only the migrations in this folder, and no seed (`--migrations`): to test a migration on older rows. */
  migrations?: string;
}

/** Starts a fresh instance through the CLI (`start`), as the test suites will. */
export function startTestBackend(options: TestBackendOptions = {}): TestBackend {
  const apiPort = Number(process.env.LOCAL_BACKEND_TEST_API_PORT ?? 25421);
  const dbPort = Number(process.env.LOCAL_BACKEND_TEST_DB_PORT ?? 25422);
  const dataDir = mkdtempSync(join(tmpdir(), 'local-backend-test-'));
  const cli = (...args: string[]) => {
    const run = spawnSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8', env: { ...process.env, ...options.env } });
    return { status: run.status ?? 1, stdout: run.stdout, stderr: run.stderr };
  };
  const config = options.config ? ['--config', options.config] : [];
  const migrations = options.migrations ? ['--migrations', options.migrations] : [];
  const started = cli('start', '--api-port', String(apiPort), '--db-port', String(dbPort), ...config, ...migrations);
  if (started.status !== 0) {
    cli('stop');
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`local backend did not start: ${started.stderr}${started.stdout}`);
  }
  // spawnSync blocks the event loop while the server closes its connections: let fetch's pool see them
  // closed afterwards, or the next request to the same port goes out on a dead keep-alive socket.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  const instance = instanceOn(apiPort, dbPort);
  return {
    ...instance,
    dataDir,
    cli,
    async restart() {
      await this.takeDown();
      await this.bringUp();
    },
    async takeDown() {
      cli('stop');
      await settle();
    },
    async bringUp() {
      const restarted = cli('start');
      if (restarted.status !== 0) throw new Error(`local backend did not restart: ${restarted.stderr}${restarted.stdout}`);
      await settle();
    },
    async stop() {
      await instance.stop();
      cli('stop');
      rmSync(dataDir, { recursive: true, force: true });
      await settle();
    },
  };
}

/**
 * The worker's own backend (tests/integration/support/worker-env.ts: migrated and seeded as a fresh instance
 * is, started once per run) for a file that needs no instance of its own: starting one costs seconds of both
 * cores, so only what changes an instance's start-up, its settings, its migrations or its life (a restart, a
 * take-down) starts one. Its `stop` only closes the file's connections; it cannot be restarted or taken down.
 */
export function workerBackend(): TestBackend {
  const apiUrl = new URL(process.env.SUPABASE_URL!);
  const dbUrl = new URL(process.env.SUPABASE_DB_URL!);
  const refuse = (what: string) => () => {
    throw new Error(`The worker's backend is shared by the files of its worker: ${what} needs an instance of its own (startTestBackend)`);
  };
  return {
    ...instanceOn(Number(apiUrl.port), Number(dbUrl.port)),
    dataDir: '',
    cli: refuse('a CLI command'),
    restart: refuse('a restart'),
    takeDown: refuse('a take-down'),
    bringUp: refuse('a start'),
  };
}

/** The clients, SQL connections and outbox of the instance on these ports. */
function instanceOn(apiPort: number, dbPort: number): Pick<TestBackend, 'apiUrl' | 'apiPort' | 'dbPort' | 'anon' | 'service' | 'sql' | 'superuserSql' | 'outbox' | 'stop'> {
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const pool = new pg.Pool({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`, max: 2 });
  const superuserPool = new pg.Pool({ connectionString: `postgresql://supabase_admin:postgres@127.0.0.1:${dbPort}/postgres`, max: 1 });
  // A restart closes the pools' idle connections under them; a pool replaces them on the next query.
  for (const each of [pool, superuserPool]) each.on('error', () => {});
  const client = (key: string) =>
    createClient(apiUrl, key, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
  return {
    apiUrl,
    apiPort,
    dbPort,
    anon: () => client(LOCAL_SUPABASE.anonKey),
    service: () => client(LOCAL_SUPABASE.serviceRoleKey),
    sql: async (text, values) => (await pool.query(text, values)).rows,
    superuserSql: async (text, values) => (await superuserPool.query(text, values)).rows,
    async outbox(to) {
      const response = await fetch(`${apiUrl}/__local/outbox?to=${encodeURIComponent(to)}`, {
        headers: { apikey: LOCAL_SUPABASE.serviceRoleKey, authorization: `Bearer ${LOCAL_SUPABASE.serviceRoleKey}` },
      });
      if (!response.ok) throw new Error(`outbox answered ${response.status}: ${await response.text()}`);
      return response.json();
    },
    async stop() {
      await Promise.all([pool.end(), superuserPool.end()]);
    },
  };
}

/** A unique address per test, so tests never see each other's users. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.test`;
}
