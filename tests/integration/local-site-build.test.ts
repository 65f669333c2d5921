/**
 * `node netlify/local/site-build.ts` against the local backend: a failed build leaves the served folder as it
 * was and says why on its last stderr line; a successful one swaps the new site in; a second build waits for
 * the first. (What the local build hook does with it: local-build-hook.test.ts.)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireBuildLock, lockFile } from '../../netlify/local/site-build.ts';

const ROOT = join(import.meta.dirname, '../..');
const SITE_BUILD = join(ROOT, 'netlify/local/site-build.ts');

type Run = { code: number | null; stdout: string; stderr: string; pid: number | undefined };

function siteBuild(env: Record<string, string>, onStdout?: (text: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SITE_BUILD], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      onStdout?.(stdout);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr, pid: child.pid }));
  });
}

const lastLine = (text: string) => text.trim().split('\n').at(-1) ?? '';

let root: string;
let dist: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'site-build-'));
  dist = join(root, 'dist');
  mkdirSync(dist);
  writeFileSync(join(dist, 'index.html'), '<p>the site being served</p>');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the local site build', () => {
  it('leaves the served site untouched when the build fails, removes its own folder and says why last', async () => {
    const run = await siteBuild({ SITE_BUILD_DIST: dist, SITE_ORG: 'no-such-organization' });
    expect(run.code).toBe(1);
    expect(lastLine(run.stderr)).toMatch(/^BUILD FAILED: astro build exited with code 1: .*SITE_ORG=no-such-organization names no organization/);
    expect(readdirSync(dist)).toEqual(['index.html']);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('<p>the site being served</p>');
    expect(readdirSync(join(root, '.data', 'site-builds'))).toEqual([]);
  }, 120_000);

  it('builds into a fresh folder and swaps it in place of the served one when it succeeded', async () => {
    const run = await siteBuild({ SITE_BUILD_DIST: dist, SITE_ORG: 'evergreen-landscaping' });
    expect(run.stderr.includes('BUILD FAILED')).toBe(false);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\[site-build\] evergreen-landscaping built in \d+\.\d s, now served from dist\//);
    const home = readFileSync(join(dist, 'index.html'), 'utf8');
    expect(home).toContain('Evergreen Landscaping');
    // What `npm run build` leaves: the redirects and headers files and pagefind's index, all in the swapped folder.
    for (const file of ['_redirects', '_headers', 'pagefind/pagefind.js', 'blog/index.html']) expect(existsSync(join(dist, file)), file).toBe(true);
    expect(readdirSync(join(root, '.data', 'site-builds'))).toEqual([]);
  }, 240_000);

  it('waits while another build holds the lock, then builds', async () => {
    // The lock names a live process (this test): the build must wait for it to go.
    const release = await acquireBuildLock(() => {});
    let waited = false;
    const running = siteBuild({ SITE_BUILD_DIST: dist, SITE_ORG: 'no-such-organization' }, (out) => {
      waited ||= out.includes(`another local build (pid ${process.pid}) is running: waiting for it to finish`);
    });
    try {
      await expect.poll(() => waited, { timeout: 20_000 }).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(existsSync(join(root, '.data', 'site-builds'))).toBe(false);
    } finally {
      release();
    }
    const run = await running;
    expect(run.stdout).toContain('building no-such-organization');
    expect(lastLine(run.stderr)).toMatch(/^BUILD FAILED: /);
    // The build released the lock (a build of another test file may hold it by now).
    expect(existsSync(lockFile()) ? readFileSync(lockFile(), 'utf8') : 'released').not.toBe(String(run.pid));
    // Taking the lock first waits for the builds before it: the browser suite's run beside this one too.
  }, 300_000);
});
