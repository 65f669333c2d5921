/**
 * The blog's targets: build time and peak memory of the whole site (astro build + Pagefind) with
 * 100 and with 1,000 published posts, and what a visitor's first search costs at 1,000 posts (the Pagefind
 * files the browser fetches for one query, measured in Debian's Chromium). Posts are seeded into a separate
 * local backend instance (ports BENCH_API_PORT + 10 / BENCH_DB_PORT + 10).
 */
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import { launchChromium } from './browser.ts';
import { figure, treeMemoryMb, type Figure } from './measure.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'supabase/local/cli.ts');
const apiPort = Number(process.env.BENCH_API_PORT ?? 27521) + 10;
const dbPort = Number(process.env.BENCH_DB_PORT ?? 27522) + 10;
const apiUrl = `http://127.0.0.1:${apiPort}`;
const SCALE_PRO = '10000000-0000-4000-8000-000000000001';
const PARAGRAPH =
  '<p>Local search visibility grows when a business keeps its listings accurate, earns reviews and publishes ' +
  'pages that answer what nearby customers ask. Measure calls, direction requests and form fills, not rankings alone.</p>';

const cli = (dataDir: string, ...args: string[]) => {
  const run = spawnSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`local backend ${args[0]} failed: ${run.stderr}${run.stdout}`);
};

/** A service-role client of the backend at `url`. */
export const benchService = (url: string = apiUrl): SupabaseClient => createClient(url, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } });

/** scale-pro's category ids, which the benchmark posts are spread over. */
export async function categoryIds(service: SupabaseClient): Promise<string[]> {
  const { data, error } = await service.from('blog_categories').select('id').eq('organization_id', SCALE_PRO);
  if (error || !data?.length) throw new Error(`reading the benchmark categories: ${error?.message ?? 'none'}`);
  return data.map((category) => category.id);
}

/** `count` published scale-pro posts (slugs `benchmark-article-<label>-<n>`), an hour apart, two tags each. */
export function benchmarkPosts(count: number, label: string, categories: readonly string[]) {
  return Array.from({ length: count }, (_, i) => ({
    organization_id: SCALE_PRO,
    title: `Benchmark article ${i + 1}: growing a local business online`,
    slug: `benchmark-article-${label}-${i + 1}`,
    excerpt: 'How local businesses turn search visibility into calls and booked jobs.',
    content: PARAGRAPH.repeat(12),
    status: 'published',
    published_at: new Date(Date.now() - (i + 1) * 3_600_000).toISOString(),
    category_id: categories[i % categories.length]!,
    tags: ['benchmark', `topic-${i % 20}`],
  }));
}

/** Adds published posts to the backend at `url` until scale-pro has `total` of them (seed posts count), `batch` rows a request. */
export async function seedPosts(total: number, url: string = apiUrl, batch = 1000): Promise<void> {
  const service = benchService(url);
  const { count } = await service.from('blog_posts').select('id', { count: 'exact', head: true })
    .eq('organization_id', SCALE_PRO).eq('status', 'published');
  const rows = benchmarkPosts(total - (count ?? 0), String(total), await categoryIds(service));
  for (let i = 0; i < rows.length; i += batch) {
    const { error } = await service.from('blog_posts').insert(rows.slice(i, i + batch));
    if (error) throw new Error(`seeding benchmark posts: ${error.message}`);
  }
}

/** What one build took: in all, Astro's part and Pagefind's (ms), and the process tree's peak memory (MB). */
export interface TimedBuild {
  ms: number;
  astroMs: number;
  pagefindMs: number;
  peakMb: number;
}

/** Runs `npm run build`-equivalent into `outDir` from the backend at `url`, sampling the process tree's memory. */
export async function timedBuild(outDir: string, url: string = apiUrl): Promise<TimedBuild> {
  const env = { ...process.env, PUBLIC_SUPABASE_URL: url, SITE_ORG: 'scale-pro', ASTRO_TELEMETRY_DISABLED: '1' };
  const started = performance.now();
  let peakMb = 0;
  const run = (command: string, args: string[]) =>
    new Promise<void>((done, fail) => {
      const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const sampler = setInterval(() => (peakMb = Math.max(peakMb, treeMemoryMb(child.pid!))), 100);
      child.on('exit', (code) => {
        clearInterval(sampler);
        if (code === 0) done();
        else fail(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      });
    });
  await run(process.execPath, [join(ROOT, 'node_modules/astro/bin/astro.mjs'), 'build', '--outDir', outDir]);
  const astroMs = performance.now() - started;
  await run(process.execPath, [join(ROOT, 'node_modules/pagefind/lib/runner/bin.cjs'), '--site', outDir]);
  const ms = performance.now() - started;
  return { ms, astroMs, pagefindMs: ms - astroMs, peakMb };
}

export function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true }).reduce<number>((sum, file) => {
    const stat = statSync(join(dir, String(file)));
    return stat.isFile() ? sum + stat.size : sum;
  }, 0);
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };

/** Bytes of /pagefind/ responses a browser fetches for one search on the built site. */
export async function firstQueryBytes(siteDir: string): Promise<number> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    let file = join(siteDir, path);
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(siteDir) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': statSync(file).size });
    createReadStream(file).pipe(res);
  }).listen(0, '127.0.0.1');
  await new Promise((done) => server.once('listening', done));
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    let bytes = 0;
    page.on('response', async (response) => {
      if (!new URL(response.url()).pathname.startsWith('/pagefind/')) return;
      bytes += (await response.body().catch(() => Buffer.alloc(0))).length;
    });
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/blog/search?q=local%20search`);
    await page.getByText(/Search results for/).waitFor();
    await page.waitForLoadState('networkidle');
    return bytes;
  } finally {
    await browser.close();
    server.close();
  }
}

/**
 * Runs `measure` against a fresh local backend instance (the project's migrations and seed) on these ports, with
 * a scratch folder for build output; stops the instance and removes both folders afterwards, whatever happens.
 */
export async function withBenchBackend<T>(ports: { api: number; db: number }, measure: (work: string) => Promise<T>): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-backend-'));
  const work = mkdtempSync(join(tmpdir(), 'bench-dist-'));
  try {
    cli(dataDir, 'start', '--api-port', String(ports.api), '--db-port', String(ports.db));
    return await measure(work);
  } finally {
    try {
      cli(dataDir, 'stop');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    }
  }
}

export async function measureSiteBuild(runs = 2): Promise<Figure[]> {
  return withBenchBackend({ api: apiPort, db: dbPort }, async (work) => {
    const figures: Figure[] = [];
    for (const posts of [100, 1000]) {
      await seedPosts(posts);
      const times: number[] = [];
      const memory: number[] = [];
      for (let run = 0; run < runs; run++) {
        const outDir = join(work, `dist-${posts}-${run}`);
        const { ms, peakMb } = await timedBuild(outDir);
        times.push(ms / 1000);
        memory.push(peakMb);
      }
      figures.push(figure(`Site build with ${posts} published posts: time`, 's', times, posts === 1000 ? 60 : undefined));
      figures.push(figure(`Site build with ${posts} published posts: peak memory (PSS)`, 'MB', memory));
      if (posts === 1000) {
        const site = join(work, 'dist-1000-0');
        figures.push(figure('Search index at 1,000 posts (dist/pagefind)', 'KB', [folderBytes(join(site, 'pagefind')) / 1024]));
        figures.push(figure('Search: bytes fetched for a first query at 1,000 posts', 'KB', [(await firstQueryBytes(site)) / 1024], 300));
      }
    }
    return figures;
  });
}
