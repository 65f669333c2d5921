/**
 * Deliveries through a backend restart: 1,000 deliveries (each a different article) from 50 concurrent
 * clients to the webhook handler (warm, behind a bare Node HTTP server in this process, as in webhook.ts),
 * against the bench's own backend instance (ports BENCH_API_PORT + 50 / BENCH_DB_PORT + 50, default 27571 /
 * 27572). Once a third of the deliveries are answered, the backend is stopped and started again. Each client
 * retries a delivery that was not stored as the writing tool would: after an answer of 5xx or a dropped
 * connection, once the answer's Retry-After has passed (capped at 5 s here, so the run stays short; the
 * function asks for 30 s), up to 10 tries.
 *
 * Figures: posts lost and duplicated (budget 0 each), the time from the first delivery until every article
 * is stored, and the slowest answer while the backend was down (budget 2 s).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import { figure, type Figure } from './measure.ts';
import { article } from './publishing.ts';
import { serveHandlerInProcess } from './webhook.ts';

const CLI = resolve(import.meta.dirname, '../supabase/local/cli.ts');
const apiPort = Number(process.env.BENCH_API_PORT ?? 27521) + 50;
const dbPort = Number(process.env.BENCH_DB_PORT ?? 27522) + 50;
const apiUrl = `http://127.0.0.1:${apiPort}`;
const SCALE_PRO = '10000000-0000-4000-8000-000000000001';
const TOKEN = 'dev-zimmwriter-token-scale-pro';
const CLIENTS = 50;
const DELIVERIES = 1_000;
const MAX_TRIES = 10;
const RETRY_CAP_MS = 5_000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Runs a backend CLI command without blocking the clients (spawnSync would stop every client with it). */
function cli(dataDir: string, ...args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args, '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`local backend ${args[0]} failed: ${output}`))));
  });
}

/** Delivery `n` of the run: a different article each (the duplicate gate would hold back repeats). */
const delivery = (run: string, n: number) =>
  JSON.stringify({ webhook_name: 'Bench restart', title: `Restart article ${run} ${n}`, slug: `${run}-${n}`, html: article(), category: 'Local SEO', tags: 'bench' });

export async function measureFaults(): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-faults-'));
  await cli(dataDir, 'start', '--api-port', String(apiPort), '--db-port', String(dbPort));
  const functionEnv = {
    SUPABASE_URL: apiUrl, PUBLIC_SUPABASE_URL: apiUrl, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey,
    SITE_ORG: 'scale-pro', REBUILD_QUIET_WINDOW_MS: '3600000', REBUILD_AT_ONCE: 'off',
  };
  const handler = await serveHandlerInProcess(functionEnv);
  try {
    const run = `bench-restart-${Date.now().toString(36)}`;
    // The same body on every try of a delivery, as the writing tool resends it.
    const bodies = Array.from({ length: DELIVERIES }, (_, n) => delivery(run, n));
    let down: { from: number; until: number } | undefined;
    const answersWhileDown: number[] = [];
    let answered = 0;
    let unavailable = 0;
    let restart: Promise<void> | undefined;
    const restartOnce = () => {
      restart ??= (async () => {
        const from = performance.now();
        down = { from, until: Infinity };
        await cli(dataDir, 'stop');
        await cli(dataDir, 'start');
        down.until = performance.now();
      })();
    };

    /** One delivery, tried until it is stored (2xx) or the tries run out; answers whether it was stored. */
    const deliver = async (n: number): Promise<boolean> => {
      for (let tryNumber = 1; tryNumber <= MAX_TRIES; tryNumber++) {
        const sent = performance.now();
        // 0 stands for a dropped connection.
        let status = 0;
        let retryAfter = 1;
        try {
          const response = await fetch(`${handler.baseUrl}/api/webhooks/zimmwriter/${TOKEN}`, {
            method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[n],
          });
          await response.arrayBuffer();
          status = response.status;
          retryAfter = Number(response.headers.get('retry-after') ?? 1);
        } catch {
          // A dropped connection: tried again like a 5xx.
        }
        const took = performance.now() - sent;
        if (down && sent >= down.from && sent < down.until) answersWhileDown.push(took);
        if (status >= 200 && status < 300) return true;
        if (status === 503) unavailable += 1;
        if (status !== 0 && status < 500) return false;
        await sleep(Math.min(retryAfter * 1000, RETRY_CAP_MS));
      }
      return false;
    };

    const started = performance.now();
    let next = 0;
    let storedAt = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let n = next++; n < DELIVERIES; n = next++) {
          await deliver(n);
          answered += 1;
          if (answered === Math.round(DELIVERIES / 3)) restartOnce();
          storedAt = performance.now();
        }
      }),
    );
    await restart;

    const db = createClient(apiUrl, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } });
    const { data, error } = await db.from('blog_posts').select('slug').eq('organization_id', SCALE_PRO).like('slug', `${run}-%`);
    if (error) throw new Error(`Counting the benchmark posts: ${error.message}`);
    const perSlug = new Map<string, number>();
    for (const { slug } of data as { slug: string }[]) perSlug.set(slug, (perSlug.get(slug) ?? 0) + 1);
    const lost = Array.from({ length: DELIVERIES }, (_, n) => `${run}-${n}`).filter((slug) => !perSlug.has(slug)).length;
    const duplicates = [...perSlug.values()].reduce((sum, rows) => sum + rows - 1, 0);
    const label = `${DELIVERIES} deliveries, ${CLIENTS} clients, backend restarted once`;
    return [
      figure(`Webhook through a backend restart (${label}): posts lost`, 'posts', [lost], 0),
      figure(`Webhook through a backend restart (${label}): duplicate posts`, 'posts', [duplicates], 0),
      figure(`Webhook through a backend restart (${label}): time until every article is stored`, 's', [(storedAt - started) / 1000]),
      figure(`Webhook through a backend restart: backend down (stop to answering again)`, 's', [down ? (down.until - down.from) / 1000 : 0]),
      figure(`Webhook through a backend restart: 503 answers while down`, 'answers', [unavailable]),
      figure(`Webhook through a backend restart: slowest answer while down`, 'ms', [answersWhileDown.length ? Math.max(...answersWhileDown) : 0], 2000),
    ];
  } finally {
    handler.close();
    await cli(dataDir, 'stop').catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}
