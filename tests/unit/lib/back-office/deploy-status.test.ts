import { describe, expect, it } from 'vitest';
import {
  BUILD_REPORT_TIMEOUT_MS, BUILD_START_TIMEOUT_MS, describeDeployState, isPostLive, nextBuildAt, postOnSite, type DeployFacts,
} from '../../../../src/lib/back-office/deploy-status.ts';

const NOW = '2026-11-23T15:00:00.000Z';
const at = (secondsFromNow: number) => new Date(Date.parse(NOW) + secondsFromNow * 1000).toISOString();
/** Production's facts: no hold, builds that report, none recorded yet. */
const facts = (over: Partial<DeployFacts> = {}): DeployFacts => ({
  pending_count: 0, oldest_pending_at: null, newest_pending_at: null, next_attempt_at: null, scheduler_ran_at: at(-20), quiet_window_ms: 0,
  reports_builds: true, recent_build_ms: null, last_send: null, latest_deploy: null, live: null, budget: null, now: NOW, ...over,
});
const deploy = (state: 'building' | 'succeeded' | 'failed', startedAgo: number, over: Partial<NonNullable<DeployFacts['latest_deploy']>> = {}) => ({
  state, started_at: at(-startedAgo), finished_at: state === 'building' ? null : at(-startedAgo + 30), error: null, url: 'https://example.com', stale: false, ...over,
});
const pending = (count = 1, newestAgo = 10) => ({ pending_count: count, oldest_pending_at: at(-newestAgo - 5), newest_pending_at: at(-newestAgo) });
const sent = (secondsAgo: number, state: 'hook_called' | 'failed' | 'skipped' = 'hook_called', error: string | null = null) =>
  ({ last_send: { sent_at: at(-secondsAgo), state, error } });

describe('nextBuildAt', () => {
  it('is now for a change just made that nothing holds: its save sends it, as the editor says too', () => {
    expect(nextBuildAt(facts(pending(1, 2)), new Date(NOW))).toEqual(new Date(NOW));
    expect(describeDeployState(facts(pending(1, 2))).detail).toBe('1 change waiting; the next build starts in about 5 seconds.');
    // Held back (a hold window, a retry's wait): the scheduler's run, even for a change just made.
    expect(nextBuildAt(facts({ ...pending(1, 2), quiet_window_ms: 60_000 }), new Date(NOW))).toEqual(new Date(at(100)));
  });
  it('is the scheduler\'s next run when nothing holds the changes but their save did not send them (production)', () => {
    // The scheduler ran 20 s ago: its next run is in 40 s.
    expect(nextBuildAt(facts(pending()), new Date(NOW))).toEqual(new Date(at(40)));
  });
  it('waits for the hold where the functions hold requests (REBUILD_AT_ONCE=off)', () => {
    // Last change 10 s ago, hold 60 s: due in 50 s; the scheduler's runs are at +40 s, +100 s.
    expect(nextBuildAt(facts({ ...pending(), quiet_window_ms: 60_000 }), new Date(NOW))).toEqual(new Date(at(100)));
  });
  it('waits for an automatic retry\'s time', () => {
    expect(nextBuildAt(facts({ ...pending(), next_attempt_at: at(150) }), new Date(NOW))).toEqual(new Date(at(160)));
  });
  it('is unknown when the scheduler has not run for three minutes, or never', () => {
    expect(nextBuildAt(facts({ ...pending(), scheduler_ran_at: at(-200) }), new Date(NOW))).toBeNull();
    expect(nextBuildAt(facts({ ...pending(), scheduler_ran_at: null }), new Date(NOW))).toBeNull();
  });
});

describe('describeDeployState', () => {
  it('says building since the build started, before anything else, and that waiting changes go into the next build', () => {
    const state = describeDeployState(facts({ latest_deploy: deploy('building', 60), ...pending(2) }));
    expect(state).toMatchObject({ kind: 'building', retry: false });
    expect(state.title).toMatch(/^Building since \d{1,2}:\d{2} (AM|PM)$/);
    expect(state.detail).toBe('The site is being rebuilt with the latest changes. 2 more changes go into the next build, right after it.');
  });
  it('counts down to the scheduler\'s run while changes wait and nothing builds', () => {
    const state = describeDeployState(facts(pending(2)));
    expect(state).toMatchObject({ kind: 'waiting', title: 'Changes waiting', detail: '2 changes waiting; the next build starts in about 40 seconds.' });
  });
  it('says so when changes wait and the scheduler is not running', () => {
    const state = describeDeployState(facts({ ...pending(), scheduler_ran_at: null }));
    expect(state.detail).toBe('1 change waiting, but the build scheduler has not run.');
  });
  it('is up to date with a link once the latest build succeeded', () => {
    const state = describeDeployState(facts({ latest_deploy: deploy('succeeded', 120), live: { started_at: at(-120), finished_at: at(-90), url: 'https://example.com' } }));
    expect(state).toMatchObject({ kind: 'live', title: 'Up to date', href: 'https://example.com', retry: false });
    expect(state.detail).toMatch(/^Live since \d{1,2}:\d{2} (AM|PM)\.$/);
  });
  it('is failed with the build\'s reason and Retry, and says when it is tried again by itself', () => {
    expect(describeDeployState(facts({ latest_deploy: deploy('failed', 120, { error: 'astro build exited with code 1' }) }))).toMatchObject({
      kind: 'failed', title: 'Build failed', detail: 'astro build exited with code 1. Retry builds again.', retry: true,
    });
    const retrying = describeDeployState(facts({ latest_deploy: deploy('failed', 120, { error: 'astro build exited with code 1' }), ...pending(1, 60), next_attempt_at: at(60) }));
    expect(retrying).toMatchObject({ kind: 'failed', title: 'Build failed', retry: true });
    expect(retrying.detail).toMatch(/^astro build exited with code 1\. It is tried again by itself at \d{1,2}:\d{2} (AM|PM); Retry builds now\.$/);
  });
  it('says the build failed with no answer, with Retry, when a running build stopped reporting', () => {
    const state = describeDeployState(facts({ latest_deploy: deploy('building', 3600, { stale: true }) }));
    expect(state).toMatchObject({ kind: 'no_answer', title: 'Build failed', retry: true });
    expect(state.detail).toMatch(/^No answer from the build since \d{1,2}:\d{2} (AM|PM)\. It may have stopped without reporting; Retry starts a new build\.$/);
  });
  it('says the build failed when a requested build did not start in time where builds report', () => {
    const base = { latest_deploy: deploy('succeeded', 7200) };
    expect(describeDeployState(facts({ ...base, ...sent(BUILD_START_TIMEOUT_MS / 1000 - 60) })).kind).toBe('requested');
    expect(describeDeployState(facts({ ...base, ...sent(BUILD_START_TIMEOUT_MS / 1000 + 60) }))).toMatchObject({
      kind: 'failed', title: 'Build failed', detail: 'The build did not start within 10 minutes of its request. The changes are sent again within a minute; Retry sends them now.', retry: true,
    });
  });
  it('waits longer for a first report where builds never reported, then says there was no answer', () => {
    const base = { latest_deploy: null, reports_builds: false };
    expect(describeDeployState(facts({ ...base, ...sent(BUILD_REPORT_TIMEOUT_MS / 1000 - 60) })).kind).toBe('requested');
    expect(describeDeployState(facts({ ...base, ...sent(BUILD_REPORT_TIMEOUT_MS / 1000 + 60) }))).toMatchObject({ kind: 'no_answer', retry: true });
    // Changes waiting now start a new build: they come first.
    expect(describeDeployState(facts({ ...base, ...sent(BUILD_REPORT_TIMEOUT_MS / 1000 + 60), ...pending() })).kind).toBe('waiting');
  });
  it('reports a request newer than the latest build: requested (with what waits for the next), refused by the hook, or skipped', () => {
    const base = { latest_deploy: deploy('succeeded', 600) };
    expect(describeDeployState(facts({ ...base, ...sent(5), ...pending(1, 2) }))).toMatchObject({
      kind: 'requested', detail: 'Waiting for the build to start. 1 more change goes into the next build, right after it.',
    });
    expect(describeDeployState(facts({ ...base, ...sent(5, 'failed', 'Build hook answered 500') }))).toMatchObject({
      kind: 'failed', detail: 'Build hook answered 500. It is tried again within a minute; Retry tries now.',
    });
    // A skipped build says why, a sentence of its own, and offers no Retry that cannot help.
    expect(describeDeployState(facts({ ...base, ...sent(5, 'skipped', 'A loopback build hook is only used with a local backend') }))).toEqual({
      kind: 'not_built', title: 'Not rebuilt', detail: 'A loopback build hook is only used with a local backend.', href: null, retry: false,
    });
    // An older request is history: the build after it speaks.
    expect(describeDeployState(facts({ ...base, ...sent(700, 'failed', 'old') })).kind).toBe('live');
  });
  it('claims nothing when no build was ever recorded', () => {
    expect(describeDeployState(facts())).toMatchObject({ kind: 'unknown', title: 'No changes waiting' });
  });
});

describe('isPostLive', () => {
  const live = facts({ latest_deploy: deploy('succeeded', 100), live: { started_at: at(-100), finished_at: at(-70), url: null } });
  const post = (updatedAgo: number, status = 'published') => ({ status, published_at: at(-1000), updated_at: at(-updatedAgo) });
  it('is live when the latest successful build started after its last change', () => {
    expect(isPostLive(post(200), live)).toBe(true);
    expect(isPostLive(post(50), live)).toBe(false);
  });
  it('is never live unless published', () => {
    expect(isPostLive(post(200, 'draft'), live)).toBe(false);
    expect(isPostLive(post(200, 'scheduled'), live)).toBe(false);
  });
  it('is unknown with no build recorded, and not live when builds only failed', () => {
    expect(isPostLive(post(200), facts())).toBeNull();
    expect(isPostLive(post(200), facts({ latest_deploy: deploy('failed', 100) }))).toBe(false);
  });
});

describe('a site without a build hook', () => {
  it('is told at once, in the header and the editor, that nothing reaches the site until a hook is set; no Retry', () => {
    const given = facts({ build_hook_set: false, ...pending(1, 2), latest_deploy: deploy('succeeded', 600) });
    expect(describeDeployState(given)).toEqual({
      kind: 'no_hook',
      title: 'Not rebuilt: no build hook',
      detail: 'Changes are saved, but nothing reaches the site until an admin sets its build hook under Settings, Hosting & builds.',
      href: null,
      retry: false,
    });
    const post = { status: 'published', published_at: new Date(Date.parse(given.now) - 1000).toISOString(), updated_at: new Date(Date.parse(given.now) - 1000).toISOString() };
    expect(postOnSite(post, given)).toEqual({ kind: 'failed', text: 'This site has no build hook, so your post is not live until an admin sets one under Settings, Hosting & builds.' });
    expect(describeDeployState({ ...given, build_hook_set: true }).kind).toBe('waiting');
  });
});

describe('postOnSite', () => {
  // The recent builds took 25 s; the last started 100 s ago; the post changed 10 s ago.
  const built = { latest_deploy: deploy('succeeded', 100), live: { started_at: at(-100), finished_at: at(-70), url: null }, recent_build_ms: 25_000 };
  const published = { status: 'published', published_at: at(-10), updated_at: at(-10) };
  const unpublished = { status: 'draft', published_at: null, updated_at: at(-10) };

  it.each([
    ['goes out at once when nothing builds: the recent builds\' time', published, facts({ ...built, ...pending() }),
      'waiting', 'It goes live on the site in about 25 seconds, when the site rebuilds.'],
    ['says when an unpublished post leaves the site', unpublished, facts({ ...built, ...pending() }),
      'waiting', 'It leaves the site in about 25 seconds, when the site rebuilds.'],
    ['counts the build\'s time from a request sent with the change', published, facts({ ...built, ...sent(5) }),
      'waiting', 'It goes live on the site in about 25 seconds, when the site rebuilds.'],
    ['waits for a requested build without the change, then its own', published, facts({ ...built, ...sent(20), ...pending(1, 10) }),
      'waiting', 'It goes live on the site in about 50 seconds, when the site rebuilds.'],
    ['counts down a build that started after the change', published, facts({ live: built.live, recent_build_ms: 30_000, latest_deploy: deploy('building', 5) }),
      'building', 'The site is rebuilding with this change. It goes live on the site in about 25 seconds.'],
    ['waits for the running build to end when it started before the change, then builds', published, facts({ live: built.live, recent_build_ms: 30_000, latest_deploy: deploy('building', 20), ...pending() }),
      'waiting', 'It goes live on the site in about 40 seconds, when the site rebuilds.'],
    ['is live once a build that started after the change succeeded', published, facts({ latest_deploy: deploy('succeeded', 5), live: { started_at: at(-5), finished_at: at(0), url: null } }),
      'done', 'Your post is live.'],
    ['is off the site once such a build succeeded', unpublished, facts({ latest_deploy: deploy('succeeded', 5), live: { started_at: at(-5), finished_at: at(0), url: null } }),
      'done', 'Your post is off the site.'],
    ['says the build failed, with its reason', published, facts({ live: built.live, latest_deploy: deploy('failed', 5, { error: 'astro build exited with code 1' }) }),
      'failed', 'Build failed: astro build exited with code 1. Retry builds again. Your post is not live yet.'],
    ['says the request was refused', unpublished, facts({ ...built, ...sent(5, 'failed', 'Build hook answered 500') }),
      'failed', 'Build failed: Build hook answered 500. It is tried again within a minute; Retry tries now. Your post is still on the site.'],
    ['waits for the scheduler where the functions hold requests, and cannot tell without it', published, facts({ ...built, ...pending(), quiet_window_ms: 60_000, scheduler_ran_at: null }),
      'waiting', 'It goes live on the site when the site next rebuilds.'],
  ])('%s', (_name, post, given, kind, text) => {
    expect(postOnSite(post, given)).toEqual({ kind, text });
  });

  it('takes a minute for a build when none succeeded yet', () => {
    expect(postOnSite(published, facts(sent(5))).text).toBe('It goes live on the site in about 60 seconds, when the site rebuilds.');
  });
});

describe('the build budget', () => {
  /** A Free team's site (16 builds this cycle), ahead of its pace unless `over` says otherwise. */
  const budget = (over: Partial<NonNullable<DeployFacts['budget']>> = {}): NonNullable<DeployFacts['budget']> => ({
    team_id: 't', team_name: 'Team', monthly_credits: 300, credits_per_deploy: 15, build_share_percent: 80, auto_recharge: false,
    cycle_start: '2026-11-01T00:00:00.000Z', cycle_end: '2026-12-01T00:00:00.000Z', sites: 1, builds_in_cycle: 16, team_builds_used: 14,
    site_builds_used: 14, builds_left: 2, credits_used: 210, allowed_now: 14, may_build: false, share_spent: false, next_build_at: at(3 * 3600), ...over,
  });

  it.each([
    ['ahead of its pace: when the next build is and how many are left', budget(), 'Changes waiting', /^2 changes waiting\. Next build at \d+:\d\d [AP]M: 2 of 16 builds left this month\.$/],
    ['its share spent: when automatic builds resume', budget({ share_spent: true, builds_left: 0, team_builds_used: 16, next_build_at: '2026-12-01T00:00:00.000Z' }), 'Changes waiting',
      /^2 changes waiting\. This month's 16 builds are used: automatic builds resume on Dec 1, and the site stays as it is until then\.$/],
  ])('the header says why changes wait, %s', (_name, given, title, detail) => {
    const state = describeDeployState(facts({ ...pending(2), budget: given }));
    expect(state).toMatchObject({ kind: 'waiting', title, retry: false });
    expect(state.detail).toMatch(detail);
  });

  it('within the pace changes build at once, as before', () => {
    const state = describeDeployState(facts({ ...pending(1), budget: budget({ may_build: true, next_build_at: NOW }) }));
    expect(state.detail).toBe('1 change waiting; the next build starts in about 40 seconds.');
  });

  it('the editor is told its post waits for the budget\'s next build, in hours', () => {
    const given = facts({ live: { started_at: at(-600), finished_at: at(-570), url: null }, latest_deploy: deploy('succeeded', 600), ...pending(), budget: budget() });
    expect(postOnSite({ status: 'published', published_at: at(-10), updated_at: at(-10) }, given).text).toBe('It goes live on the site in about 3 hours, when the site rebuilds.');
  });
});
