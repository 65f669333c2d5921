/**
 * `node supabase/local/cli.ts <command>`: the local backend's commands, named like the Supabase CLI's.
 *
 *   start    start Postgres + API in the background (pid and log in the data dir), wait until healthy
 *   ensure   start only when not already running (for `npm run dev`, `serve` and test suites)
 *   stop     stop the instance
 *   reset    stop, delete the database and stored files, start again (bootstrap + migrations + seed)
 *   status   print `supabase status -o env` lines; exit 1 when not running
 *   mail     list the mail outbox (`--to EMAIL` to filter)
 *   serve    run in the foreground (what `start` runs in the background)
 *
 * Options: --data-dir DIR (default .data), --api-port N (54321), --db-port M (54322), --migrations DIR,
 * --seed FILE, --config FILE (the config.toml whose [auth] settings apply; default supabase/config.toml).
 * An instance remembers its ports and options in its data dir, so `status`/`stop --data-dir DIR` find it.
 * LOCAL_AUTH_HASH_COST in the environment of `start` sets the bcrypt cost of the passwords it stores
 * (supabase/local/auth/users.ts; GoTrue's 10 by default).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { listMail } from './outbox.ts';
import { alive, apiUrl, files, healthy, type Instance, readPid, running, storedSettings } from './instance.ts';
import { databaseUrl, REPO_ROOT } from './postgres.ts';

/** The Supabase CLI's default local ports. */
const DEFAULT_API_PORT = 54321;
const DEFAULT_DB_PORT = 54322;
const START_TIMEOUT_MS = 60_000;

function parseOptions(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      'api-port': { type: 'string' },
      'db-port': { type: 'string' },
      migrations: { type: 'string' },
      seed: { type: 'string' },
      config: { type: 'string' },
      to: { type: 'string' },
    },
  });
  return { command: positionals[0] ?? 'help', values };
}

/** The instance the options address: explicit options win, then what the data dir remembers. */
function resolveInstance(values: ReturnType<typeof parseOptions>['values']): Instance {
  const dataDir = resolve(values['data-dir'] ?? join(REPO_ROOT, '.data'));
  const stored = storedSettings(dataDir);
  const port = (value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`Invalid port "${value}"`);
    return n;
  };
  return {
    dataDir,
    apiPort: port(values['api-port'], stored.apiPort ?? DEFAULT_API_PORT),
    dbPort: port(values['db-port'], stored.dbPort ?? DEFAULT_DB_PORT),
    migrationsDir: values.migrations ? resolve(values.migrations) : stored.migrationsDir,
    seedFile: values.seed ? resolve(values.seed) : stored.seedFile,
    configFile: values.config ? resolve(values.config) : stored.configFile,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts the instance in the background and waits until it answers. */
async function start(instance: Instance): Promise<void> {
  if (await running(instance)) {
    console.log(`Local backend already running at ${apiUrl(instance)}.`);
    return;
  }
  await stop(instance, { quiet: true });
  if (await healthy(instance)) throw new Error(`Port ${instance.apiPort} already answers for another local backend instance; stop it or choose --api-port.`);
  await mkdir(instance.dataDir, { recursive: true });
  const f = files(instance.dataDir);
  await writeFile(f.settings, `${JSON.stringify(instance, null, 2)}\n`);
  const log = openSync(f.log, 'a');
  const child = spawn(process.execPath, [import.meta.filename, 'serve', '--data-dir', instance.dataDir], {
    detached: true,
    stdio: ['ignore', log, log],
    env: process.env,
  });
  closeSync(log);
  child.unref();
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + START_TIMEOUT_MS;
  // Ready once this child wrote its pid (after Postgres and the server started) and the API answers.
  while (readPid(instance) !== child.pid || !(await healthy(instance))) {
    if (exited || Date.now() > deadline) {
      const tail = (await readFile(f.log, 'utf8').catch(() => '')).split('\n').slice(-25).join('\n');
      throw new Error(`The local backend did not start (log: ${f.log}):\n${tail}`);
    }
    await sleep(50);
  }
  console.log(`Started local backend.\n\n         API URL: ${apiUrl(instance)}\n          DB URL: ${databaseUrl(instance.dbPort)}\n  Outbox (mails): npm run db:mail\n`);
}

/** Stops the instance's process group, and a Postgres left behind by a crashed server. */
async function stop(instance: Instance, { quiet = false } = {}): Promise<void> {
  const f = files(instance.dataDir);
  const pid = readPid(instance);
  if (pid !== undefined && alive(pid)) {
    process.kill(-pid, 'SIGTERM');
    for (let i = 0; i < 200 && alive(pid); i++) await sleep(50);
    if (alive(pid)) process.kill(-pid, 'SIGKILL');
  }
  await unlink(f.pid).catch(() => {});
  const postmaster = readPostmasterPid(f.cluster);
  if (postmaster !== undefined && alive(postmaster)) {
    process.kill(postmaster, 'SIGINT');
    for (let i = 0; i < 200 && alive(postmaster); i++) await sleep(50);
  }
  // Stopped means the ports are free again: the next start on the same ports must not race the old one.
  for (let i = 0; i < 200 && ((await listening(instance.apiPort)) || (await listening(instance.dbPort))); i++) await sleep(50);
  if (!quiet) console.log(pid !== undefined ? 'Stopped local backend.' : 'Local backend was not running.');
}

/** Whether something accepts connections on a loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((answer) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), answer(true)));
    socket.once('error', () => answer(false));
  });
}

function readPostmasterPid(cluster: string): number | undefined {
  const file = join(cluster, 'postmaster.pid');
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** Runs the instance in this process until SIGTERM/SIGINT. */
async function serve(instance: Instance): Promise<void> {
  const f = files(instance.dataDir);
  const started = Date.now();
  // Loaded here, not at the top: the server is four fifths of this script's start-up (0.2 s of 0.25), and the
  // other commands (status, ensure, stop), run by every npm script and test file that needs a backend, never use it.
  const { startLocalBackend } = await import('./server.ts');
  const backend = await startLocalBackend({
    dataDir: instance.dataDir,
    apiPort: instance.apiPort,
    dbPort: instance.dbPort,
    migrationsDir: instance.migrationsDir,
    seedFile: instance.seedFile,
    configFile: instance.configFile,
    onLog: (line) => console.log(line),
  });
  await writeFile(f.pid, `${process.pid}\n`);
  console.log(`Local backend ready in ${Date.now() - started} ms: ${backend.apiUrl}`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: stopping`);
    await backend.stop();
    await unlink(f.pid).catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

function status(instance: Instance): void {
  const lines = {
    ANON_KEY: LOCAL_SUPABASE.anonKey,
    API_URL: apiUrl(instance),
    DB_URL: databaseUrl(instance.dbPort),
    JWT_SECRET: LOCAL_SUPABASE.jwtSecret,
    REST_URL: `${apiUrl(instance)}/rest/v1`,
    SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey,
  };
  for (const [name, value] of Object.entries(lines)) console.log(`${name}="${value}"`);
}

async function mail(instance: Instance, to: string | undefined): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl(instance.dbPort) });
  await client.connect();
  try {
    const mails = await listMail(client, { to });
    if (mails.length === 0) console.log(to ? `No mail to ${to}.` : 'The outbox is empty.');
    for (const m of mails.reverse()) {
      console.log(`── ${m.created_at}  ${m.type}  to ${m.to}\nSubject: ${m.subject}\n\n${m.text}`);
    }
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const { command, values } = parseOptions(process.argv.slice(2));
  const instance = resolveInstance(values);
  switch (command) {
    case 'start':
    case 'ensure':
      await start(instance);
      return 0;
    case 'stop':
      await stop(instance);
      return 0;
    case 'reset':
      await stop(instance, { quiet: true });
      await rm(files(instance.dataDir).cluster, { recursive: true, force: true });
      // Stored files belong to the rows just deleted; bucket seeding refills them on the new database.
      await rm(files(instance.dataDir).storage, { recursive: true, force: true });
      await start(instance);
      return 0;
    case 'status':
      if (!(await running(instance))) {
        console.error(`Local backend is not running (data dir ${instance.dataDir}). Start it with npm run db:start.`);
        return 1;
      }
      status(instance);
      return 0;
    case 'mail':
      if (!(await running(instance))) {
        console.error('Local backend is not running. Start it with npm run db:start.');
        return 1;
      }
      await mail(instance, values.to);
      return 0;
    case 'serve':
      await serve(instance);
      return -1;
    default:
      console.error(readFileSync(import.meta.filename, 'utf8').split('*/')[0]!.replace(/^\/\*\*|^ \* ?/gm, ''));
      return command === 'help' ? 0 : 1;
  }
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
