/**
 * Nothing lost, nothing sent twice, through faults, on the bench's own backend instance (ports BENCH_API_PORT + 50
 * / BENCH_DB_PORT + 50, default 27571 / 27572). Three cases, run together so that the area waits one lease:
 *
 * 1. Deliveries through a backend restart: 1,000 deliveries (each a different article) from 50 concurrent clients
 *    to the webhook handler (warm, behind a bare Node HTTP server in this process, as in webhook.ts). Once a third
 *    of the deliveries are answered, the backend is stopped and started again. Each client retries a delivery that
 *    was not stored as the writing tool would: after an answer of 5xx or a dropped connection, once the answer's
 *    Retry-After has passed (capped at 5 s here, so the run stays short; the function asks for 30 s), up to 10
 *    tries. Figures: posts lost and duplicated (budget 0 each), the time from the first delivery until every
 *    article is stored, and the slowest answer while the backend was down (budget 2 s).
 * 2. The build queue through a crash between claim and send: sites with changes waiting for a build; for each, a
 *    function instance in a process of its own (bench/faults-child.ts) flushes the site's due rebuilds
 *    (flushDueRebuilds, as the back office's nudge does) and is killed with SIGKILL once the claim is made, before
 *    its call to the build hook leaves it. While the claims' lease runs, each site gets one more change and the
 *    nudge that follows it, and the scheduled function runs; after the restart case, the scheduled function
 *    (netlify/functions/publish-scheduled.mts, each run a process of its own) runs every 10 s until everything has
 *    reached the build hook (a local HTTP server that counts each change in the calls' `trigger_title`), and once
 *    more. Figures: changes never sent to the hook, changes sent to it twice (budget 0 each), and the time from the
 *    crash until the last change reached the hook (the lease is two minutes: migration
 *    20261129001300_build_queue_leases.sql).
 * 3. IndexNow through a crash between claim and send: sites whose deploy went live with new posts; for each, a
 *    function instance submits what the deploy made live (submitLiveChanges, as the deploy notification does) and
 *    is killed once the submission is claimed, before its call to the engine leaves it. While the lease runs the
 *    same deploy is notified again (Netlify re-sends a notification it got no answer to), and the scheduled
 *    function's retries (retryDueSubmissions) send the submission once the lease is over, to INDEXNOW_ENDPOINT (a
 *    local HTTP server that counts each address per site key). Figures: post addresses never submitted,
 *    addresses submitted twice (budget 0 each), and the time from the crash until the last address was submitted
 *    (migration 20261129001400_indexnow_leases.sql).
 * Rows are only ever made and changed through the product's functions and the tables' public API, never aged:
 * the lease is waited for in real time, once for all the crashes.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { postPath } from '../src/lib/blog-urls.ts';
import { submitLiveChanges } from '../src/lib/server/indexnow.ts';
import { flushDueRebuilds } from '../src/lib/server/rebuilds.ts';
import { serviceClient } from '../src/lib/server/service-client.ts';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import { figure, type AreaReport, type Figure } from './measure.ts';
import { article } from './publishing.ts';
import { serveHandlerInProcess } from './webhook.ts';

const CLI = resolve(import.meta.dirname, '../supabase/local/cli.ts');
const CHILD = resolve(import.meta.dirname, 'faults-child.ts');
const apiPort = Number(process.env.BENCH_API_PORT ?? 27521) + 50;
const dbPort = Number(process.env.BENCH_DB_PORT ?? 27522) + 50;
const apiUrl = `http://127.0.0.1:${apiPort}`;
const SCALE_PRO = '10000000-0000-4000-8000-000000000001';
const TOKEN = 'dev-zimmwriter-token-scale-pro';
const CLIENTS = 50;
const DELIVERIES = 1_000;
const MAX_TRIES = 10;
const RETRY_CAP_MS = 5_000;
/** Sites of each crash case, and the changes each has waiting when its function instance crashes. */
const CRASHED_SITES = 4;
const CHANGES = 3;
/** The claims' lease, the same for both queues (private.send_lease(), private.indexnow_lease()). */
const LEASE_MS = 120_000;
/** How often the scheduled function runs once the restart case is over, and for how long past the lease at most. */
const SCHEDULER_EVERY_MS = 10_000;
const SCHEDULER_PAST_LEASE_MS = 90_000;
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

export async function measureFaults(): Promise<AreaReport> {
  // A build hook call's `trigger_title` lists its changes' reasons: "2 change(s): Post published: a, Post published: b".
  const hook = await receiver((url) => {
    const title = url.searchParams.get('trigger_title') ?? '';
    return title.slice(title.indexOf(': ') + 2).split(', ');
  });
  // A submission names its site by the site's key.
  const engine = await receiver((_url, body) => {
    const { key, urlList } = JSON.parse(body) as { key: string; urlList: string[] };
    return urlList.map((address) => `${key} ${address}`);
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-faults-'));
  try {
    await cli(dataDir, 'start', '--api-port', String(apiPort), '--db-port', String(dbPort));
    const functionEnv = {
      SUPABASE_URL: apiUrl, PUBLIC_SUPABASE_URL: apiUrl, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey,
      REBUILD_AT_ONCE: 'on', REBUILD_QUIET_WINDOW_MS: '0', INDEXNOW_ENDPOINT: `${engine.url}/indexnow`,
    };
    const crashes = await crashBetweenClaimAndSend(functionEnv, `${hook.url}/build_hooks`);
    const restart = await deliveriesThroughRestart(dataDir);
    const crashed = await afterTheLease(crashes, hook, engine);
    return {
      figures: [...restart, ...crashed],
      markdown: [
        '## Faults',
        '',
        `- **Deliveries through a backend restart**: ${DELIVERIES.toLocaleString('en-US')} deliveries from ${CLIENTS} concurrent clients to the webhook handler, the backend stopped and started again once a third are answered; the clients retry as the writing tool does. No post may be lost or stored twice.`,
        `- **Build queue, crash between claim and send**: ${CRASHED_SITES} sites with ${CHANGES} changes waiting each; a function instance per site claims them (flushDueRebuilds) and is killed (SIGKILL) before its hook call leaves it; one more change per site arrives while the claim's two-minute lease runs; then the scheduled function runs every 10 s. The crashed instances never reached the hook, so every change must reach it exactly once.`,
        `- **IndexNow, crash between claim and send**: ${CRASHED_SITES} sites whose deploy went live with ${CHANGES} new posts each; a function instance per site claims the submission (submitLiveChanges) and is killed before its call to the engine leaves it; the deploy is notified again during the lease; then the scheduled function's retries run every 10 s. The crashed instances never reached the engine, so every post's address must be submitted, and no address twice.`,
      ].join('\n'),
    };
  } finally {
    hook.close();
    engine.close();
    await cli(dataDir, 'stop').catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A local HTTP server standing in for the build hook or the search engine: answers every call 200 and records when
 * it came and what it carried (`items`, read from its address and body).
 */
async function receiver(items: (url: URL, body: string) => string[]) {
  const calls: { at: number; items: string[] }[] = [];
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    calls.push({ at: Date.now(), items: items(new URL(req.url ?? '/', 'http://receiver'), body) });
    res.end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { calls, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
type Receiver = Awaited<ReturnType<typeof receiver>>;

/** The functions' env in a child process: this one's, with only the bench backend's settings for the functions. */
function childEnv(functionEnv: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...functionEnv };
  // A local site (http://localhost:8888) whatever this shell points at; no site of its own.
  for (const name of ['SITE_ORG', 'SITE_URL', 'URL']) delete env[name];
  return env;
}

/** Runs bench/faults-child.ts; `crash`: kills it with SIGKILL at its first outgoing call and answers when. */
function child(env: NodeJS.ProcessEnv, args: string[], { crash = false } = {}): Promise<number> {
  return new Promise((done, fail) => {
    const instance = spawn(process.execPath, [CHILD, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let output = '';
    let killedAt = 0;
    instance.stdout.on('data', (chunk) => {
      stdout += chunk;
      output += chunk;
      if (crash && !killedAt && stdout.includes('outgoing ')) {
        killedAt = Date.now();
        instance.kill('SIGKILL');
      }
    });
    instance.stderr.on('data', (chunk) => (output += chunk));
    instance.on('exit', (code, signal) => {
      if (crash ? signal === 'SIGKILL' && killedAt > 0 : code === 0) done(killedAt);
      else fail(new Error(`bench/faults-child.ts ${args.join(' ')} ${crash ? 'ended before its outgoing call' : `failed (${code ?? signal})`}: ${output}`));
    });
  });
}

function must<T extends { error: { message: string } | null }>(result: T, what: string): T {
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  return result;
}

/** What the crash cases left for after the lease: what must reach the hook and the engine, and when they crashed. */
interface Crashes {
  env: NodeJS.ProcessEnv;
  /** The changes' reasons (one per post published), each expected once at the build hook. */
  changes: string[];
  /** The post addresses, each expected once at the engine (as `<site key> <address>`, matched by path). */
  addresses: { key: string; path: string }[];
  crashedAt: number;
}

/**
 * Cases 2 and 3 up to the crash and through the lease's first moments: the sites and their changes, one function
 * instance per site killed between its claim and its call, then a change and a nudge per build site, a repeated
 * deploy notification per IndexNow site, and one run of the scheduled function, all while the lease holds.
 */
async function crashBetweenClaimAndSend(functionEnv: Record<string, string>, hookUrl: string): Promise<Crashes> {
  const env = childEnv(functionEnv);
  const service = serviceClient(functionEnv);
  const run = `crash-${Date.now().toString(36)}`;
  const buildSites: string[] = [];
  const indexNowSites: { id: string; deployId: string }[] = [];
  const changes: string[] = [];
  for (let n = 0; n < CRASHED_SITES; n += 1) {
    const id = await site(service, `${run}-b${n}`);
    must(await service.from('site_rebuild_settings').insert({ organization_id: id, build_hook_url: `${hookUrl}/${id}` }), 'build hook');
    for (let c = 0; c < CHANGES; c += 1) changes.push(await publish(service, id, `${run}-b${n}-${c}`));
    buildSites.push(id);
  }
  const posts: { id: string; slug: string }[] = [];
  for (let n = 0; n < CRASHED_SITES; n += 1) {
    const id = await site(service, `${run}-i${n}`);
    for (let c = 0; c < CHANGES; c += 1) {
      const slug = `${run}-i${n}-${c}`;
      await publish(service, id, slug);
      posts.push({ id, slug });
    }
    // Its build started after the posts, so they are live in it; it reports success.
    const { data: deployId } = must(
      await service.rpc('record_site_deploy', { p_organization_id: id, p_source: 'local', p_external_id: `${run}-i${n}`, p_state: 'succeeded' }),
      'deploy',
    );
    indexNowSites.push({ id, deployId: deployId as string });
  }
  // The engine's calls name the site by its key.
  const { data: keys } = must(await service.from('indexnow_sites').select('organization_id, key').in('organization_id', indexNowSites.map((s) => s.id)), 'keys');
  const keyOf = new Map((keys as { organization_id: string; key: string }[]).map((row) => [row.organization_id, row.key]));
  const addresses = posts.map(({ id, slug }) => ({ key: keyOf.get(id)!, path: postPath(slug) }));

  const crashedAt = Math.max(
    ...(await Promise.all([
      ...buildSites.map((id) => child(env, ['rebuilds', id], { crash: true })),
      ...indexNowSites.map(({ id, deployId }) => child(env, ['indexnow', id, deployId], { crash: true })),
    ])),
  );
  // While the lease holds: a site's next change, and its editor's nudge; the deploy notified again; the scheduler.
  for (const [n, id] of buildSites.entries()) {
    changes.push(await publish(service, id, `${run}-b${n}-${CHANGES}`));
    await flushDueRebuilds(service, { organizationId: id, env: functionEnv });
  }
  for (const { id, deployId } of indexNowSites) await submitLiveChanges(service, id, deployId, functionEnv);
  await child(env, ['scheduler']);
  return { env, changes, addresses, crashedAt };
}

/** A new site with room for every build; answers its organization id. */
async function site(service: SupabaseClient, slug: string): Promise<string> {
  const id = crypto.randomUUID();
  must(await service.from('organizations').insert({ id, name: `Bench ${slug}`, slug }), 'organization');
  must(await service.rpc('place_site_in_team', { p_organization_id: id, p_team_name: slug, p_monthly_credits: 10_000_000 }), 'team');
  return id;
}

/** Publishes a post (a change visitors see: the database records its rebuild request); answers the request's reason. */
async function publish(service: SupabaseClient, organizationId: string, slug: string): Promise<string> {
  must(
    await service.from('blog_posts').insert({
      organization_id: organizationId, title: `Crash ${slug}`, slug, content: '<p>Bench.</p>', status: 'published', published_at: new Date().toISOString(),
    }),
    'post',
  );
  return `Post published: ${slug}`;
}

/**
 * Cases 2 and 3 after the restart case: the scheduled function every SCHEDULER_EVERY_MS until every change reached
 * the hook and every address the engine, and once more (a second send would come then), or until well past the
 * lease; then the figures.
 */
async function afterTheLease(crashes: Crashes, hook: Receiver, engine: Receiver): Promise<Figure[]> {
  const seen = (calls: Receiver['calls']) => {
    const counts = new Map<string, number>();
    for (const item of calls.flatMap((call) => call.items)) counts.set(item, (counts.get(item) ?? 0) + 1);
    return counts;
  };
  const addressSeen = (counts: Map<string, number>, { key, path }: Crashes['addresses'][number]) =>
    [...counts.keys()].some((item) => item.startsWith(`${key} `) && item.endsWith(path));
  const complete = () => {
    const changes = seen(hook.calls);
    const addresses = seen(engine.calls);
    return crashes.changes.every((reason) => changes.has(reason)) && crashes.addresses.every((address) => addressSeen(addresses, address));
  };
  for (let runsSinceComplete = 0; runsSinceComplete < 2 && Date.now() < crashes.crashedAt + LEASE_MS + SCHEDULER_PAST_LEASE_MS; ) {
    await child(crashes.env, ['scheduler']);
    if (complete()) runsSinceComplete += 1;
    await sleep(SCHEDULER_EVERY_MS);
  }

  const changes = seen(hook.calls);
  const addresses = seen(engine.calls);
  const lastAt = (calls: Receiver['calls']) => (calls.length ? (Math.max(...calls.map((call) => call.at)) - crashes.crashedAt) / 1000 : 0);
  const buildLabel = `${CRASHED_SITES} sites, ${CHANGES + 1} changes each`;
  const indexNowLabel = `${CRASHED_SITES} sites, ${CHANGES} posts each`;
  return [
    figure(`Build queue through a crash between claim and send (${buildLabel}): changes never sent to the hook`, 'changes',
      [crashes.changes.filter((reason) => !changes.has(reason)).length], 0),
    figure(`Build queue through a crash between claim and send (${buildLabel}): changes sent to the hook twice`, 'changes',
      [crashes.changes.filter((reason) => (changes.get(reason) ?? 0) > 1).length], 0),
    figure(`Build queue through a crash between claim and send: crash until the last change reached the hook`, 's', [lastAt(hook.calls)]),
    figure(`IndexNow through a crash between claim and send (${indexNowLabel}): post addresses never submitted`, 'addresses',
      [crashes.addresses.filter((address) => !addressSeen(addresses, address)).length], 0),
    figure(`IndexNow through a crash between claim and send (${indexNowLabel}): addresses submitted twice`, 'addresses',
      [[...addresses.values()].filter((count) => count > 1).length], 0),
    figure(`IndexNow through a crash between claim and send: crash until the last address was submitted`, 's', [lastAt(engine.calls)]),
  ];
}

/** Case 1: deliveries through a backend restart. */
async function deliveriesThroughRestart(dataDir: string): Promise<Figure[]> {
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
  }
}
