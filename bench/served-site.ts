/**
 * The production-like site the `pages`, `admin` and `webhook` areas measure: a separate local backend instance with the
 * project's migrations and seed (ports BENCH_API_PORT + 40 / BENCH_DB_PORT + 40, default 27561 / 27562), and
 * the site served as `npm run serve` serves it (netlify/local/cli.ts: `netlify serve --offline` behind the body-limit
 * proxy, which answers the built `_astro/` files again as Netlify's CDN would), built against that backend
 * (BENCH_SERVE_PORT, default 27898; functions on the next port, the static server on BENCH_STATIC_PORT, default 27300).
 *
 * The site is built and served from a copy of the project in a temporary folder (the working tree's files,
 * node_modules linked), never from the project itself: a `npm run serve` running beside the benchmark keeps
 * its own `dist/`, `.netlify/` and `.data/`. (Built in place, the bench's backend URL would land in the
 * served site's pages, and its sign-in would then break on the Content-Security-Policy.)
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';

const ROOT = resolve(import.meta.dirname, '..');
const apiPort = Number(process.env.BENCH_API_PORT ?? 27521) + 40;
const dbPort = Number(process.env.BENCH_DB_PORT ?? 27522) + 40;
const servePort = Number(process.env.BENCH_SERVE_PORT ?? 27898);
const staticPort = Number(process.env.BENCH_STATIC_PORT ?? 27300);
const apiUrl = `http://127.0.0.1:${apiPort}`;

/** Where the served site is; `dist` is the folder it serves; `apiUrl` its backend (`dbUrl` its Postgres); `functionEnv` the functions' env. */
export interface ServedSite {
  baseUrl: string;
  dist: string;
  apiUrl: string;
  dbUrl: string;
  functionEnv: Record<string, string>;
}

const cli = (dataDir: string, ...args: string[]) => {
  const run = spawnSync(process.execPath, [join(ROOT, 'supabase/local/cli.ts'), ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`local backend ${args[0]} failed: ${run.stderr}${run.stdout}`);
};

/**
 * A copy of the project as the working tree has it (tracked files and new ones git does not ignore, so
 * uncommitted changes are measured too); answers its folder (in the system's temporary folder, else in
 * `parent`). The project's node_modules is linked, or with `nodeModules: 'hard links'` copied as hard links
 * (`parent` must then be on the project's file system) in a git repository of its own: `astro dev` serves only
 * files under the project's folder, and a linked node_modules resolves outside it. Astro's and Vite's caches
 * are left out of the hard links: they are rewritten in place, which would write through to the project's own.
 */
export function projectCopy({ parent = tmpdir(), nodeModules = 'link' }: { parent?: string; nodeModules?: 'link' | 'hard links' } = {}): string {
  mkdirSync(parent, { recursive: true });
  const copy = mkdtempSync(join(parent, 'bench-project-'));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    // A tracked file deleted in the working tree is skipped, as a build would not see it.
    try {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      cpSync(join(ROOT, file), join(copy, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  if (nodeModules === 'link') {
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    return copy;
  }
  const linked = spawnSync('cp', ['-al', join(ROOT, 'node_modules'), join(copy, 'node_modules')], { encoding: 'utf8' });
  if (linked.status !== 0) throw new Error(`hard-linking node_modules failed: ${linked.stderr}`);
  for (const cache of ['.vite', '.astro']) rmSync(join(copy, 'node_modules', cache), { recursive: true, force: true });
  // A repository of its own: netlify-cli takes the nearest git root above a folder as the site's, and the copy
  // of this mode sits inside the project's (its `dist/_headers` then went with the copy's pages).
  const initialized = spawnSync('git', ['init', '--quiet', copy], { encoding: 'utf8' });
  if (initialized.status !== 0) throw new Error(`git init in the copy failed: ${initialized.stderr}`);
  return copy;
}

/** Polls until the server answers `/` with 200 (the build runs first), or the server exits. */
export async function waitUntilServing(baseUrl: string, exited: () => string | undefined, timeoutMs = 600_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const failure = exited();
    if (failure) throw new Error(failure);
    // The body is read to the end: a response left unread keeps its socket paused, and undici asserts when the
    // server then closes it (an uncaught `assert(!this.paused)` that ends the run).
    const status = await fetch(baseUrl, { signal: AbortSignal.timeout(5000) }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);
    if (status === 200) return;
    await new Promise((done) => setTimeout(done, 1000));
  }
  throw new Error(`netlify serve did not answer ${baseUrl} within ${timeoutMs / 1000} s`);
}

/**
 * Starts the backend and the served site, runs `measure` against it, and stops both whatever happens. By
 * default nothing rebuilds the site under the measurements (a quiet window of an hour, no scheduler); with
 * `asNpmRunServe` the site runs exactly as `npm run serve` runs it, with the local scheduler and the default
 * rebuild settings, so publishing rebuilds it.
 */
export async function withServedSite<T>(measure: (site: ServedSite) => Promise<T>, { asNpmRunServe = false } = {}): Promise<T> {
  // Copied first: a copy that fails then leaves no backend running.
  const project = projectCopy();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-served-'));
  const baseUrl = `http://localhost:${servePort}`;
  cli(dataDir, 'start', '--api-port', String(apiPort), '--db-port', String(dbPort));
  const functionEnv = {
    PUBLIC_SUPABASE_URL: apiUrl,
    SUPABASE_URL: apiUrl,
    // Explicit: serviceSupabaseConfig() supplies the demo key only for the default local URL.
    SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey,
    SITE_ORG: 'scale-pro',
    // Canonical and Open Graph URLs point at the served site, as they do in production.
    SITE_URL: baseUrl,
    ...(asNpmRunServe
      ? {}
      : {
          // Nothing the measurements do may start a site build under the server.
          REBUILD_QUIET_WINDOW_MS: '3600000',
          REBUILD_AT_ONCE: 'off',
          // Nor run the scheduled functions every minute beside them (work that would land in a measurement).
          LOCAL_SCHEDULER: 'off',
        }),
  };
  const env = { ...process.env, ...functionEnv, BROWSER: 'none' };
  const args = ['--offline', '--port', String(servePort), '--functions-port', String(servePort + 1), '--staticServerPort', String(staticPort)];
  // Its own process group, so stopping it also stops the build and the servers it started.
  const server = spawn(process.execPath, [join(project, 'netlify/local/cli.ts'), 'serve', ...args], { cwd: project, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exit: string | undefined;
  server.stdout.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  server.stderr.on('data', (chunk) => (output = (output + chunk).slice(-4000)));
  server.on('exit', (code) => (exit = `netlify serve exited ${code}: ${output}`));
  try {
    await waitUntilServing(baseUrl, () => exit);
    return await measure({ baseUrl, dist: join(project, 'dist'), apiUrl, dbUrl: `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres`, functionEnv });
  } finally {
    try {
      if (exit === undefined) {
        // Waited for, so that nothing still writes into the copy when it is removed.
        const stopped = new Promise((done) => server.once('exit', done));
        process.kill(-server.pid!, 'SIGTERM');
        await Promise.race([stopped, new Promise((done) => setTimeout(done, 20_000))]);
      }
    } finally {
      try {
        cli(dataDir, 'stop');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(project, { recursive: true, force: true });
      }
    }
  }
}
