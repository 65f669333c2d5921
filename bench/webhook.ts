/**
 * The writing-tool webhook's targets: 200 deliveries from 20 concurrent clients over real HTTP,
 * each of 100 articles delivered twice (the second time by another client, usually while the first is in
 * flight), with none lost, none duplicated, and a median handling time (request sent to answer read) under
 * 100 ms.
 *
 * Measured twice. The handling time with its budget is the function's own: its handler, warm, behind a bare
 * Node HTTP server in this process, as a reused function instance answers in production. The same load also
 * goes through `netlify serve`, end to end, with the same lost/duplicate budgets; its time is reported
 * without a budget because netlify-cli starts a new worker and imports the function afresh for every call
 * (about 160 ms of CPU for this function), which on a 2-core machine with 20 clients is mostly queueing
 * behind other calls' imports. The health function (no imports of ours, no database) under the same load
 * shows that share.
 *
 * Everything runs on the bench's own served site and backend (served-site.ts), stopped at the end.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import { figure, percentile, type Figure } from './measure.ts';
import { withServedSite, type ServedSite } from './served-site.ts';

const SCALE_PRO = '10000000-0000-4000-8000-000000000001';
const TOKEN = 'dev-zimmwriter-token-scale-pro';
const CLIENTS = 20;
const DELIVERIES = 200;
const ARTICLES = DELIVERIES / 2;

/** A realistic article (about 7 KB of HTML with a script to strip); both deliveries of article `n` are equal. */
const article = (run: string, n: number) =>
  JSON.stringify({
    webhook_name: 'blog_post_created', title: `Benchmark article ${n}`, slug: `${run}-${n}`,
    html: `<h2>Section</h2><p>${'Realistic article text. '.repeat(300)}</p><script>alert(1)</script>`,
    markdown: false, excerpt: 'A benchmark article.', category: 'Local SEO', tags: 'bench, load', image_url: false, image_base64: false,
  });

/**
 * Sends `count` requests from CLIENTS concurrent clients and times each (request sent to body read).
 * Request i carries item `order(i)`: interleaved so that both deliveries of an article are in flight together.
 */
async function load(count: number, send: (item: number) => Promise<Response>): Promise<{ timings: number[]; statuses: Map<number, number> }> {
  const timings: number[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  const client = async () => {
    for (let i = next++; i < count; i = next++) {
      const item = i % 2 === 0 ? i / 2 : (i - 1) / 2 + count / 2;
      const started = performance.now();
      const response = await send(item % ARTICLES);
      await response.arrayBuffer();
      timings.push(performance.now() - started);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return { timings, statuses };
}

const deliver = (baseUrl: string, run: string) => (n: number) =>
  fetch(`${baseUrl}/api/webhooks/zimmwriter/${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: article(run, n) });

/** Posts missing and extra rows among the run's articles, and answers other than 200/201. */
async function integrity(apiUrl: string, run: string, statuses: Map<number, number>): Promise<{ lost: number; duplicates: number; failed: number }> {
  const db = createClient(apiUrl, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } });
  const { data, error } = await db.from('blog_posts').select('slug').eq('organization_id', SCALE_PRO).like('slug', `${run}-%`);
  if (error) throw new Error(`Counting the benchmark posts: ${error.message}`);
  const perSlug = new Map<string, number>();
  for (const { slug } of data as { slug: string }[]) perSlug.set(slug, (perSlug.get(slug) ?? 0) + 1);
  const lost = Array.from({ length: ARTICLES }, (_, n) => `${run}-${n}`).filter((slug) => !perSlug.has(slug)).length;
  const duplicates = [...perSlug.values()].reduce((sum, rows) => sum + rows - 1, 0);
  const failed = [...statuses].filter(([status]) => status !== 200 && status !== 201).reduce((sum, [, n]) => sum + n, 0);
  return { lost, duplicates, failed };
}

/** How many handlers serveHandlerInProcess has started in this process. */
let handlerInstances = 0;

/**
 * The webhook handler behind a bare Node HTTP server in this process: the function's own time, warm. Each call
 * loads a function instance of its own, as a new deploy would: a warm instance keeps its service client, made
 * with the backend of its first call, so a second area's handler (`faults` after `webhook` in `npm run bench`)
 * would otherwise still call the first area's backend, stopped by then, and every delivery would fail.
 */
export async function serveHandlerInProcess(functionEnv: Record<string, string>): Promise<{ baseUrl: string; close: () => void }> {
  const saved = Object.fromEntries(Object.keys(functionEnv).map((name) => [name, process.env[name]]));
  Object.assign(process.env, functionEnv);
  const { default: webhook }: typeof import('../netlify/functions/zimmwriter-webhook.mts') = await import(`../netlify/functions/zimmwriter-webhook.mts?instance=${++handlerInstances}`);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const response = await webhook(new Request(`http://localhost${req.url}`, { method: req.method, headers: req.headers as HeadersInit, body: Buffer.concat(chunks) }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const close = () => {
    server.close();
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

/** The webhook figures, on the bench's served site. */
export function measureWebhook(): Promise<Figure[]> {
  return withServedSite(async ({ baseUrl, apiUrl, functionEnv }: ServedSite) => {
    // One delivery first, so the figures do not include the first connection to the backend.
    await load(1, deliver(baseUrl, 'bench-warm-up'));
    const served = await load(DELIVERIES, deliver(baseUrl, 'bench-serve'));
    const health = await load(DELIVERIES, () => fetch(`${baseUrl}/api/health`));
    const inProcess = await serveHandlerInProcess(functionEnv);
    let direct: Awaited<ReturnType<typeof load>>;
    try {
      await load(1, deliver(inProcess.baseUrl, 'bench-warm-up'));
      direct = await load(DELIVERIES, deliver(inProcess.baseUrl, 'bench-direct'));
    } finally {
      inProcess.close();
    }
    const servedIntegrity = await integrity(apiUrl, 'bench-serve', served.statuses);
    const directIntegrity = await integrity(apiUrl, 'bench-direct', direct.statuses);
    const label = `${DELIVERIES} deliveries, ${CLIENTS} clients`;
    return [
      figure(`Webhook handler, warm, over HTTP (${label}): handling time`, 'ms', direct.timings, 100),
      figure(`Webhook handler, warm, over HTTP (${label}): handling time p95`, 'ms', [percentile(direct.timings, 95)]),
      figure(`Webhook handler, warm, over HTTP (${label}): posts lost + duplicates + failed answers`, 'posts', [
        directIntegrity.lost + directIntegrity.duplicates + directIntegrity.failed,
      ], 0),
      figure(`Webhook through netlify serve (${label}): time end to end`, 'ms', served.timings),
      figure(`Webhook through netlify serve (${label}): time end to end p95`, 'ms', [percentile(served.timings, 95)]),
      figure(`Webhook through netlify serve (${label}): posts lost`, 'posts', [servedIntegrity.lost], 0),
      figure(`Webhook through netlify serve (${label}): duplicate posts`, 'posts', [servedIntegrity.duplicates], 0),
      figure(`Webhook through netlify serve (${label}): answers other than 200/201`, 'answers', [servedIntegrity.failed], 0),
      figure(`netlify serve overhead: health function, same load: time`, 'ms', health.timings),
      figure(`netlify serve overhead: health function, same load: time p95`, 'ms', [percentile(health.timings, 95)]),
    ];
  });
}
