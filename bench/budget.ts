/**
 * `npm run bench:budget` (`-- budget` of bench/run.ts): publishing within the hosting bill. A 30-day billing cycle
 * simulated with the clock moved, through the product's own parts (bench/budget-sim.ts: real Postgres with the
 * migrations, the publishing queue, the webhook, the scheduler function, the build queue's claim and hook calls, and
 * every build reported through the deploy-events function with a signed notification), for:
 * (a) one site on Free (300 credits) with a post a day and an edit every other day;
 * (b) a Pro team (5,000 credits) of 30 sites, each with three queued posts and an edit a day, and one burst of 50;
 * (c) a team whose allotment is ample: a lone publish goes live as today.
 * Each is also run as today (no pacing: a team with ample credits), its figures judged against the same allotment
 * and put beside. Budgets: no day paused and credits within the build share in (a) and (b); every post live before
 * the cycle ends; no site's longest wait over twice the team's median longest wait; in (c) a lone publish live
 * within 30 s.
 *
 * The clock: each run (a scenario, paced or as today) is a process of its own under libfaketime (Debian's
 * `faketime`: `apt-get install -y faketime`) with an offset in a file of its own that it moves from event to event,
 * and starts its own backend (server and Postgres) under it too, so Postgres' `now()` and the functions' `Date.now()`
 * agree without waiting 30 days. `FAKETIME_NO_CACHE` makes every clock read see the file as it is; the monotonic clock
 * stays real, so timers and timeouts keep their lengths. The six runs go at once: a run mostly waits on its own
 * Postgres, and the 30-site team's paced run takes longest by far.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_MS, SCENARIOS } from './budget-scenarios.ts';
import { figure, median, type AreaReport, type Figure } from './measure.ts';

const FAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
const RESULTS_DIR = join(import.meta.dirname, '..', '.data', 'bench-budget');

type Spread = { p50: number; p95: number; max: number } | null;
type Cycle = {
  sites: number;
  allotment_credits: number;
  credits_per_deploy: number;
  build_share_credits: number;
  deploys: number;
  credits_used: number;
  paused_days: number;
  posts_published: number;
  posts_live_by_cycle_end: number;
  publish_to_live_s: Spread;
  edits: number;
  edit_to_live_s: Spread;
  per_site: { slug: string; deploys: number; max_wait_s: number }[];
  steps: number;
  run_s: number;
};
type ScenarioResult = Cycle & { key: string; title: string; today: Cycle };

/**
 * One run of bench/budget-sim.ts under libfaketime, with a clock of its own: in /tmp, since the backend's Postgres
 * runs as the unprivileged `postgres` user when the bench runs as root, and reads it too.
 */
async function run(key: string, mode: 'paced' | 'today', slot: number): Promise<Cycle> {
  const clock = `/tmp/bench-budget-clock-${key}-${mode}`;
  const results = join(RESULTS_DIR, `${key}-${mode}.json`);
  writeFileSync(clock, '+0s\n', { mode: 0o644 });
  rmSync(results, { force: true });
  const code = await new Promise<number | null>((done, fail) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'budget-sim.ts'), key, mode, String(slot)], {
      stdio: 'inherit',
      env: {
        ...process.env,
        BENCH_BUDGET_RESULTS: results,
        LD_PRELOAD: FAKETIME, FAKETIME_TIMESTAMP_FILE: clock, FAKETIME_NO_CACHE: '1', FAKETIME_DONT_FAKE_MONOTONIC: '1',
      },
    });
    child.once('error', fail);
    child.once('exit', done);
  });
  if (code !== 0) throw new Error(`bench/budget-sim.ts ${key} ${mode} exited with ${code}`);
  return JSON.parse(readFileSync(results, 'utf8'));
}

/** Every scenario, paced and as today, each run in its own process with its own backend, all at once. */
async function simulate(): Promise<ScenarioResult[]> {
  if (!existsSync(FAKETIME)) throw new Error(`bench:budget moves the clock with libfaketime (${FAKETIME}): apt-get install -y faketime`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  return Promise.all(SCENARIOS.map(async (scenario, n) => {
    const [paced, today] = await Promise.all([run(scenario.key, 'paced', 2 * n), run(scenario.key, 'today', 2 * n + 1)]);
    return { key: scenario.key, title: scenario.title, ...paced, today };
  }));
}

const spread = (s: Spread) => (s ? `${s.p50} / ${s.p95} / ${s.max}` : '—');
const credits = (n: number) => n.toLocaleString('en-US');

/** One scenario's figures beside today's, as a markdown table. */
function table(result: ScenarioResult): string {
  const { today } = result;
  const perSite = (cycle: Cycle, pick: (site: Cycle['per_site'][number]) => number) => {
    const values = cycle.per_site.map(pick);
    return values.length > 1 ? `${Math.min(...values)} / ${median(values)} / ${Math.max(...values)}` : String(values[0]);
  };
  const rows: [string, unknown, unknown][] = [
    ['sites', result.sites, today.sites],
    ['allotment (build share), credits', `${credits(result.allotment_credits)} (${credits(result.build_share_credits)})`, `as paced: ${credits(today.allotment_credits)}`],
    ['deploys', result.deploys, today.deploys],
    ['credits used', credits(result.credits_used), credits(today.credits_used)],
    ['days paused', result.paused_days, today.paused_days],
    ['posts published / live by the cycle\'s end', `${result.posts_published} / ${result.posts_live_by_cycle_end}`, `${today.posts_published} / ${today.posts_live_by_cycle_end}`],
    ['publish to live p50 / p95 / max, s', spread(result.publish_to_live_s), spread(today.publish_to_live_s)],
    ['edits; edit to live p50 / p95 / max, s', `${result.edits}; ${spread(result.edit_to_live_s)}`, `${today.edits}; ${spread(today.edit_to_live_s)}`],
    [result.sites > 1 ? 'deploys per site, min / median / max' : 'deploys of the site', perSite(result, (site) => site.deploys), perSite(today, (site) => site.deploys)],
    [result.sites > 1 ? 'longest wait of a site, min / median / max, s' : 'longest wait, s', perSite(result, (site) => site.max_wait_s), perSite(today, (site) => site.max_wait_s)],
  ];
  return [`### (${result.key}) ${result.title}`, '', '| figure | paced | today (no pacing) |', '|---|---|---|', ...rows.map(([label, paced, now]) => `| ${label} | ${paced} | ${now} |`)].join('\n');
}

export async function measureBudget(): Promise<AreaReport> {
  const started = performance.now();
  const scenarios = await simulate();
  const figures: Figure[] = [];
  for (const result of scenarios) {
    const label = `(${result.key})`;
    if (result.key !== 'c') {
      figures.push(figure(`${label} days paused`, 'days', [result.paused_days], 0));
      figures.push(figure(`${label} credits used (the build share: 80% of the allotment)`, 'credits', [result.credits_used], result.build_share_credits));
    }
    figures.push(figure(`${label} posts not live by the cycle's end`, 'posts', [result.posts_published - result.posts_live_by_cycle_end], 0));
    const longest = result.per_site.map((site) => site.max_wait_s);
    figures.push(figure(`${label} longest wait of the slowest site over the team's median longest wait`, 'x', [Math.round((Math.max(...longest) / median(longest)) * 100) / 100], 2));
    if (result.key === 'c') figures.push(figure(`${label} a lone publish to live, the slowest of the cycle`, 's', [result.publish_to_live_s?.max ?? Infinity], 30));
  }
  const minutes = Math.round((performance.now() - started) / 6000) / 10;
  const markdown = [
    '## The cycles, paced and as today',
    '',
    `Each scenario is a 30-day billing cycle simulated with the clock moved (libfaketime, for Postgres and the functions alike; the six runs at once ` +
      `took ${minutes} min), through the publishing queue, the webhook, the scheduler function, the build queue's claim and hook calls; each build takes ${BUILD_MS / 1000} s ` +
      'and reports `building`, then `ready`, through the deploy-events function (signed as Netlify signs it). "Today" is the same cycle for a team ' +
      'with ample credits (no pacing), judged against the same allotment. A deploy costs 15 credits; builds may use 80% of the allotment (the build share), ' +
      'the rest being taken by bandwidth, requests and functions. **Days paused**: the days a real team would have been paused, from the start of the ' +
      'deploy that took the deploys\' credits past the build share to the cycle\'s end. **Publish to live**: from a post\'s publish time (its queue slot, ' +
      'or its delivery) to the end of the site\'s first successful build that started after it; a post never live counts until the cycle\'s end. ' +
      '**Longest wait of a site**: the longest publish to live of its posts.',
    '',
    ...scenarios.flatMap((result) => [table(result), '']),
  ].join('\n');
  return { figures, markdown, detail: { build_s: BUILD_MS / 1000, scenarios } };
}
