/**
 * Load check of the writing-tool webhook: 200 deliveries from 20 concurrent clients over real HTTP, each of
 * 100 articles delivered twice (a retry from another client), then counts lost posts and duplicates.
 *
 *   node bench/webhook-deliveries.ts            # serves the function itself on a free port
 *   WEBHOOK_BASE_URL=http://localhost:8888 node ...   # or measures a running `netlify serve`
 *
 * Backend from SUPABASE_URL (default the local one). Removes its posts, deliveries and rebuild requests.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE } from '../src/lib/supabase-config.ts';

process.env.SUPABASE_URL ||= LOCAL_SUPABASE.url;
process.env.SUPABASE_SERVICE_ROLE_KEY ||= LOCAL_SUPABASE.serviceRoleKey;
// Nothing may reach a build while the benchmark runs: its rebuild requests stay pending until removed.
process.env.REBUILD_QUIET_WINDOW_MS = '600000';
const { default: webhook } = await import('../netlify/functions/zimmwriter-webhook.mts');

const CLIENTS = 20;
const DELIVERIES = 200;
const TOKEN = process.env.WEBHOOK_TOKEN ?? 'dev-zimmwriter-token-scale-pro';
const ORGANIZATION_ID = process.env.WEBHOOK_ORGANIZATION_ID ?? '10000000-0000-4000-8000-000000000001';
const run = `bench-${Date.now().toString(36)}`;
const started = new Date().toISOString();

/** Serves the handler over HTTP, as Netlify would hand it requests. */
async function serveHandler(): Promise<{ baseUrl: string; close: () => void }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const response = await webhook(new Request(`http://localhost${req.url}`, { method: req.method, headers: req.headers as HeadersInit, body: Buffer.concat(chunks) }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

const target = process.env.WEBHOOK_BASE_URL ? { baseUrl: process.env.WEBHOOK_BASE_URL, close: () => undefined } : await serveHandler();
const slugOf = (i: number) => `${run}-${i % (DELIVERIES / 2)}`;
const body = (i: number) => JSON.stringify({
  webhook_name: 'blog_post_created', title: `Benchmark article ${i % (DELIVERIES / 2)}`, slug: slugOf(i),
  html: `<h2>Section</h2><p>${'Realistic article text. '.repeat(300)}</p><script>alert(1)</script>`,
  markdown: false, excerpt: 'A benchmark article.', category: 'Local SEO', tags: 'bench, load', image_url: false, image_base64: false,
});

const timings: number[] = [];
const statuses = new Map<number, number>();
let next = 0;
async function client(): Promise<void> {
  // Interleaved so both deliveries of an article are usually in flight at the same time.
  for (let i = next++; i < DELIVERIES; i = next++) {
    const order = i % 2 === 0 ? i / 2 : (i - 1) / 2 + DELIVERIES / 2;
    const t0 = performance.now();
    const response = await fetch(`${target.baseUrl}/api/webhooks/zimmwriter/${TOKEN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: body(order) });
    await response.arrayBuffer();
    timings.push(performance.now() - t0);
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  }
}
const wall0 = performance.now();
await Promise.all(Array.from({ length: CLIENTS }, client));
const wall = performance.now() - wall0;
target.close();

const db = createClient(process.env.SUPABASE_URL, process.env.SUPABASE_SERVICE_ROLE_KEY, { auth: { persistSession: false } });
const { data: rows, error } = await db.from('blog_posts').select('slug').eq('organization_id', ORGANIZATION_ID).like('slug', `${run}-%`);
if (error) throw new Error(`Counting posts: ${error.message}`);
const perSlug = new Map<string, number>();
for (const row of rows ?? []) perSlug.set(row.slug, (perSlug.get(row.slug) ?? 0) + 1);
const expected = new Set(Array.from({ length: DELIVERIES }, (_, i) => slugOf(i)));

timings.sort((a, b) => a - b);
const quantile = (q: number) => timings[Math.min(timings.length - 1, Math.ceil(q * timings.length) - 1)]?.toFixed(1);
console.log(JSON.stringify({
  target: target.baseUrl, deliveries: timings.length, clients: CLIENTS, wall_ms: Math.round(wall),
  median_ms: quantile(0.5), p95_ms: quantile(0.95), max_ms: timings.at(-1)?.toFixed(1),
  statuses: Object.fromEntries(statuses), articles: expected.size,
  posts_lost: [...expected].filter((slug) => !perSlug.has(slug)).length,
  duplicates: [...perSlug.values()].reduce((sum, count) => sum + count - 1, 0),
}, null, 2));

await db.from('webhook_deliveries').delete().eq('organization_id', ORGANIZATION_ID).like('slug', `${run}-%`);
await db.from('blog_posts').delete().eq('organization_id', ORGANIZATION_ID).like('slug', `${run}-%`);
await db.from('site_rebuild_requests').delete().eq('organization_id', ORGANIZATION_ID).gte('requested_at', started);
