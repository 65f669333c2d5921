/**
 * Global setup of `npm run test:e2e:dev` (playwright.dev.config.ts): the dev server's spec gets a world of its
 * own, so it can run beside the main browser suite (tests/run.ts runs them side by side):
 * - a copy of the project to start `netlify dev` in (bench/served-site.ts; node_modules as hard links, since
 *   astro dev serves only files under its folder): netlify dev writes the project's .netlify/ folder, which
 *   the main suite's `netlify serve` serves its functions from;
 * - a local backend of its own (data in `.data/e2e-dev`, kept between runs like the integration workers'; ports
 *   28421/28422, below Linux's range for outgoing ports): the dev server stores its build hook as the seed
 *   organization's and its scheduler sends every organization's due rebuilds, which on the main suite's
 *   backend would start builds under its tests. SUPABASE_URL, PUBLIC_SUPABASE_URL, SUPABASE_DB_URL and the
 *   keys point the spec (support/backend.ts) and the server it starts at it; E2E_DEV_PROJECT names the copy.
 * The teardown stops that backend and removes the copy.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { projectCopy } from '../../../bench/served-site.ts';
import { LOCAL_SUPABASE } from '../../../src/lib/server/service-config.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const DATA_DIR = join(ROOT, '.data', 'e2e-dev');
const API_PORT = 28421;
const DB_PORT = 28422;

function cli(...args: string[]) {
  return spawnSync(process.execPath, [join(ROOT, 'supabase/local/cli.ts'), ...args, '--data-dir', DATA_DIR], { cwd: ROOT, encoding: 'utf8' });
}

export default function setup(): () => void {
  const started = cli('start', '--api-port', String(API_PORT), '--db-port', String(DB_PORT));
  if (started.status !== 0) throw new Error(`The dev server spec's backend did not start:\n${started.stdout}${started.stderr}`);
  // In .data (the project's file system, for the hard links; git-ignored).
  const project = projectCopy({ parent: join(ROOT, '.data', 'e2e-dev-projects'), nodeModules: 'hard links' });
  const apiUrl = `http://127.0.0.1:${API_PORT}`;
  Object.assign(process.env, {
    SUPABASE_URL: apiUrl,
    PUBLIC_SUPABASE_URL: apiUrl,
    SUPABASE_DB_URL: `postgresql://postgres:postgres@127.0.0.1:${DB_PORT}/postgres`,
    // Every local instance signs with the local JWT secret; only the default address gets these keys by itself.
    SUPABASE_ANON_KEY: LOCAL_SUPABASE.anonKey,
    PUBLIC_SUPABASE_ANON_KEY: LOCAL_SUPABASE.anonKey,
    SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey,
    E2E_DEV_PROJECT: project,
  });
  return () => {
    cli('stop');
    rmSync(project, { recursive: true, force: true });
  };
}
