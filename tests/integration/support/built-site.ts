/**
 * The built site in `dist/`, as HTML files and their visible text. Builds once when `dist/` is missing
 * (the build reads the organization from the backend, so that needs to be running).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export const DIST = join(import.meta.dirname, '../../../dist');

/** Builds the site unless a build is already there. */
export function ensureBuilt(): void {
  if (existsSync(join(DIST, 'index.html'))) return;
  const build = spawnSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit', cwd: join(DIST, '..') });
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status}); is the backend running?`);
}

/**
 * `astro build` of this project into `outDir` with `env` added (SITE_ORG, BLOG_SNAPSHOT_DIR, ...), as a child
 * process the test awaits: the test's own event loop keeps running, so its open connections to the backend
 * stay usable after the build (a blocking spawnSync left them closed under it, and the next call failed).
 */
export function astroBuild(outDir: string, env: Record<string, string>): Promise<{ status: number | null; output: string }> {
  const root = join(DIST, '..');
  const child = spawn(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir], {
    cwd: root,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
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

/**
 * A file the build writes for Netlify (`_redirects`, `_headers`). `netlify serve` (the e2e server) moves
 * them from dist/ to .netlify/deploy/ once it has merged them into its configuration.
 */
export function netlifyFile(name: '_redirects' | '_headers'): string {
  const file = [join(DIST, name), join(DIST, '../.netlify/deploy', name)].find((candidate) => existsSync(candidate));
  if (!file) throw new Error(`The build wrote no ${name} file (looked in dist/ and .netlify/deploy/)`);
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
