/**
 * One backend per worker: the integration files run four at a time, and the files of one worker share its
 * backend (a seeded local instance) one after another, as the whole suite shared one before. Each worker's
 * (ports 24331/24332, 24341/24342, 24351/24352 and 24361/24362, data in `.data/test-worker-N`, kept between runs like the project's) is
 * started by worker-env.ts before the worker's first file, so a run of one file starts one. This global
 * teardown stops those this run started.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');

/**
 * Every port the suite listens on is below 32768, out of Linux's range for outgoing connections' local ports
 * (32768-60999): a server started on a port in that range fails now and then with "Address already in use",
 * when one of the suite's thousands of outgoing connections holds that very port (a fresh run lost three
 * files to it).
 */
export const WORKER_BACKENDS = [
  { dataDir: '.data/test-worker-1', apiPort: 24331, dbPort: 24332 },
  { dataDir: '.data/test-worker-2', apiPort: 24341, dbPort: 24342 },
  { dataDir: '.data/test-worker-3', apiPort: 24351, dbPort: 24352 },
  { dataDir: '.data/test-worker-4', apiPort: 24361, dbPort: 24362 },
] as const;

/** The file a worker leaves in its backend's data dir when it started that backend (the teardown below stops it). */
export const STARTED_BY_SUITE = 'started-by-test-suite';

/**
 * The bcrypt cost of the passwords the suite's backends store: bcrypt's least (supabase/local/auth/users.ts).
 * Their users sign up and sign in thousands of times. Set on the tests' environment too (vitest.config.ts).
 */
export const SUITE_HASH_COST = '4';

/** Stops the backends this run started, all at once (each waits for its Postgres to shut down). */
export default function setup(): () => Promise<void> {
  return async () => {
    const started = WORKER_BACKENDS.map((backend) => join(ROOT, backend.dataDir)).filter((dataDir) => existsSync(join(dataDir, STARTED_BY_SUITE)));
    const stop = promisify(execFile);
    await Promise.all(
      started.map(async (dataDir) => {
        await stop(process.execPath, [join(ROOT, 'supabase/local/cli.ts'), 'stop', '--data-dir', dataDir], { cwd: ROOT }).catch(() => {});
        rmSync(join(dataDir, STARTED_BY_SUITE), { force: true });
      }),
    );
  };
}
