/**
 * Publishing at the writer's pace, on a site served exactly as `npm run serve` serves it (the local scheduler,
 * the build queue of src/lib/server/rebuilds.ts: one build running and one waiting, no quiet window), against
 * the bench's own seeded backend:
 * - publish to live: a lone post, delivered by the webhook or published by an editor (REST as the editor,
 *   then the back office's POST /api/admin/send-due-rebuilds, as the editor's browser does), until its public
 *   URL answers 200. Median of RUNS each; every run starts with no build in flight. Budget 30 s at the seed's size.
 * - a writing tool's run: 10 deliveries 20 s apart, each until its page answers; budget 60 s for the slowest.
 * - a burst of 50 deliveries (5 clients): builds started for it and the time until all 50 are live (budget 120 s).
 * - search engines told (IndexNow, to a local listener as INDEXNOW_ENDPOINT): from a lone post's page answering
 *   200 to the submission naming it arriving; median of the lone runs, budget 10 s.
 * - the duplicate gate's check (private.likely_duplicate, timed in Postgres) with 10,000 posts in the
 *   organization, for a new article and for a repeat: median of 20 each, budget 50 ms.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import { DEMO_PASSWORD } from '../tests/fixtures/demo-logins.ts';
import { figure, type Figure } from './measure.ts';
import { withServedSite, type ServedSite } from './served-site.ts';

const SCALE_PRO = '10000000-0000-4000-8000-000000000001';
const TOKEN = 'dev-zimmwriter-token-scale-pro';
const RUNS = Number(process.env.BENCH_PUBLISH_RUNS ?? 3);
const BURST = 50;
const RUN_LENGTH = 10;
const RUN_SPACING_MS = 20_000;
const LIVE_TIMEOUT_MS = 600_000;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Words for articles that read like English to pg_trgm: common words between made-up topic words. */
const COMMON = 'the of and to in a is that for it as with was on be at by this are or from have an they which one you were all we can there their has more will if about when so what out up some into only time other new also how most than then after like our just because over'.split(' ');
const SYLLABLES = 'ba be bi bo bu ca ce co da de di do fa fe fi ga ge go ha he hi ka ke ko la le li lo lu ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi wa we ya yo za ze'.split(' ');
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
const word = () => (Math.random() < 0.45 ? pick(COMMON) : Array.from({ length: 2 + Math.floor(Math.random() * 3) }, () => pick(SYLLABLES)).join(''));
/** An article of about 300 words as HTML, different from every other. */
export const article = () => `<h2>${word()} ${word()}</h2>` + Array.from({ length: 5 }, () => `<p>${Array.from({ length: 60 }, word).join(' ')}.</p>`).join('');

/** A local IndexNow endpoint: when each address was first submitted (performance.now()). */
async function startIndexNowListener(): Promise<{ url: string; submittedAt: Map<string, number>; close: () => void }> {
  const submittedAt = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const at = performance.now();
      for (const url of (JSON.parse(body) as { urlList: string[] }).urlList) if (!submittedAt.has(new URL(url).pathname)) submittedAt.set(new URL(url).pathname, at);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/indexnow`, submittedAt, close: () => server.close() };
}

/** Waits until the listener has a submission naming `path`; answers when it came. */
async function untilSubmitted(submittedAt: Map<string, number>, path: string, since: number): Promise<number> {
  while (!submittedAt.has(path)) {
    if (performance.now() - since > LIVE_TIMEOUT_MS) throw new Error(`${path} was not submitted to IndexNow`);
    await sleep(100);
  }
  return submittedAt.get(path)!;
}

/** Polls until every path answers 200 on the served site; answers the ms it took. */
async function untilLive(baseUrl: string, paths: string[], since: number): Promise<number> {
  const waiting = new Set(paths);
  while (waiting.size > 0) {
    if (performance.now() - since > LIVE_TIMEOUT_MS) throw new Error(`Not live after ${LIVE_TIMEOUT_MS / 1000} s: ${[...waiting].slice(0, 3).join(', ')}`);
    for (const path of [...waiting]) {
      const status = await fetch(`${baseUrl}${path}`, { redirect: 'manual' }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);
      if (status === 200) waiting.delete(path);
    }
    if (waiting.size > 0) await sleep(250);
  }
  return performance.now() - since;
}

/**
 * Waits until nothing is pending and no build of Scale Pro is in flight (the build queue's own rule,
 * private.build_in_flight, asked in Postgres), so the next change is sent at once.
 */
async function untilIdle(dbUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query(
        "select private.build_in_flight($1) as busy, exists (select 1 from public.site_rebuild_requests where organization_id = $1 and batch_id is null) as pending",
        [SCALE_PRO],
      );
      if (!rows[0].busy && !rows[0].pending) return;
      await sleep(1000);
    }
  } finally {
    await client.end();
  }
}

const deliver = (baseUrl: string, title: string, slug: string) =>
  fetch(`${baseUrl}/api/webhooks/zimmwriter/${TOKEN}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhook_name: 'Benchmark', title, html: article(), slug }),
  }).then(async (response) => {
    if (response.status !== 201) throw new Error(`Delivery of ${slug} answered ${response.status}: ${await response.text()}`);
  });

/** The editor's publish: signed in through the site, the post written under the editor's session, then the nudge. */
async function editorPublish(site: ServedSite, title: string, slug: string): Promise<void> {
  const signIn = await fetch(`${site.baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'editor@scale-pro.test', password: DEMO_PASSWORD }),
  });
  const { session } = (await signIn.json()) as { session: { access_token: string } };
  const editor = createClient(site.apiUrl, LOCAL_SUPABASE.anonKey, {
    auth: { persistSession: false },
    global: { headers: { authorization: `Bearer ${session.access_token}` } },
  });
  const html = article();
  const { error } = await editor.from('blog_posts').insert({
    organization_id: SCALE_PRO, author_id: '20000000-0000-4000-8000-000000000002', title, slug, content: html, content_source: html,
    content_format: 'html', status: 'published', published_at: new Date().toISOString(),
  });
  if (error) throw new Error(`The editor's publish failed: ${error.message}`);
  const nudge = await fetch(`${site.baseUrl}/api/admin/send-due-rebuilds`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
    body: JSON.stringify({ organization_id: SCALE_PRO }),
  });
  if (nudge.status !== 202) throw new Error(`send-due-rebuilds answered ${nudge.status}`);
}

/** Times private.likely_duplicate in Postgres (EXPLAIN ANALYZE's execution time), median of `runs`. */
async function duplicateCheckMs(dbUrl: string, title: string, content: string, runs = 20): Promise<number[]> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const times: number[] = [];
    for (let i = 0; i < runs + 2; i += 1) {
      const { rows } = await client.query('explain (analyze, format json) select * from private.likely_duplicate($1, $2, $3)', [SCALE_PRO, title, content]);
      if (i >= 2) times.push((rows[0]['QUERY PLAN'] as { 'Execution Time': number }[])[0]!['Execution Time']);
    }
    return times;
  } finally {
    await client.end();
  }
}

export async function measurePublishing(): Promise<Figure[]> {
  const indexNow = await startIndexNowListener();
  // The served site's functions read it (withServedSite passes the environment on).
  process.env.INDEXNOW_ENDPOINT = indexNow.url;
  return withServedSite(
    async (site) => {
      const db = createClient(site.apiUrl, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } });
      const run = `bench-${Date.now().toString(36)}`;
      const lone: Record<'delivery' | 'editor', number[]> = { delivery: [], editor: [] };
      const liveToSubmitted: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        for (const kind of ['delivery', 'editor'] as const) {
          await untilIdle(site.dbUrl);
          const slug = `${run}-${kind}-${i}`;
          const started = performance.now();
          if (kind === 'delivery') await deliver(site.baseUrl, `Lone delivery ${run} ${i}`, slug);
          else await editorPublish(site, `Lone editor post ${run} ${i}`, slug);
          lone[kind].push(await untilLive(site.baseUrl, [`/blog/${slug}`], started) / 1000);
          const liveAt = performance.now();
          liveToSubmitted.push(Math.max(0, (await untilSubmitted(indexNow.submittedAt, `/blog/${slug}`, started)) - liveAt) / 1000);
          console.log(`[bench publishing] lone ${kind} ${i + 1}/${RUNS}: live in ${lone[kind].at(-1)!.toFixed(1)} s, submitted ${liveToSubmitted.at(-1)!.toFixed(1)} s later`);
        }
      }

      // A writing tool's run: one article every 20 s; each is timed from its own delivery to its page.
      await untilIdle(site.dbUrl);
      const runStarted = performance.now();
      const runLive = await Promise.all(Array.from({ length: RUN_LENGTH }, async (_, i) => {
        await sleep(Math.max(0, runStarted + i * RUN_SPACING_MS - performance.now()));
        const slug = `${run}-run-${i}`;
        const delivered = performance.now();
        await deliver(site.baseUrl, `Run article ${run} ${i}`, slug);
        const seconds = await untilLive(site.baseUrl, [`/blog/${slug}`], delivered) / 1000;
        console.log(`[bench publishing] run article ${i + 1}/${RUN_LENGTH}: live ${seconds.toFixed(1)} s after its delivery`);
        return seconds;
      }));

      await untilIdle(site.dbUrl);
      const burstStarted = new Date().toISOString();
      const started = performance.now();
      const slugs = Array.from({ length: BURST }, (_, i) => `${run}-burst-${i}`);
      let next = 0;
      await Promise.all(Array.from({ length: 5 }, async () => {
        for (let i = next++; i < BURST; i = next++) await deliver(site.baseUrl, `Burst article ${run} ${i}`, slugs[i]!);
      }));
      const burstLive = await untilLive(site.baseUrl, slugs.map((slug) => `/blog/${slug}`), started) / 1000;
      const { count: builds } = await db.from('site_deploys').select('id', { count: 'exact', head: true }).eq('organization_id', SCALE_PRO).gte('started_at', burstStarted);
      console.log(`[bench publishing] burst of ${BURST}: ${builds} builds, all live in ${burstLive.toFixed(1)} s`);

      // 10,000 posts in the organization (drafts: the builds above are done), each its own article.
      for (let batch = 0; batch < 10; batch += 1) {
        const rows = Array.from({ length: 1000 }, (_, i) => {
          const html = article();
          return { organization_id: SCALE_PRO, slug: `${run}-scale-${batch}-${i}`, title: `Scale article ${batch}-${i} ${word()} ${word()}`, content: html, content_source: html, status: 'draft' };
        });
        const { error } = await db.from('blog_posts').insert(rows);
        if (error) throw new Error(`Seeding 10,000 posts: ${error.message}`);
      }
      const { dbUrl } = site;
      const analyze = new pg.Client({ connectionString: dbUrl });
      await analyze.connect();
      await analyze.query('analyze public.blog_posts').finally(() => analyze.end());
      const { data: sample } = await db.from('blog_posts').select('title, content').eq('organization_id', SCALE_PRO).like('slug', `${run}-scale-5-%`).limit(1).single();
      const fresh = await duplicateCheckMs(dbUrl, `A new article ${word()} ${word()}`, article());
      const repeat = await duplicateCheckMs(dbUrl, `Reworded ${word()} title`, (sample as { content: string }).content);

      return [
        figure('Lone publish to live, webhook delivery (npm run serve, seed size)', 's', lone.delivery, 30),
        figure('Lone publish to live, editor\'s Publish (npm run serve, seed size)', 's', lone.editor, 30),
        figure('Post live to its IndexNow submission', 's', liveToSubmitted, 10),
        figure(`Run of ${RUN_LENGTH} deliveries ${RUN_SPACING_MS / 1000} s apart: delivery to live, each`, 's', runLive),
        figure(`Run of ${RUN_LENGTH} deliveries ${RUN_SPACING_MS / 1000} s apart: delivery to live, the slowest`, 's', [Math.max(...runLive)], 60),
        figure(`Burst of ${BURST} deliveries: builds started`, 'builds', [builds ?? 0]),
        figure(`Burst of ${BURST} deliveries: time until all are live`, 's', [burstLive], 120),
        figure('Duplicate check at 10,000 posts: a new article', 'ms', fresh, 50),
        figure('Duplicate check at 10,000 posts: a repeated body', 'ms', repeat, 50),
      ];
    },
    { asNpmRunServe: true },
  ).finally(() => {
    indexNow.close();
    delete process.env.INDEXNOW_ENDPOINT;
  });
}
