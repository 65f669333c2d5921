/**
 * Points the tests of a worker at that worker's backend (see worker-backends.ts) before a test file loads:
 * the backend's URLs for the tests, the functions they call and the builds they start, and ports of the
 * worker's own for the instances and servers a test starts itself. The project's own instance (54321) is left
 * to the developer's servers and the browser suites (the seed's media files are still served from it, so the
 * script starts it). Every local instance signs with the local JWT secret, so the demo keys fit them all.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runningAt } from '../../../supabase/local/instance.ts';
import { LOCAL_SUPABASE } from '../../../src/lib/server/service-config.ts';
import { STARTED_BY_SUITE, SUITE_HASH_COST, WORKER_BACKENDS } from './worker-backends.ts';


/** Vitest numbers its workers from 1 (VITEST_POOL_ID); a file run outside a pool is worker 1. */
const worker = Number(process.env.VITEST_POOL_ID ?? 1);
const backend = WORKER_BACKENDS[worker - 1];
if (!backend) throw new Error(`Integration worker ${worker} has no backend: tests/integration/vitest.config.ts runs at most ${WORKER_BACKENDS.length} workers`);

await startBackend(backend);
const apiUrl = `http://127.0.0.1:${backend.apiPort}`;
Object.assign(process.env, {
  SUPABASE_URL: apiUrl,
  PUBLIC_SUPABASE_URL: apiUrl,
  SUPABASE_DB_URL: `postgresql://postgres:postgres@127.0.0.1:${backend.dbPort}/postgres`,
  SUPABASE_ANON_KEY: LOCAL_SUPABASE.anonKey,
  PUBLIC_SUPABASE_ANON_KEY: LOCAL_SUPABASE.anonKey,
  SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey,
  // Instances and servers a test starts itself: each worker in its own range.
  LOCAL_BACKEND_TEST_API_PORT: String(25421 + 100 * (worker - 1)),
  LOCAL_BACKEND_TEST_DB_PORT: String(25422 + 100 * (worker - 1)),
  REST_TEST_API_PORT: String(26421 + 100 * (worker - 1)),
  REST_TEST_DB_PORT: String(26422 + 100 * (worker - 1)),
});

/**
 * Starts the worker's backend unless it runs already (then notes that this run started it, for the teardown).
 * Asked in this process before each file: a CLI `status` per file cost the suite 40 s of a core.
 */
async function startBackend({ dataDir, apiPort, dbPort }: (typeof WORKER_BACKENDS)[number]): Promise<void> {
  const root = resolve(import.meta.dirname, '../../..');
  if (await runningAt(join(root, dataDir))) return;
  const started = spawnSync(process.execPath, [join(root, 'supabase/local/cli.ts'), 'start', '--api-port', String(apiPort), '--db-port', String(dbPort), '--data-dir', join(root, dataDir)], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, LOCAL_AUTH_HASH_COST: SUITE_HASH_COST },
  });
  if (started.status !== 0) throw new Error(`The backend of integration worker ${worker} did not start:\n${started.stdout}${started.stderr}`);
  writeFileSync(join(root, dataDir, STARTED_BY_SUITE), String(process.pid));
}
