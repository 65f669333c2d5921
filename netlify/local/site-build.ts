/**
 * `node netlify/local/site-build.ts`: the local site build that never takes the served site down. It runs what
 * `npm run build` runs (astro build, then pagefind) for the organization of SITE_ORG (the environment is passed
 * through), but into a fresh folder (`.data/site-builds/build-<stamp>`, beside `dist/` on the same file system),
 * and only when both succeeded swaps it in: `dist` is renamed to `.data/site-builds/old-<stamp>`, the fresh
 * folder to `dist` (two renames, a window of microseconds, against the ~10 s during which `npm run build`
 * leaves `dist/` half empty), then the old copy is removed. A failed
 * build removes its own folder, leaves `dist/` as it was, exits 1 and prints `BUILD FAILED: <reason>` as its
 * last stderr line (rebuilds.ts records that reason on the rebuild requests).
 *
 * What else the build writes, and why a swap stays consistent:
 * - everything served (pages, `_redirects`, `_headers`, `pagefind/`, sitemap) is in the output folder;
 * - the Netlify adapter writes `.netlify/v1/config.json` (the same every build: cache headers for /_astro/*)
 *   and its server chunks in `.netlify/build/`, and Astro its cache in `.astro/`; snapshots go to
 *   `.data/snapshots/` (each written then renamed). None is read by the served site per request, but two
 *   builds at once would share them: a lock (`.data/site-build.lock`) makes a second build wait for the first.
 *
 * Under `npm run dev` (LOCAL_SITE_SERVER=dev, set by netlify/local/cli.ts) the site is not `dist/`: `astro dev`
 * renders each page on request, but keeps what it read from the database (the blog, the organization, the
 * list of post pages) until a source file changes. There the local build is a refresh: it marks
 * src/lib/site/build-snapshot.ts, the module every database read of the build goes through, as changed (its
 * modification time, never its content), so the next request reads afresh. (astro dev then also reloads the
 * open browser tabs, as after any edit of a source file.)
 *
 * Env: SITE_ORG and everything the build reads; SITE_BUILD_DIST (default `<project>/dist`) is the folder
 * swapped, for tests.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = resolve(import.meta.dirname, '../..');
const ASTRO = join(ROOT, 'node_modules/astro/bin/astro.mjs');
const PAGEFIND = join(ROOT, 'node_modules/pagefind/lib/runner/bin.cjs');
/** The module all the build's database reads go through (see the header: the refresh under `npm run dev`). */
const DEV_REFRESH_FILE = join(ROOT, 'src/lib/site/build-snapshot.ts');
const LOCK_POLL_MS = 500;
const KEPT_OUTPUT_LINES = 60;

type Env = Record<string, string | undefined>;

/** The prefix of the last stderr line of a failed build; rebuilds.ts looks for it. */
export const BUILD_FAILED_PREFIX = 'BUILD FAILED: ';

/** The folder the build replaces: SITE_BUILD_DIST, else the project's `dist`. */
export function distFolder(env: Env = process.env): string {
  return resolve(ROOT, env.SITE_BUILD_DIST || 'dist');
}

/** The build lock: `<project>/.data/site-build.lock`, holding the pid of the build that runs. */
export function lockFile(): string {
  return join(ROOT, '.data', 'site-build.lock');
}

/**
 * Why the build failed, from the end of a step's output: its last error line (with the message Astro prints
 * under it, before "Location:"/"Stack trace:"), else its last line.
 */
export function failureReason(step: string, code: number | null, signal: string | null, output: readonly string[]): string {
  const lines = output.map((line) => stripAnsi(line).trim()).filter(Boolean);
  const at = lines.findLastIndex((line) => /\berror\b/i.test(line) && !/^at\s/.test(line));
  let detail = lines.at(-1);
  if (at >= 0) {
    const message = [];
    for (const line of lines.slice(at + 1, at + 4)) {
      if (/^(Location|Stack trace|Hint|at)\b/.test(line)) break;
      message.push(line);
    }
    detail = [lines[at]!.replace(/^\d\d:\d\d:\d\d\s+/, '').replace(/^\[?error\]?:?\s*/i, ''), ...message].join(' ');
  }
  const exit = signal ? `was stopped (${signal})` : `exited with code ${code}`;
  return `${step} ${exit}${detail ? `: ${detail}` : ''}`.slice(0, 1000);
}

function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
}

/** Takes the build lock, waiting for a running build to finish; a lock whose process is gone is taken over. */
async function acquireLock(file: string, log: (line: string) => void): Promise<() => void> {
  mkdirSync(dirname(file), { recursive: true });
  let waiting = false;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          // Already gone.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSafe(file));
    if (!Number.isInteger(holder) || holder <= 0 || !alive(holder)) {
      // A build that died without releasing it (or a half-written lock): take it over.
      rmSync(file, { force: true });
      continue;
    }
    if (!waiting) log(`another local build (pid ${holder}) is running: waiting for it to finish`);
    waiting = true;
    await sleep(LOCK_POLL_MS);
  }
}

function readFileSafe(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Where the fresh and the old folders live: `.data/site-builds/` beside `dist` (git-ignored, and on the same
 * file system, so moving a folder from there to `dist` is a rename).
 */
export function workFolder(dist: string): string {
  return join(dirname(dist), '.data', 'site-builds');
}

/** Removes what a killed build left in the work folder (only ever called with the lock held). */
function removeLeftovers(work: string): void {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
}

let current: ReturnType<typeof spawn> | undefined;

/** Runs one step with the build's environment, echoing its output; resolves with how it ended and its last lines. */
function runStep(script: string, args: string[], env: Env): Promise<{ code: number | null; signal: string | null; output: string[] }> {
  return new Promise((resolvePromise) => {
    const output: string[] = [];
    const keep = (chunk: Buffer) => {
      output.push(...chunk.toString('utf8').split('\n'));
      if (output.length > KEPT_OUTPUT_LINES) output.splice(0, output.length - KEPT_OUTPUT_LINES);
    };
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      keep(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // The build's own errors go to stdout here: stderr's last line is ours (BUILD FAILED).
      process.stdout.write(chunk);
      keep(chunk);
    });
    child.on('error', (error) => {
      output.push(`error: ${error.message}`);
    });
    child.on('close', (code, signal) => {
      current = undefined;
      resolvePromise({ code, signal, output });
    });
  });
}

/** The refresh under `npm run dev`: astro dev reads the database afresh on the next request. */
function refreshDevServer(log: (line: string) => void): void {
  const now = new Date();
  utimesSync(DEV_REFRESH_FILE, now, now);
  log('npm run dev renders pages on request: marked the database reads as changed, the next request reads afresh');
}

/** Builds the site into a fresh folder and swaps it in place of `dist`; returns the failure reason, or null. */
export async function buildSite(env: Env = process.env, log: (line: string) => void = defaultLog): Promise<string | null> {
  if (env.LOCAL_SITE_SERVER === 'dev') {
    refreshDevServer(log);
    return null;
  }
  const dist = distFolder(env);
  const organization = env.SITE_ORG?.trim() || '(the default organization)';
  const release = await acquireLock(lockFile(), log);
  const stamp = `${Date.now()}-${process.pid}`;
  const work = workFolder(dist);
  const fresh = join(work, `build-${stamp}`);
  const started = Date.now();
  try {
    removeLeftovers(work);
    log(`building ${organization} into ${fresh}`);
    const astro = await runStep(ASTRO, ['build', '--outDir', fresh], env);
    if (astro.code !== 0) return failureReason('astro build', astro.code, astro.signal, astro.output);
    const pagefind = await runStep(PAGEFIND, ['--site', fresh], env);
    if (pagefind.code !== 0) return failureReason('pagefind', pagefind.code, pagefind.signal, pagefind.output);
    swapIn(fresh, dist, join(work, `old-${stamp}`));
    log(`${organization} built in ${((Date.now() - started) / 1000).toFixed(1)} s, now served from ${basename(dist)}/`);
    return null;
  } catch (error) {
    return (error as Error).message;
  } finally {
    rmSync(fresh, { recursive: true, force: true });
    release();
  }
}

/** Puts `fresh` in place of `dist` with two renames (the old copy goes to `old`), then removes the old copy. */
export function swapIn(fresh: string, dist: string, old: string): void {
  const hadOld = existsSync(dist);
  if (hadOld) renameSync(dist, old);
  try {
    renameSync(fresh, dist);
  } catch (error) {
    if (hadOld) renameSync(old, dist);
    throw new Error(`could not move the new build in place of ${dist}: ${(error as Error).message}`, { cause: error });
  }
  if (hadOld) rmSync(old, { recursive: true, force: true });
}

function defaultLog(line: string): void {
  console.log(`[site-build] ${line}`);
}

if (import.meta.main) {
  let interrupted = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      interrupted = true;
      if (current) return void current.kill(signal);
      // Not building yet (waiting for the lock): a lock or folder left behind is cleaned up by the next build.
      console.error(`${BUILD_FAILED_PREFIX}the build was interrupted`);
      process.exit(1);
    });
  }
  const reason = await buildSite().catch((error: Error) => error.message);
  if (reason || interrupted) {
    console.error(`${BUILD_FAILED_PREFIX}${(reason ?? 'the build was interrupted').replace(/\s+/g, ' ')}`);
    process.exit(1);
  }
}
