import { describe, expect, it } from 'vitest';
import { BUILD_REPORT_TIMEOUT_MS, describeDeployState, isPostLive, nextBuildAt, postOnSite, type DeployFacts } from '../../../../src/lib/back-office/deploy-status.ts';

const NOW = '2026-11-23T15:00:00.000Z';
const at = (secondsFromNow: number) => new Date(Date.parse(NOW) + secondsFromNow * 1000).toISOString();
const facts = (over: Partial<DeployFacts> = {}): DeployFacts => ({
  pending_count: 0, oldest_pending_at: null, newest_pending_at: null, scheduler_ran_at: at(-20), quiet_window_ms: 60_000,
  last_request: null, latest_deploy: null, live: null, now: NOW, ...over,
});
const deploy = (state: 'building' | 'succeeded' | 'failed', startedAgo: number, over: Partial<NonNullable<DeployFacts['latest_deploy']>> = {}) => ({
  state, started_at: at(-startedAgo), finished_at: state === 'building' ? null : at(-startedAgo + 30), error: null, url: 'https://example.com', stale: false, ...over,
});

describe('nextBuildAt', () => {
  it('is the first scheduler run after the quiet window closed', () => {
    // Last change 10 s ago, window 60 s: due in 50 s; the scheduler ran 20 s ago, so its runs are at +40 s, +100 s.
    expect(nextBuildAt(facts({ pending_count: 1, oldest_pending_at: at(-10), newest_pending_at: at(-10) }), new Date(NOW))).toEqual(new Date(at(100)));
  });
  it('sends a steady stream after ten windows, whatever arrives', () => {
    const stream = facts({ pending_count: 30, oldest_pending_at: at(-590), newest_pending_at: at(-1) });
    expect(nextBuildAt(stream, new Date(NOW))).toEqual(new Date(at(40)));
  });
  it('is unknown when the scheduler has not run for three minutes, or never', () => {
    const pending = { pending_count: 1, oldest_pending_at: at(-10), newest_pending_at: at(-10) };
    expect(nextBuildAt(facts({ ...pending, scheduler_ran_at: at(-200) }), new Date(NOW))).toBeNull();
    expect(nextBuildAt(facts({ ...pending, scheduler_ran_at: null }), new Date(NOW))).toBeNull();
  });
});

describe('describeDeployState', () => {
  it('says building since the build started, before anything else', () => {
    const state = describeDeployState(facts({ latest_deploy: deploy('building', 60), pending_count: 2, oldest_pending_at: at(-5), newest_pending_at: at(-5) }));
    expect(state).toMatchObject({ kind: 'building', retry: false });
    expect(state.title).toMatch(/^Building since \d{1,2}:\d{2} (AM|PM)$/);
  });
  it('counts down to the next build while changes wait', () => {
    const state = describeDeployState(facts({ pending_count: 2, oldest_pending_at: at(-10), newest_pending_at: at(-10) }));
    expect(state).toMatchObject({ kind: 'waiting', title: 'Changes waiting', detail: '2 changes waiting; the next build starts in about 2 minutes.' });
  });
  it('says so when changes wait and the scheduler is not running', () => {
    const state = describeDeployState(facts({ pending_count: 1, oldest_pending_at: at(-10), newest_pending_at: at(-10), scheduler_ran_at: null }));
    expect(state.detail).toBe('1 change waiting, but the build scheduler has not run.');
  });
  it('is up to date with a link once the latest build succeeded', () => {
    const state = describeDeployState(facts({ latest_deploy: deploy('succeeded', 120), live: { started_at: at(-120), finished_at: at(-90), url: 'https://example.com' } }));
    expect(state).toMatchObject({ kind: 'live', title: 'Up to date', href: 'https://example.com', retry: false });
    expect(state.detail).toMatch(/^Live since \d{1,2}:\d{2} (AM|PM)\.$/);
  });
  it('is failed with the build\'s reason and a retry', () => {
    expect(describeDeployState(facts({ latest_deploy: deploy('failed', 120, { error: 'astro build exited with code 1' }) }))).toMatchObject({
      kind: 'failed', title: 'Build failed', detail: 'astro build exited with code 1', retry: true,
    });
  });
  it('says no answer from the build, with Retry, when a running build stopped reporting', () => {
    const state = describeDeployState(facts({ latest_deploy: deploy('building', 3600, { stale: true }) }));
    expect(state).toMatchObject({ kind: 'no_answer', title: 'No answer from the build', retry: true });
    expect(state.detail).toMatch(/^No answer from the build since \d{1,2}:\d{2} (AM|PM)\. It may have finished without reporting; Retry starts a new build\.$/);
  });
  it('says no answer from the build once a request waited longer than a build can take for its first report', () => {
    const base = { latest_deploy: deploy('succeeded', 7200) };
    const sent = (secondsAgo: number) => facts({ ...base, last_request: { sent_at: at(-secondsAgo), status: 'succeeded', error: null } });
    expect(describeDeployState(sent(BUILD_REPORT_TIMEOUT_MS / 1000 - 60)).kind).toBe('requested');
    expect(describeDeployState(sent(BUILD_REPORT_TIMEOUT_MS / 1000 + 60))).toMatchObject({ kind: 'no_answer', retry: true });
  });
  it('reports a request newer than the latest build: sent, refused by the hook, or skipped', () => {
    const base = { latest_deploy: deploy('succeeded', 600) };
    expect(describeDeployState(facts({ ...base, last_request: { sent_at: at(-5), status: 'succeeded', error: null } })).kind).toBe('requested');
    expect(describeDeployState(facts({ ...base, last_request: { sent_at: at(-5), status: 'failed', error: 'Build hook answered 500' } }))).toMatchObject({ kind: 'failed', detail: 'Build hook answered 500' });
    expect(describeDeployState(facts({ ...base, last_request: { sent_at: at(-5), status: 'skipped', error: 'No build hook configured for this organization' } }))).toMatchObject({ kind: 'not_built', retry: true });
    // An older request is history: the build after it speaks.
    expect(describeDeployState(facts({ ...base, last_request: { sent_at: at(-700), status: 'failed', error: 'old' } })).kind).toBe('live');
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

describe('postOnSite', () => {
  // The last successful build took 30 s and started 100 s ago; the post changed 10 s ago.
  const built = { latest_deploy: deploy('succeeded', 100), live: { started_at: at(-100), finished_at: at(-70), url: null } };
  const published = { status: 'published', published_at: at(-10), updated_at: at(-10) };
  const unpublished = { status: 'draft', published_at: null, updated_at: at(-10) };
  const pending = { pending_count: 1, oldest_pending_at: at(-10), newest_pending_at: at(-10) };

  it.each([
    ['waits for the next build, then the build\'s time', published, facts({ ...built, ...pending }),
      'waiting', 'It goes live on the site in about 2 minutes, when the site rebuilds.'],
    ['says when an unpublished post leaves the site', unpublished, facts({ ...built, ...pending }),
      'waiting', 'It leaves the site in about 2 minutes, when the site rebuilds.'],
    ['counts the build\'s time from a request already sent', published, facts({ ...built, last_request: { sent_at: at(-5), status: 'succeeded', error: null } }),
      'waiting', 'It goes live on the site in about 30 seconds, when the site rebuilds.'],
    ['counts down a build that started after the change', published, facts({ live: built.live, latest_deploy: deploy('building', 5) }),
      'building', 'The site is rebuilding with this change. It goes live on the site in about 25 seconds.'],
    ['waits for the next build when the running one started before the change', published, facts({ live: built.live, latest_deploy: deploy('building', 20), ...pending }),
      'waiting', 'It goes live on the site in about 2 minutes, when the site rebuilds.'],
    ['is live once a build that started after the change succeeded', published, facts({ latest_deploy: deploy('succeeded', 5), live: { started_at: at(-5), finished_at: at(0), url: null } }),
      'done', 'Your post is live.'],
    ['is off the site once such a build succeeded', unpublished, facts({ latest_deploy: deploy('succeeded', 5), live: { started_at: at(-5), finished_at: at(0), url: null } }),
      'done', 'Your post is off the site.'],
    ['says the build failed, with its reason', published, facts({ live: built.live, latest_deploy: deploy('failed', 5, { error: 'astro build exited with code 1' }) }),
      'failed', 'Build failed: astro build exited with code 1. Your post is not live yet.'],
    ['says the request was refused', unpublished, facts({ ...built, last_request: { sent_at: at(-5), status: 'failed', error: 'Build hook answered 500' } }),
      'failed', 'Build failed: Build hook answered 500. Your post is still on the site.'],
    ['cannot tell when without the scheduler', published, facts({ ...built, ...pending, scheduler_ran_at: null }),
      'waiting', 'It goes live on the site when the site next rebuilds.'],
  ])('%s', (_name, post, given, kind, text) => {
    expect(postOnSite(post, given)).toEqual({ kind, text });
  });

  it('takes a minute for a build when none succeeded yet', () => {
    expect(postOnSite(published, facts({ last_request: { sent_at: at(-5), status: 'succeeded', error: null } })).text).toBe('It goes live on the site in about 60 seconds, when the site rebuilds.');
  });
});
