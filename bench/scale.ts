/**
 * `npm run bench:scale`: the blog at the size the writing tool's users reach. On a separate local backend
 * instance (ports BENCH_API_PORT + 20 / BENCH_DB_PORT + 20):
 *
 * - the local REST insert of 100 and 1,000 posts in one request (bulk writes must grow linearly: the time per
 *   row at 1,000 is held against the time per row at 100);
 * - the whole site build (Astro, then Pagefind) at 1,000 and at 10,000 published posts: time, pages, time per
 *   page, peak memory, output size; the time per page at 10,000 must stay within 1.3x of that at 1,000, the
 *   10,000-post build within 60 s and 2 GB;
 * - the bytes a visitor's first search fetches at 10,000 posts.
 *
 * One build per size (a 10,000-post build is a minute): the figures are single runs, said so by the runs column.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { figure, median, type AreaReport, type Figure } from './measure.ts';
import { benchmarkPosts, benchService, categoryIds, firstQueryBytes, folderBytes, seedPosts, timedBuild, withBenchBackend, type TimedBuild } from './site-build.ts';

const apiPort = Number(process.env.BENCH_API_PORT ?? 27521) + 20;
const dbPort = Number(process.env.BENCH_DB_PORT ?? 27522) + 20;
const apiUrl = `http://127.0.0.1:${apiPort}`;
const SIZES = [1000, 10000] as const;
/** Inserts timed per size; the median counts. */
const INSERT_RUNS = 3;

/** One request inserting `rows` posts, timed; the rows are removed afterwards. */
async function timedInsert(rows: number, run: number): Promise<number> {
  const service = benchService(apiUrl);
  const label = `insert-${rows}-${run}`;
  const posts = benchmarkPosts(rows, label, await categoryIds(service)).map((post) => ({ ...post, status: 'draft', published_at: null }));
  const started = performance.now();
  const { error } = await service.from('blog_posts').insert(posts);
  const ms = performance.now() - started;
  if (error) throw new Error(`inserting ${rows} posts in one request: ${error.message}`);
  const removed = await service.from('blog_posts').delete().like('slug', `benchmark-article-${label}-%`);
  if (removed.error) throw new Error(`removing the inserted posts: ${removed.error.message}`);
  return ms;
}

const htmlPages = (dir: string) => readdirSync(dir, { recursive: true }).filter((file) => String(file).endsWith('.html')).length;

export async function measureScale(): Promise<AreaReport> {
  return withBenchBackend({ api: apiPort, db: dbPort }, async (work) => {
    const figures: Figure[] = [];
    const rows: string[] = [];
    const inserts = new Map<number, number[]>();
    for (const count of [100, 1000]) {
      const runs: number[] = [];
      for (let run = 0; run < INSERT_RUNS; run++) runs.push(await timedInsert(count, run));
      inserts.set(count, runs);
      figures.push(figure(`Local REST insert of ${count} posts in one request`, 'ms', runs));
    }
    const perRow = (count: number) => median(inserts.get(count)!) / count;
    figures.push(figure('Local REST insert: time per row at 1,000 over time per row at 100', 'x', [perRow(1000) / perRow(100)], 1.5));

    const builds = new Map<number, TimedBuild & { pages: number }>();
    for (const posts of SIZES) {
      await seedPosts(posts, apiUrl);
      const outDir = join(work, `dist-${posts}`);
      const build = { ...(await timedBuild(outDir, apiUrl)), pages: htmlPages(outDir) };
      builds.set(posts, build);
      const large = posts === 10000;
      const size = posts.toLocaleString('en-US');
      figures.push(figure(`Site build with ${size} published posts: time, search index included`, 's', [build.ms / 1000], large ? 60 : undefined));
      figures.push(figure(`Site build with ${size} published posts: Astro time per page`, 'ms', [build.astroMs / build.pages]));
      figures.push(figure(`Site build with ${size} published posts: peak memory (PSS)`, 'MB', [build.peakMb], large ? 2048 : undefined));
      const outputMb = folderBytes(outDir) / 1024 / 1024;
      figures.push(figure(`Site build with ${size} published posts: output size`, 'MB', [outputMb]));
      rows.push(`| ${size} | ${build.pages} | ${(build.astroMs / 1000).toFixed(1)} | ${(build.pagefindMs / 1000).toFixed(1)} | ${(build.ms / 1000).toFixed(1)} | ${(build.astroMs / build.pages).toFixed(2)} | ${Math.round(build.peakMb)} | ${outputMb.toFixed(0)} |`);
      if (large) {
        figures.push(figure('Search index at 10,000 posts (dist/pagefind)', 'KB', [folderBytes(join(outDir, 'pagefind')) / 1024]));
        figures.push(figure('Search: bytes fetched for a first query at 10,000 posts', 'KB', [(await firstQueryBytes(outDir)) / 1024], 300));
      }
      rmSync(outDir, { recursive: true, force: true });
    }
    const perPage = (posts: number) => builds.get(posts)!.astroMs / builds.get(posts)!.pages;
    figures.push(figure('Site build: Astro time per page at 10,000 posts over that at 1,000', 'x', [perPage(10000) / perPage(1000)], 1.3));

    const markdown =
      '## The blog at scale\n\n' +
      'One build per size, on a separate local backend seeded through the REST API (1,000 posts a request). ' +
      '"Astro" is `astro build` (pages, images, sitemap), "Pagefind" the search index after it.\n\n' +
      '| published posts | pages built | Astro s | Pagefind s | total s | Astro ms per page | peak MB | output MB |\n' +
      `|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`;
    return { figures, markdown };
  });
}
