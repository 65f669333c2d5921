/**
 * The built seed site the integration tests read, as HTML files and their visible text: built once per run into
 * a folder of the suite's own (`.data/test-site/dist`, not the project's `dist/`, which the servers of the
 * browser suites build and clean beside this one), when it is missing (the build reads the organization from the
 * backend, so that needs to be running). Every build a test starts takes the project's build lock
 * (netlify/local/site-build.ts): two builds at once would share Astro's and the Netlify adapter's folders in the
 * project.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { acquireBuildLock, buildSite } from '../../../netlify/local/site-build.ts';

/** The project's folder. */
export const ROOT = join(import.meta.dirname, '../../..');
export const DIST = join(ROOT, '.data', 'test-site', 'dist');

/**
 * How long a hook that builds (or reads the shared build) may take: it waits under the project's build lock for
 * the builds other files started, and the first build of a fresh clone also bundles Vite's dependencies (a fresh
 * clone's CI once spent over 120 s there with three files building at the start).
 */
export const BUILD_HOOK_TIMEOUT_MS = 300_000;

/** Builds the site into DIST (as `npm run build` builds `dist/`, swapped in whole) unless a build is already there. */
export async function ensureBuilt(): Promise<void> {
  if (existsSync(join(DIST, 'index.html'))) return;
  const failure = await buildSite({ ...process.env, SITE_BUILD_DIST: DIST });
  if (failure) throw new Error(`The site build failed: ${failure}; is the backend running?`);
}

/**
 * `astro build` of this project into `outDir` with `env` added (SITE_ORG, BLOG_SNAPSHOT_DIR, ...), as a child
 * process the test awaits: the test's own event loop keeps running, so its open connections to the backend
 * stay usable after the build (a blocking spawnSync left them closed under it, and the next call failed).
 */
export async function astroBuild(outDir: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const release = await acquireBuildLock(() => {});
  const child = spawn(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir], {
    cwd: ROOT,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise<{ status: number | null; output: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  }).finally(release);
}

/** Every HTML file of the build, as a path relative to dist (`services/seo/index.html`). */
export function htmlFiles(): string[] {
  return (readdirSync(DIST, { recursive: true }) as string[]).filter((file) => file.endsWith('.html')).map((file) => relative(DIST, join(DIST, file)));
}

/** The public site's pages: every built page but the client-only back office (`admin/`), which has its own frame. */
export function publicHtmlFiles(): string[] {
  return htmlFiles().filter((file) => !file.startsWith('admin/'));
}

/** The HTML served for a route (`/services/seo` → `services/seo/index.html`), from `dist` or another build. */
export function pageHtml(route: string, root: string = DIST): string {
  return readFileSync(join(root, routeFile(route)), 'utf8');
}

/** A file the build writes for Netlify (`_redirects`, `_headers`). */
export function netlifyFile(name: '_redirects' | '_headers'): string {
  const file = join(DIST, name);
  if (!existsSync(file)) throw new Error(`The build wrote no ${name} file in ${DIST}`);
  return readFileSync(file, 'utf8');
}

/** Is there a page for this route in the build? */
export function hasPage(route: string, root: string = DIST): boolean {
  return existsSync(join(root, routeFile(route)));
}

function routeFile(route: string): string {
  return route === '/' ? 'index.html' : route === '/404' ? '404.html' : `${route.replace(/^\//, '')}/index.html`;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#x27': "'", copy: '©' };

/** What a reader sees with JavaScript off: no scripts, templates or tags, entities decoded, spaces collapsed. */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&(#?\w+);/g, (match, name: string) => entities[name] ?? match)
    .replace(/\s+/g, ' ');
}

/** Does this internal path resolve to a file of the build (the way Netlify serves pretty URLs)? */
export function resolvesToFile(path: string): boolean {
  const clean = decodeURI(path.split(/[?#]/)[0]!).replace(/\/$/, '');
  const isFile = (candidate: string) => existsSync(join(DIST, candidate)) && statSync(join(DIST, candidate)).isFile();
  return [clean, `${clean}.html`, `${clean}/index.html`].some(isFile);
}
