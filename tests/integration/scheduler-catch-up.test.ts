/**
 * The scheduler back after an hour away (the site's functions down, a deploy, a stopped `npm run dev`): posts
 * of two organizations fell due at several moments of that hour, and rebuild requests piled up meanwhile.
 * The first runs after its return publish every due post once, and each organization gets one build for all
 * of it, not one per missed minute; runs after that change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import { check, db, EVERGREEN, must, removeTestRows, SCALE_PRO, setBuildHook, settleBuilds, startHookReceiver } from './support/webhook-backend.ts';

const QUIET_WINDOW_MS = 1500;
const since = new Date(Date.now() - 2 * 3_600_000).toISOString();
const run = Date.now().toString(36);
const organizations = [SCALE_PRO, EVERGREEN];
/** Six posts per organization, due 5, 15, ... 55 minutes ago, and one due in an hour. */
const dueSlugs = (slug: string) => Array.from({ length: 6 }, (_, i) => `catch-up-${run}-${slug}-${i}`);
const laterSlug = (slug: string) => `catch-up-${run}-${slug}-later`;
const allSlugs = organizations.flatMap((org) => [...dueSlugs(org.slug), laterSlug(org.slug)]);
const savedEnv = { window: process.env.REBUILD_QUIET_WINDOW_MS, atOnce: process.env.REBUILD_AT_ONCE };
const receivers: Record<string, Awaited<ReturnType<typeof startHookReceiver>>> = {};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const runScheduler = async () => {
  const response = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
  expect(response.status).toBe(200);
  return (await response.json()) as { published: string[]; rebuilds: { organization_slug: string; outcome: string }[] };
};

beforeAll(async () => {
  // Earlier suites' changes left requests pending (their window is an hour): not this test's pile.
  must(await db.from('site_rebuild_requests').delete().is('batch_id', null).select('id'), 'clear pending');
  await settleBuilds(organizations.map((org) => org.id));
  for (const org of organizations) {
    receivers[org.slug] = await startHookReceiver();
    await setBuildHook(org.id, receivers[org.slug]!.url);
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    check(
      await db.from('blog_posts').insert([
        ...dueSlugs(org.slug).map((slug, i) => ({
          organization_id: org.id, slug, title: `Catch-up ${slug}`, content: '<p>Due while the scheduler was away.</p>',
          status: 'scheduled', published_at: minutesAgo(55 - i * 10),
        })),
        { organization_id: org.id, slug: laterSlug(org.slug), title: 'Later', content: '<p>Not yet.</p>', status: 'scheduled', published_at: minutesAgo(-60) },
      ]),
      'insert scheduled posts',
    );
    // Changes made during the hour (an editor's updates) whose rebuilds were never sent.
    check(
      await db.from('site_rebuild_requests').insert([50, 30, 10].map((minutes) => ({ organization_id: org.id, reason: `Edited ${minutes} minutes ago (${run})`, requested_at: minutesAgo(minutes) }))),
      'insert piled-up requests',
    );
  }
  process.env.REBUILD_QUIET_WINDOW_MS = String(QUIET_WINDOW_MS);
  process.env.REBUILD_AT_ONCE = 'on';
});

afterAll(async () => {
  for (const [name, value] of [['REBUILD_QUIET_WINDOW_MS', savedEnv.window], ['REBUILD_AT_ONCE', savedEnv.atOnce]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  for (const org of organizations) {
    await setBuildHook(org.id, null);
    await receivers[org.slug]?.close();
  }
  const ids = must(await db.from('blog_posts').select('id').in('slug', allSlugs), 'test posts').map((post) => post.id as string);
  check(await db.from('user_activity_logs').delete().in('resource_id', ids), 'remove audit entries');
  await removeTestRows({ postSlugs: allSlugs, organizationIds: organizations.map((org) => org.id), since });
});

describe('the scheduler after an hour away', () => {
  it('publishes every post whose time passed, once, and builds each organization once for all of it', async () => {
    const first = await runScheduler();
    const posts = must(await db.from('blog_posts').select('id, slug, status').in('slug', allSlugs), 'posts');
    const due = posts.filter((post) => !post.slug.endsWith('-later'));
    expect(due.every((post) => post.status === 'published')).toBe(true);
    expect(posts.filter((post) => post.slug.endsWith('-later')).map((post) => post.status)).toEqual(['scheduled', 'scheduled']);
    expect([...first.published].sort()).toEqual(expect.arrayContaining(due.map((post) => post.id).sort()));

    // The next minutes' runs, until the publications' own quiet window has passed and beyond.
    await sleep(QUIET_WINDOW_MS + 500);
    const second = await runScheduler();
    await sleep(QUIET_WINDOW_MS + 500);
    const third = await runScheduler();
    for (const later of [second, third]) expect(later.published.filter((id) => due.some((post) => post.id === id))).toEqual([]);

    for (const org of organizations) {
      expect(receivers[org.slug]!.calls.length, `builds of ${org.slug}`).toBe(1);
      const requests = must(
        await db.from('site_rebuild_requests').select('batch_id, reason').eq('organization_id', org.id).gte('requested_at', since).like('reason', `%${run}%`),
        'requests',
      );
      // The three piled-up changes and the six publications (one request, as one statement published them;
      // its reason is shortened): all sent, in one batch.
      const reasons = requests.map((request) => request.reason).join(' | ');
      for (const minutes of [50, 30, 10]) expect(reasons).toContain(`Edited ${minutes} minutes ago (${run})`);
      // Which of the six comes first is the order the statement touched them in.
      expect(dueSlugs(org.slug).map((slug) => reasons.includes(`6 changes: Scheduled post published: ${slug}`))).toContain(true);
      expect(new Set(requests.map((request) => request.batch_id)).size).toBe(1);
      const send = must(await db.from('site_rebuild_sends').select('state, request_count').eq('id', requests[0]!.batch_id).single(), 'send');
      expect(send, reasons).toEqual({ state: 'hook_called', request_count: requests.length });
    }

    // Each post went out once: one 'published' entry in the audit log per post.
    const logged = must(
      await db.from('user_activity_logs').select('resource_id').eq('action', 'post_published').in('resource_id', due.map((post) => post.id)),
      'audit entries',
    );
    expect(logged.length).toBe(due.length);
  });
});
