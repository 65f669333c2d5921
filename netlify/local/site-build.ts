/**
 * `node netlify/local/site-build.ts`: the local site build that never takes the served site down. It runs what
 * `npm run build` runs (astro build, then pagefind) for the organization of SITE_ORG (the environment is passed
 * through), but into a fresh folder (`.data/site-builds/build-<stamp>`, beside `dist/` on the same file system),
 * and only when both succeeded swaps it in: `dist` is renamed to `.data/site-builds/old-<stamp>`, the fresh
 * folder to `dist` (two renames, a window of microseconds, against the ~10 s during which `npm run build`
 * leaves `dist/` half empty), then the old copy is removed. A failed build removes its own folder and leaves
 * `dist/` as it was. `buildSite` answers the failure reason (null on success): the local build hook
 * (build-hook.ts) calls it in its own process and reports the reason in its deploy notification; run as a
 * script, the build prints `BUILD FAILED: <reason>` as its last stderr line and exits 1.
 *
 * What else the build writes, and why a swap stays consistent:
 * - everything served (pages, `_redirects`, `_headers`, `pagefind/`, sitemap) is in the output folder;
 * - the Netlify adapter writes `.netlify/v1/config.json` (the same every build: cache headers for /_astro/*)
 *   and its server chunks in `.netlify/build/`, and Astro its cache in `.astro/`; snapshots go to
 *   `.data/snapshots/` (each written then renamed). None is read by the served site per request, but two
 *   builds at once would share them: a lock (`.data/site-build.lock`) makes a second build wait for the first.
 *
 * Env: SITE_ORG and everything the build reads; SITE_BUILD_DIST (default `<project>/dist`) is the folder
 * swapped, for tests.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = resolve(import.meta.dirname, '../..');
const ASTRO = join(ROOT, 'node_modules/astro/bin/astro.mjs');
const PAGEFIND = join(ROOT, 'node_modules/pagefind/lib/runner/bin.cjs');
const LOCK_POLL_MS = 500;
const KEPT_OUTPUT_LINES = 60;

type Env = Record<string, string | undefined>;

/** The prefix of the last stderr line of a failed build run as a script. */
const BUILD_FAILED_PREFIX = 'BUILD FAILED: ';

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

/**
 * Takes the build lock, waiting for a running build to finish; a lock whose process is gone is taken over.
 * Returns the function that releases it. Throws when `signal` aborts while it waits. Anything else that runs
 * `astro build` in this project (the test suites' builds into folders of their own) takes it too.
 */
export async function acquireBuildLock(log: (line: string) => void = defaultLog, signal?: AbortSignal): Promise<() => void> {
  const file = lockFile();
  mkdirSync(dirname(file), { recursive: true });
  let waiting = false;
  for (;;) {
    signal?.throwIfAborted();
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

/**
 * Runs one step with the build's environment, echoing its output; resolves with how it ended and its last
 * lines. An abort of `stop` stops the step (SIGTERM).
 */
function runStep(script: string, args: string[], env: Env, stop?: AbortSignal): Promise<{ code: number | null; signal: string | null; output: string[] }> {
  return new Promise((resolvePromise) => {
    const output: string[] = [];
    const keep = (chunk: Buffer) => {
      output.push(...chunk.toString('utf8').split('\n'));
      if (output.length > KEPT_OUTPUT_LINES) output.splice(0, output.length - KEPT_OUTPUT_LINES);
    };
    const child = spawn(process.execPath, [script, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], signal: stop });
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      keep(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // The build's own errors go to stdout here: run as a script, stderr's last line is ours (BUILD FAILED).
      process.stdout.write(chunk);
      keep(chunk);
    });
    child.on('error', (error) => {
      if (error.name !== 'AbortError') output.push(`error: ${error.message}`);
    });
    child.on('close', (code, signal) => {
      resolvePromise({ code, signal, output });
    });
  });
}

/**
 * Builds the site into a fresh folder and swaps it in place of `dist`; returns the failure reason, or null.
 * `log` receives the build's own lines; an abort of `signal` stops it (a failure: `dist` stays as it was).
 */
export async function buildSite(env: Env = process.env, options: { log?: (line: string) => void; signal?: AbortSignal } = {}): Promise<string | null> {
  const { log = defaultLog, signal } = options;
  const dist = distFolder(env);
  const organization = env.SITE_ORG?.trim() || '(the default organization)';
  const release = await acquireBuildLock(log, signal);
  const stamp = `${Date.now()}-${process.pid}`;
  const work = workFolder(dist);
  const fresh = join(work, `build-${stamp}`);
  const started = Date.now();
  try {
    removeLeftovers(work);
    log(`building ${organization} into ${fresh}`);
    const astro = await runStep(ASTRO, ['build', '--outDir', fresh], env, signal);
    if (astro.code !== 0) return failureReason('astro build', astro.code, astro.signal, astro.output);
    const pagefind = await runStep(PAGEFIND, ['--site', fresh], env, signal);
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
  const interrupt = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => interrupt.abort());
  // Interrupted while waiting for the lock: a lock or folder left behind is cleaned up by the next build.
  const reason = await buildSite(process.env, { signal: interrupt.signal }).catch((error: Error) => error.message);
  if (reason || interrupt.signal.aborted) {
    console.error(`${BUILD_FAILED_PREFIX}${(interrupt.signal.aborted ? 'the build was interrupted' : reason!).replace(/\s+/g, ' ')}`);
    process.exit(1);
  }
}
