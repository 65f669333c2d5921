import { describe, expect, it } from 'vitest';
import type { DeployFacts } from '../../../../src/lib/back-office/deploy-status.ts';
import { boardPollMs, boardRow, type BoardSite, filterBoard, sortBoard } from '../../../../src/lib/back-office/sites-board.ts';

const NOW = '2026-11-23T15:00:00.000Z';
const at = (secondsFromNow: number) => new Date(Date.parse(NOW) + secondsFromNow * 1000).toISOString();
const facts = (over: Partial<DeployFacts> = {}): DeployFacts => ({
  pending_count: 0, oldest_pending_at: null, newest_pending_at: null, next_attempt_at: null, scheduler_ran_at: at(-20), quiet_window_ms: 0,
  reports_builds: true, recent_build_ms: null, last_send: null, latest_deploy: null, live: null, budget: null, build_hook_set: true, now: NOW, ...over,
});
const succeeded = { state: 'succeeded' as const, started_at: at(-600), finished_at: at(-570), error: null, url: 'https://a.test', stale: false };
const budget = (over: Partial<NonNullable<DeployFacts['budget']>> = {}): NonNullable<DeployFacts['budget']> => ({
  team_id: 't', team_name: 'Agency', monthly_credits: 300, credits_per_deploy: 15, build_share_percent: 80, auto_recharge: false,
  cycle_start: '2026-11-01T00:00:00.000Z', cycle_end: '2026-12-01T00:00:00.000Z', sites: 3, builds_in_cycle: 16, team_builds_used: 4,
  site_builds_used: 2, builds_left: 12, credits_used: 60, allowed_now: 10, may_build: true, share_spent: false, next_build_at: NOW, ...over,
});
const site = (name: string, status: DeployFacts | null, over: Partial<BoardSite> = {}): BoardSite => ({
  organization_id: name.toLowerCase(), name, slug: name.toLowerCase(), domain: null, role: 'admin', time_zone: 'America/Chicago', status,
  queued_next_7_days: 0, published_this_month: 0, views_this_month: 0, indexnow_failures: 0, ...over,
});

describe('boardRow', () => {
  it('words the state as the header does and names nothing to act on for a live site', () => {
    const row = boardRow(site('Acme', facts({ latest_deploy: succeeded, budget: budget() })));
    expect(row).toMatchObject({ state: 'live', problem: null, lastBuild: { state: 'succeeded', at: succeeded.finished_at } });
    expect(row.budget).toEqual({ deploys: 2, credits: 30, teamUsed: 4, teamBudget: 16, teamName: 'Agency', cycleEnd: '2026-12-01T00:00:00.000Z' });
  });

  it.each<[string, DeployFacts, Partial<BoardSite>, string, RegExp]>([
    ['a failed build, with its reason', facts({ latest_deploy: { ...succeeded, state: 'failed', error: 'astro build exited with code 1' } }), {}, 'failed', /^Build failed: astro build exited with code 1\.$/],
    ['no build hook', facts({ build_hook_set: false, latest_deploy: succeeded }), {}, 'no_hook', /^No build hook: nothing reaches the site/],
    ['the team\'s builds used up', facts({ latest_deploy: succeeded, pending_count: 2, newest_pending_at: at(-30), oldest_pending_at: at(-60), budget: budget({ share_spent: true, may_build: false, builds_left: 0, team_builds_used: 16 }) }), {}, 'waiting_budget', /^Deploy budget used up: automatic builds resume on Dec 1\.$/],
    ['the team\'s builds nearly used up', facts({ latest_deploy: succeeded, budget: budget({ team_builds_used: 15, builds_left: 1 }) }), {}, 'live', /^Deploy budget nearly used: 1 of 16 builds left for Agency until Dec 1\.$/],
    ['IndexNow failures', facts({ latest_deploy: succeeded }), { indexnow_failures: 2 }, 'live', /^2 IndexNow submissions failed this month/],
  ])('names %s as the first problem', (_case, status, over, state, problem) => {
    const row = boardRow(site('Acme', status, over));
    expect(row.state).toBe(state);
    expect(row.problem).toMatch(problem);
  });

  it('puts a failed build before every other problem', () => {
    const status = facts({ latest_deploy: { ...succeeded, state: 'failed', error: 'boom' }, budget: budget({ share_spent: true, may_build: false }) });
    expect(boardRow(site('Acme', status, { indexnow_failures: 3 })).problem).toBe('Build failed: boom.');
  });

  it('shows a site without a recorded build or budget plainly', () => {
    expect(boardRow(site('Acme', facts()))).toMatchObject({ state: 'no_build', lastBuild: null, budget: null, problem: null });
    expect(boardRow(site('Acme', null))).toMatchObject({ state: 'no_build', problem: null });
  });
});

describe('sorting and filtering the board', () => {
  const rows = [
    boardRow(site('Beta', facts({ latest_deploy: succeeded }), { views_this_month: 40, role: 'viewer', domain: 'beta.example' })),
    boardRow(site('Alpha', facts({ latest_deploy: { ...succeeded, state: 'failed', error: 'boom' } }), { views_this_month: 10 })),
    boardRow(site('Gamma', facts({ build_hook_set: false }), { views_this_month: 25, role: 'editor' })),
  ];
  const names = (list: typeof rows) => list.map((row) => row.site.name);

  it('sorts by any column, either way, ties by name', () => {
    expect(names(sortBoard(rows, 'name', false))).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(names(sortBoard(rows, 'views', true))).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect(names(sortBoard(rows, 'state', false))).toEqual(['Alpha', 'Gamma', 'Beta']);
    expect(names(sortBoard(rows, 'problem', false))).toEqual(['Alpha', 'Gamma', 'Beta']);
  });

  it('filters by words, state, problem and role together', () => {
    const all = { text: '', state: 'all', problemsOnly: false, role: 'all' } as const;
    expect(names(filterBoard(rows, { ...all, text: 'BETA.ex' }))).toEqual(['Beta']);
    expect(names(filterBoard(rows, { ...all, state: 'failed' }))).toEqual(['Alpha']);
    expect(names(filterBoard(rows, { ...all, problemsOnly: true }))).toEqual(['Alpha', 'Gamma']);
    expect(names(filterBoard(rows, { ...all, problemsOnly: true, role: 'editor' }))).toEqual(['Gamma']);
    expect(filterBoard(rows, { ...all, text: 'nothing like it' })).toEqual([]);
  });
});

describe('how often the open board reads again', () => {
  it("as often as the header for a few sites, less often for many: its cost to the database stays about 1% of a core", () => {
    expect(boardPollMs(0, 5_000)).toBe(5_000);
    expect(boardPollMs(40, 5_000)).toBe(5_000);
    expect(boardPollMs(500, 5_000)).toBe(25_000);
    // About 0.3 ms of the database's time a site (bench area `agency`), at most about 1% of a core.
    expect((500 * 0.3) / boardPollMs(500, 5_000)).toBeLessThanOrEqual(0.01);
  });
});
