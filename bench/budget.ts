/**
 * `npm run bench:budget`: a 30-day billing cycle of publishing, simulated with the clock moved, through the
 * product's own parts: a backend instance of its own (real Postgres with the migrations), posts and edits written
 * as the back office and the arrival path write them (the database records their rebuild requests), the scheduler
 * function every minute something happens, the build queue's claim and its hook calls (a local hook), and each
 * build's start and end recorded as its deploy notifications record them (`record_site_deploy`, then the flush the
 * notification function makes). Builds take 20 s. Writes `bench/budget-report.md` and `bench/budget-report.json`
 * and exits non-zero when a budget breaks.
 *
 * The clock: the whole run, this process and the backend's Postgres alike, runs under libfaketime (Debian's
 * `faketime`: `apt-get install -y faketime`) with an offset in a file the run moves forward from event to event,
 * so `now()` in Postgres and `Date.now()` here agree without waiting 30 days.
 *
 * Scenarios, each also run as today (no pacing: a team with ample credits) and its figures put beside:
 * (a) one site on Free (300 credits) with one post a day and an edit every other day;
 * (b) a Pro team (5,000 credits) of 30 sites, each with three posts a day and an edit a day, and one burst of 50;
 * (c) a team whose allotment is ample: a lone publish goes live as today.
 * `paused_days`: the days a real team would have been paused: from the moment its deploys' credits passed the
 * build share of its allotment (the rest being taken by bandwidth, requests and functions) to the cycle's end.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import { median, percentile } from './measure.ts';

const ROOT = resolve(import.meta.dirname, '..');
const FAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const CLOCK_FILE = '/tmp/bench-budget-clock';
const DATA_DIR = join(ROOT, '.data', 'bench-budget');
const API_PORT = 27621;
const DB_PORT = 27622;
const BUILD_MS = 20_000;
const MINUTE = 60_000;
const DAY = 86_400_000;
/** The simulated cycle: June 2027 (30 days), the teams' cycles starting on the 1st. */
const CYCLE_START = Date.parse('2027-06-01T00:00:00Z');
const CYCLE_END = Date.parse('2027-07-01T00:00:00Z');

/** The clock's offset from real time, in seconds; only ever moved forward. */
let offsetSeconds = 0;
function moveClockTo(at: number): void {
  const ahead = Math.ceil((at - Date.now()) / 1000);
  if (ahead <= 0) return;
  offsetSeconds += ahead;
  writeFileSync(CLOCK_FILE, `+${offsetSeconds}s\n`);
}

type Scenario = { key: string; title: string; sites: number; credits: number; events: (site: number, day: number) => { at: number; kind: 'post' | 'edit'; count?: number }[] };

const at = (day: number, hour: number, minute = 0) => CYCLE_START + day * DAY + hour * 3_600_000 + minute * MINUTE;
const SCENARIOS: Scenario[] = [
  {
    key: 'a', title: 'One site on Free: a post a day, an edit every other day', sites: 1, credits: 300,
    events: (_site, day) => [{ at: at(day, 9), kind: 'post' }, ...(day % 2 === 1 ? [{ at: at(day, 15), kind: 'edit' as const }] : [])],
  },
  {
    key: 'b', title: 'A Pro team of 30 sites: three posts a day and an edit a day each, one burst of 50', sites: 30, credits: 5_000,
    // Sites in three groups ten minutes apart, as drip-fed queues' slots fall.
    events: (site, day) => [
      ...[9, 13, 17].map((hour) => ({ at: at(day, hour, (site % 3) * 10), kind: 'post' as const })),
      { at: at(day, 11, (site % 3) * 10), kind: 'edit' as const },
      ...(site === 0 && day === 9 ? [{ at: at(day, 10), kind: 'post' as const, count: 50 }] : []),
    ],
  },
  {
    key: 'c', title: 'An ample allotment: a post a day', sites: 1, credits: 1_000_000,
    events: (_site, day) => [{ at: at(day, 9), kind: 'post' }],
  },
];

async function main(): Promise<void> {
  const started = performance.now();
  rmSync(DATA_DIR, { recursive: true, force: true });
  cli('start', '--api-port', String(API_PORT), '--db-port', String(DB_PORT));
  const apiUrl = `http://127.0.0.1:${API_PORT}`;
  Object.assign(process.env, {
    SUPABASE_URL: apiUrl, PUBLIC_SUPABASE_URL: apiUrl, SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey, PUBLIC_SUPABASE_ANON_KEY: LOCAL_SUPABASE.anonKey,
    REBUILD_AT_ONCE: 'on', REBUILD_QUIET_WINDOW_MS: '0', REBUILD_RETRY_BASE_MS: '1',
  });
  delete process.env.INDEXNOW_ENDPOINT;
  const db = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${DB_PORT}/postgres` });
  await db.connect();
  try {
    moveClockTo(CYCLE_START - DAY);
    const results = [];
    for (const scenario of SCENARIOS) {
      const paced = await simulate(db, scenario, scenario.credits);
      const today = await simulate(db, scenario, 10_000_000, scenario.credits);
      results.push({ key: scenario.key, title: scenario.title, ...paced, today });
      console.log(`(${scenario.key}) ${scenario.title}: ${paced.deploys} deploys (today ${today.deploys}), paused ${paced.paused_days} days (today ${today.paused_days})`);
    }
    report(results, (performance.now() - started) / 60_000);
  } finally {
    await db.end();
    cli('stop');
  }
}

function cli(...args: string[]): void {
  const run = spawnSync(process.execPath, [join(ROOT, 'supabase/local/cli.ts'), ...args, '--data-dir', DATA_DIR], { encoding: 'utf8', env: process.env });
  if (run.status !== 0) throw new Error(`local backend ${args[0]} failed: ${run.stderr}${run.stdout}`);
}

type Result = Awaited<ReturnType<typeof simulate>>;

/**
 * One cycle of the scenario for a team with `credits` (the scenario's own, or ample for today), its figures
 * judged against `allotment` (what the team really has). The cycle is moved forward a month each run, so runs
 * never share one.
 */
async function simulate(db: pg.Client, scenario: Scenario, credits: number, allotment = credits) {
  const run = simulate.runs++;
  const shift = run * 31 * DAY;
  const [start, end] = [CYCLE_START + shift, CYCLE_START + shift + (CYCLE_END - CYCLE_START)];
  const service = createClient(process.env.SUPABASE_URL!, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } });
  const publishScheduled = (await import('../netlify/functions/publish-scheduled.mts')).default;
  const { flushDueRebuilds } = await import('../src/lib/server/rebuilds.ts');

  // The hook: each call is a build that starts now and ends BUILD_MS later.
  const calls: { organizationId: string; at: number }[] = [];
  const hook = createServer((req, res) => {
    calls.push({ organizationId: (req.url ?? '').split('?')[0]!.split('/').at(-1)!, at: Date.now() });
    req.resume();
    res.end();
  });
  await new Promise<void>((done) => hook.listen(0, '127.0.0.1', done));
  const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/build_hooks`;

  const team = `Bench ${scenario.key} ${run}`;
  const sites: string[] = [];
  for (let n = 0; n < scenario.sites; n += 1) {
    const id = crypto.randomUUID();
    must(await service.from('organizations').insert({ id, name: `${team} site ${n}`, slug: `bench-${scenario.key}-${run}-${n}` }));
    must(await service.rpc('place_site_in_team', { p_organization_id: id, p_team_name: team, p_monthly_credits: credits, p_cycle_start_day: 1 }));
    must(await service.from('site_rebuild_settings').insert({ organization_id: id, build_hook_url: `${hookUrl}/${id}` }));
    sites.push(id);
  }

  // The cycle's events, in time order; builds end, and paced builds wake, in between.
  type Step = { at: number; site: number; kind: 'post' | 'edit'; count?: number };
  const events: Step[] = sites
    .flatMap((_id, site) => Array.from({ length: 30 }, (_, day) => scenario.events(site, day).map((event) => ({ ...event, at: event.at + shift, site }))).flat())
    .sort((x, y) => x.at - y.at);
  const endings: { organizationId: string; externalId: string; at: number }[] = [];
  let wake = Infinity;
  let posts = 0;
  let nextEvent = 0;
  moveClockTo(start);
  while (true) {
    const next = Math.min(events[nextEvent]?.at ?? Infinity, endings[0]?.at ?? Infinity, wake);
    if (next >= end) break;
    moveClockTo(next);
    // Builds that ended: their notification records the end, and the flush it makes sends what waited.
    while (endings.length && endings[0]!.at <= Date.now()) {
      const ending = endings.shift()!;
      must(await service.rpc('record_site_deploy', { p_organization_id: ending.organizationId, p_source: 'netlify', p_external_id: ending.externalId, p_state: 'succeeded' }));
      await flushDueRebuilds(service, { organizationId: ending.organizationId });
    }
    // What happens now: posts published (as the queue's slot or an editor's Publish does), edits of live posts.
    while (events[nextEvent] && events[nextEvent]!.at <= Date.now()) {
      const event = events[nextEvent++]!;
      const organizationId = sites[event.site]!;
      if (event.kind === 'post') {
        const rows = Array.from({ length: event.count ?? 1 }, () => {
          posts += 1;
          const slug = `post-${run}-${posts}`;
          return { organization_id: organizationId, title: `Post ${posts}`, slug, content: `<p>Article ${posts}.</p>`, content_source: `<p>Article ${posts}.</p>`, content_format: 'html', status: 'published', published_at: new Date().toISOString() };
        });
        must(await service.from('blog_posts').insert(rows));
      } else {
        const { data } = await service.from('blog_posts').select('id').eq('organization_id', organizationId).eq('status', 'published').order('published_at', { ascending: false }).limit(1);
        if (data?.[0]) must(await service.from('blog_posts').update({ content: `<p>Edited ${Date.now()}.</p>`, content_source: `<p>Edited ${Date.now()}.</p>` }).eq('id', data[0].id));
      }
    }
    // The scheduler's minute: publishes what is due and sends every build the queue and the budget allow.
    await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
    for (const call of calls.splice(0)) {
      const externalId = crypto.randomUUID();
      must(await service.rpc('record_site_deploy', { p_organization_id: call.organizationId, p_source: 'netlify', p_external_id: externalId, p_state: 'building', p_started_at: new Date(call.at).toISOString() }));
      endings.push({ organizationId: call.organizationId, externalId, at: call.at + BUILD_MS });
    }
    endings.sort((x, y) => x.at - y.at);
    // When the budget lets a site with waiting changes build next (the scheduler's first minute after it).
    const { rows } = await db.query(
      `select min((private.site_budget(r.organization_id) ->> 'next_build_at')::timestamptz) as at
       from (select distinct organization_id from public.site_rebuild_requests where status = 'pending' and organization_id = any ($1)) r`,
      [sites],
    );
    const due = rows[0]?.at ? Math.max(Date.parse(rows[0].at), Date.now() + 1) : Infinity;
    wake = due === Infinity ? Infinity : Math.ceil(due / MINUTE) * MINUTE + 1_000;
  }
  hook.close();
  const figures = await measure(db, sites, start, end, allotment);
  // The run's sites lose their hook, so later runs' scheduler minutes send nothing of theirs.
  must(await service.from('site_rebuild_settings').delete().in('organization_id', sites));
  must(await service.from('site_rebuild_requests').delete().in('organization_id', sites).eq('status', 'pending'));
  return figures;
}
simulate.runs = 0;

/** The cycle's figures, read back from the database: deploys, credits, the days paused, each post's wait until live. */
async function measure(db: pg.Client, sites: string[], start: number, end: number, allotment: number) {
  const deploys = (await db.query(
    `select organization_id, started_at from public.site_deploys where organization_id = any ($1) and started_at >= $2 and started_at < $3 order by started_at`,
    [sites, new Date(start), new Date(end)],
  )).rows as { organization_id: string; started_at: Date }[];
  const waits = (await db.query(
    `select p.organization_id, p.published_at,
       (select min(d.finished_at) from public.site_deploys d where d.organization_id = p.organization_id and d.state = 'succeeded'
          and d.started_at >= p.published_at) as live_at
     from public.blog_posts p where p.organization_id = any ($1) and p.status = 'published'`,
    [sites],
  )).rows as { organization_id: string; published_at: Date; live_at: Date | null }[];
  const creditsPerDeploy = 15;
  const share = (allotment * 80) / 100;
  const pausedFrom = deploys.find((_deploy, n) => (n + 1) * creditsPerDeploy > share)?.started_at.getTime();
  const seconds = waits.map((wait) => ((wait.live_at?.getTime() ?? end) - wait.published_at.getTime()) / 1000);
  const perSite = sites.map((id) => {
    const own = waits.filter((wait) => wait.organization_id === id).map((wait) => ((wait.live_at?.getTime() ?? end) - wait.published_at.getTime()) / 1000);
    return { deploys: deploys.filter((deploy) => deploy.organization_id === id).length, max_wait_s: Math.round(Math.max(0, ...own)) };
  });
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    sites: sites.length,
    allotment_credits: allotment,
    credits_per_deploy: creditsPerDeploy,
    deploys: deploys.length,
    credits_used: deploys.length * creditsPerDeploy,
    paused_days: pausedFrom === undefined ? 0 : round((end - pausedFrom) / DAY),
    posts_published: waits.length,
    posts_live_by_cycle_end: waits.filter((wait) => wait.live_at && wait.live_at.getTime() <= end).length,
    publish_to_live_s: { p50: round(median(seconds)), p95: round(percentile(seconds, 95)), max: round(Math.max(...seconds)) },
    per_site: perSite,
  };
}

function must<T extends { error: { message: string } | null }>(result: T): T {
  if (result.error) throw new Error(result.error.message);
  return result;
}

/** The report: the figures of each scenario beside today's, the budgets and whether they hold. */
function report(results: (Result & { key: string; title: string; today: Result })[], minutes: number): void {
  const checks: { scenario: string; budget: string; ok: boolean }[] = [];
  for (const result of results) {
    const maxWaits = result.per_site.map((site) => site.max_wait_s);
    if (result.key !== 'c') {
      checks.push({ scenario: result.key, budget: 'paused_days 0', ok: result.paused_days === 0 });
      checks.push({ scenario: result.key, budget: 'credits within the build share (80%)', ok: result.credits_used <= result.allotment_credits * 0.8 });
    }
    checks.push({ scenario: result.key, budget: 'every post live before the cycle ends', ok: result.posts_live_by_cycle_end === result.posts_published });
    checks.push({ scenario: result.key, budget: "no site's longest wait over twice the team's median", ok: Math.max(...maxWaits) <= 2 * median(maxWaits) });
    if (result.key === 'c') checks.push({ scenario: result.key, budget: 'a lone publish live within 30 s', ok: result.publish_to_live_s.max <= 30 });
  }
  const row = (label: string, paced: unknown, today: unknown) => `| ${label} | ${paced} | ${today} |`;
  const sections = results.map((result) => [
    `## (${result.key}) ${result.title}`,
    '',
    '| figure | paced | today (no pacing) |',
    '|---|---|---|',
    row('sites', result.sites, result.today.sites),
    row('allotment (credits)', result.allotment_credits.toLocaleString('en-US'), result.today.allotment_credits.toLocaleString('en-US')),
    row('deploys', result.deploys, result.today.deploys),
    row('credits used', result.credits_used.toLocaleString('en-US'), result.today.credits_used.toLocaleString('en-US')),
    row('days paused', result.paused_days, result.today.paused_days),
    row('posts published', result.posts_published, result.today.posts_published),
    row('posts live by the cycle\'s end', result.posts_live_by_cycle_end, result.today.posts_live_by_cycle_end),
    row('publish to live p50 / p95 / max (s)', `${result.publish_to_live_s.p50} / ${result.publish_to_live_s.p95} / ${result.publish_to_live_s.max}`, `${result.today.publish_to_live_s.p50} / ${result.today.publish_to_live_s.p95} / ${result.today.publish_to_live_s.max}`),
    row('deploys per site (min / max)', `${Math.min(...result.per_site.map((s) => s.deploys))} / ${Math.max(...result.per_site.map((s) => s.deploys))}`, `${Math.min(...result.today.per_site.map((s) => s.deploys))} / ${Math.max(...result.today.per_site.map((s) => s.deploys))}`),
    row('longest wait of a site (min / median / max, s)', `${Math.min(...result.per_site.map((s) => s.max_wait_s))} / ${median(result.per_site.map((s) => s.max_wait_s))} / ${Math.max(...result.per_site.map((s) => s.max_wait_s))}`, '—'),
  ].join('\n'));
  const budgets = ['| scenario | budget | status |', '|---|---|---|', ...checks.map((check) => `| ${check.scenario} | ${check.budget} | ${check.ok ? 'ok' : '**broken**'} |`)].join('\n');
  writeFileSync(join(import.meta.dirname, 'budget-report.md'),
    `# Publishing within the hosting bill\n\nMeasured by \`npm run bench:budget\` (${Math.round(minutes * 10) / 10} min): a 30-day cycle simulated with the clock moved ` +
    `(libfaketime, Postgres and the functions alike), builds of 20 s through the real build queue, scheduler and deploy records. ` +
    `A deploy costs 15 credits; builds may use 80% of the allotment. "Days paused": from the moment the deploys' credits passed that share to the cycle's end.\n\n` +
    `${budgets}\n\n${sections.join('\n\n')}\n`);
  writeFileSync(join(import.meta.dirname, 'budget-report.json'), `${JSON.stringify({ measured_at: new Date().toISOString(), scenarios: results, budgets: checks }, null, 2)}\n`);
  console.log(budgets);
  if (checks.some((check) => !check.ok)) process.exit(1);
}

// Everything runs with the clock moved: this process re-runs itself under libfaketime.
if (!process.env.BENCH_BUDGET_CLOCK) {
  if (!existsSync(FAKETIME)) {
    console.error(`bench:budget needs libfaketime (${FAKETIME}): apt-get install -y faketime`);
    process.exit(1);
  }
  writeFileSync(CLOCK_FILE, '+0s\n');
  chmodSync(CLOCK_FILE, 0o644);
  const child = spawn(process.execPath, process.argv.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, BENCH_BUDGET_CLOCK: '1', LD_PRELOAD: FAKETIME, FAKETIME_TIMESTAMP_FILE: CLOCK_FILE, FAKETIME_NO_CACHE: '1', FAKETIME_DONT_FAKE_MONOTONIC: '1' },
  });
  child.on('exit', (code) => process.exit(code ?? 1));
} else {
  await main();
}
