/**
 * One run of `npm run bench:budget`: `node bench/budget-sim.ts <scenario> <paced|today> <n>`, started by bench/budget.ts
 * under libfaketime (FAKETIME_TIMESTAMP_FILE, which this process rewrites), writing its figures to
 * BENCH_BUDGET_RESULTS. A 30-day billing cycle of the scenario (bench/budget-scenarios.ts) for a team with its own
 * credits (`paced`) or ample ones (`today`: no pacing), through the product's own parts, on a backend instance of
 * the run's own (real Postgres with the migrations and seed; ports 27621 + 2n and 27622 + 2n) started under the same
 * clock:
 * - posts drip-fed by each site's publishing queue (queued at the cycle's start, published by the scheduler function
 *   at their slots), or delivered by the writing tool (the webhook function, publish mode, which flushes its site);
 * - edits of a live post with the service client, then the back office's nudge (flushDueRebuilds of its site);
 * - the scheduler function (publish-scheduled) at each queue slot and at the minute a waiting site's budget lets it
 *   build (`next_build_at` of private.site_budget); other minutes would find nothing new to do;
 * - the build queue's claim and hook calls, to a build hook on 127.0.0.1 here: each call is a build of BUILD_MS,
 *   reported `building` at once and `ready` at its end through the deploy-events function, with a body signed as
 *   Netlify signs it (netlify/local/deploy-notifications.ts), which sends the site's next build. Each site has its
 *   own instance of that function (its module graph loaded once per site, SITE_ORG its slug), as each Netlify site
 *   deploys its own.
 * The clock jumps from one of these moments to the next: libfaketime reads the offset on every clock read of this
 * process and of the backend's server and Postgres, so `now()` and `Date.now()` agree.
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerHooks } from 'node:module';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { signDeployNotification } from '../netlify/local/deploy-notifications.ts';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import {
  AMPLE_CREDITS, BUILD_MS, BUILD_SHARE_PERCENT, CREDITS_PER_DEPLOY, CYCLE_END, CYCLE_START, DAY, SCENARIOS,
} from './budget-scenarios.ts';
import { median, percentile } from './measure.ts';
import { article } from './publishing.ts';

const ROOT = resolve(import.meta.dirname, '..');
const [key, mode, slot] = process.argv.slice(2);
const scenario = SCENARIOS.find((candidate) => candidate.key === key);
if (!scenario || !['paced', 'today'].includes(mode!) || !/^\d$/.test(slot ?? '')) throw new Error('usage: node bench/budget-sim.ts <a|b|c> <paced|today> <0-9>');
const DATA_DIR = join(ROOT, '.data', 'bench-budget', `${key}-${mode}`);
const API_PORT = 27621 + 2 * Number(slot);
const DB_PORT = API_PORT + 1;
const CLOCK_FILE = process.env.FAKETIME_TIMESTAMP_FILE!;
const SECRET = 'bench-budget-deploy-notifications';
const MINUTE = 60_000;

/** Moves the clock of every process of the run so that it reads `at` (to the second; never backwards). */
function moveClockTo(at: number): void {
  const ahead = Math.ceil((at - Date.now()) / 1000);
  if (ahead <= 0) return;
  moveClockTo.offset += ahead;
  // Replaced, never rewritten in place: a clock read in between must not find the file empty.
  writeFileSync(`${CLOCK_FILE}.next`, `+${moveClockTo.offset}s\n`);
  renameSync(`${CLOCK_FILE}.next`, CLOCK_FILE);
}
moveClockTo.offset = 0;

// Each site's functions are their own module instances: a module imported with `?site=...` has its project imports
// loaded with the same query (node_modules are shared), so a function's per-instance caches (the organization its
// site shows) are that site's alone, as on Netlify.
const PROJECT = pathToFileURL(`${ROOT}/`).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    const resolved = nextResolve(specifier, context);
    const site = context.parentURL ? new URL(context.parentURL).searchParams.get('site') : null;
    return site && resolved.url.startsWith(PROJECT) && !resolved.url.includes('/node_modules/') ? { ...resolved, url: `${resolved.url}?site=${site}` } : resolved;
  },
});

function cli(...args: string[]): void {
  const run = spawnSync(process.execPath, [join(ROOT, 'supabase/local/cli.ts'), ...args, '--data-dir', DATA_DIR], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`local backend ${args[0]} failed: ${run.stderr}${run.stdout}`);
}

function must<T extends { error: { message: string } | null }>(result: T, what: string): T {
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  return result;
}

const apiUrl = `http://127.0.0.1:${API_PORT}`;
Object.assign(process.env, {
  SUPABASE_URL: apiUrl, PUBLIC_SUPABASE_URL: apiUrl, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey, PUBLIC_SUPABASE_ANON_KEY: LOCAL_SUPABASE.anonKey,
  REBUILD_AT_ONCE: 'on', REBUILD_QUIET_WINDOW_MS: '0', DEPLOY_NOTIFICATION_SECRET: SECRET,
});
// Nothing leaves the machine: no IndexNow endpoint, no mail service, a local site address.
for (const name of ['INDEXNOW_ENDPOINT', 'SITE_URL', 'URL', 'RESEND_API_KEY', 'SITE_ORG']) delete process.env[name];
// The functions log every publish and build (thousands a cycle); the run's one line is written directly.
console.log = () => {};
const { serviceClient } = await import('../src/lib/server/service-client.ts');
const { flushDueRebuilds } = await import('../src/lib/server/rebuilds.ts');
const publishScheduled = (await import('../netlify/functions/publish-scheduled.mts')).default;
const webhook = (await import('../netlify/functions/zimmwriter-webhook.mts')).default;

type Site = { id: string; slug: string; token: string; deployEvents: (req: Request) => Promise<Response>; posts: { id: string; at: number }[] };
type Build = { site: Site; id: string; startedAt: number; title: string };

/** The cycle, for a team with `credits`; answers the sites, the edits made and the number of clock moves. */
async function simulate(db: pg.Client, credits: number) {
  moveClockTo(CYCLE_START);
  const service = serviceClient();

  // The sites' build hook: each call starts a build now.
  const calls: { organizationId: string; at: number; title: string }[] = [];
  const hook = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    calls.push({ organizationId: url.pathname.split('/').at(-1)!, at: Date.now(), title: url.searchParams.get('trigger_title') ?? '' });
    req.resume();
    res.end();
  });
  await new Promise<void>((done) => hook.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/build_hooks`;

  const sites: Site[] = [];
  for (let n = 0; n < scenario!.sites; n += 1) {
    const id = crypto.randomUUID();
    const slug = `bench-${key}-${n}`;
    must(await service.from('organizations').insert({ id, name: `Bench ${key} site ${n}`, slug }), 'organization');
    must(await service.rpc('place_site_in_team', {
      p_organization_id: id, p_team_name: `Bench ${key}`, p_monthly_credits: credits, p_credits_per_deploy: CREDITS_PER_DEPLOY,
      p_cycle_start_day: 1, p_build_share_percent: BUILD_SHARE_PERCENT, p_auto_recharge: false,
    }), 'place_site_in_team');
    must(await service.from('site_rebuild_settings').insert({ organization_id: id, build_hook_url: `${hookUrl}/${id}` }), 'build hook');
    const token = `bench-budget-${id}`;
    must(await service.from('webhook_integrations').insert({ organization_id: id, token_hash: createHash('sha256').update(token).digest('hex') }), 'webhook token');
    const deployEvents = (await import(`../netlify/functions/deploy-events.mts?site=${id}`)).default;
    sites.push({ id, slug, token, deployEvents, posts: [] });
  }

  // The cycle's posts join each site's queue at its start; the queue gives each its slot.
  const slots = new Set<number>();
  if (scenario!.queue) {
    for (const [n, site] of sites.entries()) {
      const queue = scenario!.queue(n);
      must(await service.from('publishing_queues').update({
        time_zone: 'UTC', posts_per_day: queue.postsPerDay, posts_per_slot: 1, weekdays: [1, 2, 3, 4, 5, 6, 7],
        window_start: queue.windowStart, window_end: queue.windowEnd, spread_minutes: 0,
      }).eq('organization_id', site.id), 'publishing queue');
      const rows = Array.from({ length: queue.postsPerDay * 30 }, (_, i) => {
        const html = article();
        return { organization_id: site.id, title: `Queued ${site.slug} ${i}`, slug: `queued-${i}`, content: html, content_source: html, content_format: 'html', status: 'scheduled', queued: true };
      });
      const { data } = must(await service.from('blog_posts').insert(rows).select('id, published_at'), 'queued posts');
      for (const post of data as { id: string; published_at: string }[]) {
        const at = Date.parse(post.published_at);
        if (at >= CYCLE_END) throw new Error(`${site.slug}'s queue put a post after the cycle (${post.published_at})`);
        site.posts.push({ id: post.id, at });
        slots.add(Math.ceil(at / MINUTE) * MINUTE);
      }
      site.posts.sort((x, y) => x.at - y.at);
    }
  }
  const ticks = [...slots].sort((x, y) => x - y);
  const changes = sites
    .flatMap((site, n) => Array.from({ length: 30 }, (_, day) => scenario!.changes(n, day).map((change) => ({ ...change, at: CYCLE_START + day * DAY + change.at, site }))).flat())
    .sort((x, y) => x.at - y.at);

  /** A deploy notification to the site's own deploy-events function, signed as Netlify signs it. */
  const notify = async (build: Build, state: 'building' | 'ready') => {
    const body = JSON.stringify({
      id: build.id, state, created_at: new Date(build.startedAt).toISOString(), error_message: null, title: build.title,
      url: `https://${build.site.slug}.netlify.app`, context: 'production', branch: 'main', updated_at: new Date().toISOString(),
    });
    process.env.SITE_ORG = build.site.slug;
    const response = await build.site.deployEvents(new Request('http://localhost/api/deploy-events', {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': await signDeployNotification(body, SECRET) }, body,
    }));
    const answer = await response.text();
    if (response.status !== 202 || !answer.includes('Recorded')) throw new Error(`deploy-events answered ${response.status} to ${state}: ${answer}`);
  };
  const byId = new Map(sites.map((site) => [site.id, site]));
  const running: (Build & { endsAt: number })[] = [];
  const edits: { site: Site; at: number }[] = [];
  let nextChange = 0;
  let nextTick = 0;
  let wake = Infinity;
  let steps = 0;
  for (;;) {
    const now = Math.min(changes[nextChange]?.at ?? Infinity, ticks[nextTick] ?? Infinity, running[0]?.endsAt ?? Infinity, wake);
    if (now >= CYCLE_END) break;
    moveClockTo(now);
    steps += 1;
    // Builds that ended: their `ready` records the end, and the function sends the site's next build.
    while (running.length && running[0]!.endsAt <= Date.now()) await notify(running.shift()!, 'ready');
    // Edits (the back office saves, then nudges its site's queue) and deliveries (the webhook flushes by itself).
    while (changes[nextChange] && changes[nextChange]!.at <= Date.now()) {
      const change = changes[nextChange++]!;
      if (change.kind === 'edit') {
        const live = change.site.posts.findLast((post) => post.at <= Date.now());
        if (!live) continue;
        const html = article();
        must(await service.from('blog_posts').update({ content: html, content_source: html }).eq('id', live.id), 'edit');
        edits.push({ site: change.site, at: Date.now() });
        await flushDueRebuilds(service, { organizationId: change.site.id });
      } else {
        for (let i = 0; i < (change.count ?? 1); i += 1) {
          const response = await webhook(new Request(`http://localhost/api/webhooks/zimmwriter/${change.site.token}`, {
            method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ webhook_name: 'Bench', title: `Delivered ${change.site.slug} ${Date.now()} ${i}`, html: article() }),
          }));
          if (response.status !== 201) throw new Error(`The delivery answered ${response.status}: ${await response.text()}`);
        }
      }
    }
    // The scheduler's minute: publishes the slots that came, sends what is due and what the budget now allows.
    if ((ticks[nextTick] ?? Infinity) <= Date.now() || wake <= Date.now()) {
      while ((ticks[nextTick] ?? Infinity) <= Date.now()) nextTick += 1;
      const response = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
      if (response.status !== 200) throw new Error(`publish-scheduled answered ${response.status}: ${await response.text()}`);
    }
    // The hook calls made meanwhile are builds that start now: Netlify reports each as building.
    for (const call of calls.splice(0)) {
      const build = { site: byId.get(call.organizationId)!, id: crypto.randomUUID(), startedAt: call.at, title: call.title };
      await notify(build, 'building');
      running.push({ ...build, endsAt: call.at + BUILD_MS });
    }
    // The scheduler's next useful minute: when the budget lets a waiting site build (none while it builds). The site
    // the claim serves first (the fewest builds) is the one whose budget frees first, so only its budget is read.
    const { rows } = await db.query(
      `select (private.site_budget(first.organization_id) ->> 'next_build_at')::timestamptz as at
       from (select w.organization_id from (select distinct organization_id from private.waiting_rebuild_requests(null)) w
             where w.organization_id = any ($1) and not private.build_in_flight(w.organization_id)
             order by private.site_builds_since(w.organization_id, $2) limit 1) first`,
      [sites.map((site) => site.id), new Date(CYCLE_START)],
    );
    const next = rows[0]?.at ? Date.parse(rows[0].at) : Infinity;
    wake = Math.max(Math.ceil(next / MINUTE) * MINUTE, Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE);
  }
  hook.close();
  return { sites, edits, steps };
}

/** The cycle's figures, read back from the database: deploys, credits, days paused, each post's wait until live. */
async function measure(db: pg.Client, sites: Site[], edits: { site: Site; at: number }[]) {
  const ids = sites.map((site) => site.id);
  const deploys = (await db.query(
    `select organization_id, started_at, finished_at, state from public.site_deploys
     where organization_id = any ($1) and started_at >= $2 and started_at < $3 order by started_at`,
    [ids, new Date(CYCLE_START), new Date(CYCLE_END)],
  )).rows as { organization_id: string; started_at: Date; finished_at: Date | null; state: string }[];
  const posts = (await db.query(
    `select organization_id, published_at from public.blog_posts
     where organization_id = any ($1) and status = 'published' and published_at >= $2 and published_at < $3`,
    [ids, new Date(CYCLE_START), new Date(CYCLE_END)],
  )).rows as { organization_id: string; published_at: Date }[];
  /** When a change made at `at` was live: the end of the site's first successful build that started after it. */
  const liveAt = (organizationId: string, at: number) =>
    deploys.find((deploy) => deploy.organization_id === organizationId && deploy.state === 'succeeded' && deploy.started_at.getTime() >= at)?.finished_at?.getTime();
  const waits = posts.map((post) => {
    const live = liveAt(post.organization_id, post.published_at.getTime());
    return { organizationId: post.organization_id, live: live !== undefined && live <= CYCLE_END, seconds: ((live ?? CYCLE_END) - post.published_at.getTime()) / 1000 };
  });
  const editWaits = edits.map((edit) => ((liveAt(edit.site.id, edit.at) ?? CYCLE_END) - edit.at) / 1000);
  const allotment = scenario!.credits;
  const share = (allotment * BUILD_SHARE_PERCENT) / 100;
  const pausedFrom = deploys.find((_deploy, n) => (n + 1) * CREDITS_PER_DEPLOY > share)?.started_at.getTime();
  const round = (n: number) => Math.round(n * 10) / 10;
  const spread = (values: number[]) => (values.length ? { p50: round(median(values)), p95: round(percentile(values, 95)), max: round(Math.max(...values)) } : null);
  return {
    sites: sites.length,
    allotment_credits: allotment,
    credits_per_deploy: CREDITS_PER_DEPLOY,
    build_share_credits: share,
    deploys: deploys.length,
    credits_used: deploys.length * CREDITS_PER_DEPLOY,
    paused_days: pausedFrom === undefined ? 0 : round((CYCLE_END - pausedFrom) / DAY),
    posts_published: posts.length,
    posts_live_by_cycle_end: waits.filter((wait) => wait.live).length,
    publish_to_live_s: spread(waits.map((wait) => wait.seconds)),
    edits: edits.length,
    edit_to_live_s: spread(editWaits),
    per_site: sites.map((site) => ({
      slug: site.slug,
      deploys: deploys.filter((deploy) => deploy.organization_id === site.id).length,
      max_wait_s: round(Math.max(0, ...waits.filter((wait) => wait.organizationId === site.id).map((wait) => wait.seconds))),
    })),
  };
}

const started = performance.now();
rmSync(DATA_DIR, { recursive: true, force: true });
cli('start', '--api-port', String(API_PORT), '--db-port', String(DB_PORT));
const db = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${DB_PORT}/postgres` });
await db.connect();
try {
  const { sites, edits, steps } = await simulate(db, mode === 'paced' ? scenario.credits : AMPLE_CREDITS);
  const figures = await measure(db, sites, edits);
  const seconds = Math.round((performance.now() - started) / 1000);
  writeFileSync(process.env.BENCH_BUDGET_RESULTS!, `${JSON.stringify({ ...figures, steps, run_s: seconds })}\n`);
  process.stdout.write(`[bench budget] (${key}) ${mode}: ${figures.deploys} deploys, ${figures.paused_days} days paused, ${figures.posts_live_by_cycle_end}/${figures.posts_published} posts live, ${steps} clock moves, ${seconds} s\n`);
} finally {
  await db.end();
  cli('stop');
}
