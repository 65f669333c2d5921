/**
 * The local backend's targets: cold start to first answered request, memory of the server plus
 * Postgres, and a select with two embeds and limit 50, on a separate instance with the project's
 * migrations and seed (ports BENCH_API_PORT / BENCH_DB_PORT, default 27521 / 27522).
 */
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import { figure, treeMemoryMb, type Figure } from './measure.ts';

const CLI = resolve(import.meta.dirname, '../supabase/local/cli.ts');
const apiPort = Number(process.env.BENCH_API_PORT ?? 27521);
const dbPort = Number(process.env.BENCH_DB_PORT ?? 27522);
const apiUrl = `http://127.0.0.1:${apiPort}`;
const SCALE_PRO = '10000000-0000-4000-8000-000000000001';

const cli = (dataDir: string, ...args: string[]) => {
  const run = spawnSync(process.execPath, [CLI, ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`local backend ${args[0]} failed: ${run.stderr}${run.stdout}`);
};

/** The first REST answer; a fresh connection each time, since fetch would reuse a socket to the previous run's server. */
async function firstAnswer(): Promise<void> {
  await new Promise<void>((done, fail) => {
    const req = request(`${apiUrl}/rest/v1/organizations?select=slug&limit=1`, { headers: { apikey: LOCAL_SUPABASE.anonKey }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`first request answered ${res.statusCode}`))));
    });
    req.on('error', fail);
    req.end();
  });
}

export async function measureLocalBackend(runs = 3): Promise<Figure[]> {
  const starts: number[] = [];
  const memory: number[] = [];
  const selects: number[] = [];
  for (let run = 0; run < runs; run++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-backend-'));
    try {
      const started = performance.now();
      cli(dataDir, 'start', '--api-port', String(apiPort), '--db-port', String(dbPort));
      await firstAnswer();
      starts.push(performance.now() - started);
      if (run === 0) selects.push(...(await selectTimings()));
      memory.push(treeMemoryMb(Number(readFileSync(join(dataDir, 'local-backend.pid'), 'utf8'))));
    } finally {
      try {
        cli(dataDir, 'stop');
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
  return [
    figure('Local backend: cold start to first answered request', 'ms', starts, 3000),
    figure('Local backend: memory, server + Postgres (PSS)', 'MB', memory, 300),
    figure('Local backend: select with two embeds, limit 50', 'ms', selects, 10),
  ];
}

/** 200 timed runs (after 20 warm-up runs) of an anon select of published posts with author and category. */
async function selectTimings(): Promise<number[]> {
  const service = createClient(apiUrl, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } });
  const { data: author } = await service.from('profiles').select('id').eq('email', 'admin@scale-pro.test').single();
  const { data: category } = await service.from('blog_categories').select('id').eq('organization_id', SCALE_PRO).limit(1).single();
  const rows = Array.from({ length: 60 }, (_, i) => ({
    organization_id: SCALE_PRO,
    title: `Benchmark post ${i}`,
    slug: `benchmark-post-${i}`,
    content: '<p>Benchmark.</p>',
    status: 'published',
    published_at: new Date(Date.now() - 86_400_000).toISOString(),
    author_id: author!.id,
    category_id: category!.id,
  }));
  const { error } = await service.from('blog_posts').insert(rows);
  if (error) throw new Error(`seeding benchmark posts: ${error.message}`);

  const anon = createClient(apiUrl, LOCAL_SUPABASE.anonKey, { auth: { persistSession: false } });
  const query = () =>
    anon.from('blog_posts')
      .select('id, title, slug, published_at, author:profiles(full_name, avatar_url), category:blog_categories(name, slug)')
      .eq('organization_id', SCALE_PRO)
      .order('published_at', { ascending: false })
      .limit(50);
  for (let i = 0; i < 20; i++) await query();
  const timings: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    const { data, error: failed } = await query();
    timings.push(performance.now() - start);
    if (failed || data?.length !== 50) throw new Error(`benchmark select failed: ${failed?.message ?? `${data?.length} rows`}`);
  }
  return timings;
}
