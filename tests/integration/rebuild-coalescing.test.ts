import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { db, must, removeTestRows, SCALE_PRO, setBuildHook, startHookReceiver, webhookRequest } from './support/webhook-backend.ts';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import { flushDueRebuilds, requestRebuild } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

const QUIET_WINDOW_MS = 1500;
const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs = Array.from({ length: 20 }, (_, i) => `rebuild-test-${run}-${i}`);
const savedEnv = { window: process.env.REBUILD_QUIET_WINDOW_MS, retry: process.env.REBUILD_RETRY_BASE_MS };
let receiver: Awaited<ReturnType<typeof startHookReceiver>>;

type RequestRow = { status: string; batch_id: string | null; attempts: number; error: string | null; sent_at: string | null };
const requestsSince = async (from: string) =>
  must(await db.from('site_rebuild_requests').select('status, batch_id, attempts, error, sent_at').eq('organization_id', SCALE_PRO.id).gte('requested_at', from), 'requests') as RequestRow[];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  // Earlier suites' changes left requests pending in every organization (their window is an hour): they are
  // not this test's burst, and a flush of all organizations would send them.
  must(await db.from('site_rebuild_requests').delete().eq('status', 'pending').select('id'), 'clear pending');
  receiver = await startHookReceiver();
  await setBuildHook(SCALE_PRO.id, receiver.url);
  process.env.REBUILD_QUIET_WINDOW_MS = String(QUIET_WINDOW_MS);
  process.env.REBUILD_RETRY_BASE_MS = '20';
});
afterEach(() => {
  process.env.REBUILD_QUIET_WINDOW_MS = String(QUIET_WINDOW_MS);
});
afterAll(async () => {
  for (const [name, value] of [['REBUILD_QUIET_WINDOW_MS', savedEnv.window], ['REBUILD_RETRY_BASE_MS', savedEnv.retry]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await setBuildHook(SCALE_PRO.id, null);
  await receiver.close();
  await removeTestRows({ postSlugs: slugs, organizationIds: [SCALE_PRO.id], since });
});

describe('rebuild requests', () => {
  it('coalesce a burst of 20 deliveries inside the quiet window into exactly one build-hook call', async () => {
    const responses = await Promise.all(
      slugs.map((slug, i) => webhook(webhookRequest(SCALE_PRO.token, { title: `Burst post ${i}`, html: `<p>Post ${i}</p>`, slug }))),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    expect(receiver.calls).toHaveLength(0);
    const pending = await requestsSince(since);
    expect(pending).toHaveLength(20);
    expect(pending.every((row) => row.status === 'pending')).toBe(true);

    // Inside the window nothing is due, however often a flush runs.
    expect(await flushDueRebuilds(serviceClient())).toEqual([]);

    await sleep(QUIET_WINDOW_MS + 200);
    // The scheduled flush and four other invocations race for the same requests.
    const [scheduled] = await Promise.all([
      publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' })),
      ...Array.from({ length: 4 }, () => flushDueRebuilds(serviceClient())),
    ]);
    expect(scheduled.status).toBe(200);
    expect(receiver.calls).toHaveLength(1);
    expect(receiver.calls[0]?.method).toBe('POST');
    // Each delivery's post trigger recorded its own request, named after the post.
    expect(new URL(receiver.calls[0]?.url ?? '', 'http://x').searchParams.get('trigger_title')).toMatch(/^20 change\(s\): Post published: rebuild-test-/);

    const sent = await requestsSince(since);
    expect(sent.map((row) => row.status)).toEqual(Array(20).fill('succeeded'));
    expect(new Set(sent.map((row) => row.batch_id)).size).toBe(1);
    expect(sent.every((row) => row.attempts === 1 && row.error === null)).toBe(true);
  });

  it('send at once when the quiet window has already passed', async () => {
    process.env.REBUILD_QUIET_WINDOW_MS = '0';
    const before = receiver.calls.length;
    const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'settings saved');
    expect(flushed).toMatchObject([{ outcome: 'succeeded', request_count: 1, reasons: ['settings saved'] }]);
    expect(receiver.calls.length).toBe(before + 1);
  });

  it('retry a failing hook with backoff and record the attempts', async () => {
    process.env.REBUILD_QUIET_WINDOW_MS = '0';
    const from = new Date().toISOString();
    const before = receiver.calls.length;
    receiver.answerWith([500, 503]);
    const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'post edited');
    expect(flushed).toMatchObject([{ outcome: 'succeeded' }]);
    const calls = receiver.calls.slice(before);
    expect(calls).toHaveLength(3);
    expect((calls[2]?.at ?? 0) - (calls[1]?.at ?? 0)).toBeGreaterThanOrEqual((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0));
    expect(await requestsSince(from)).toMatchObject([{ status: 'succeeded', attempts: 3, error: null }]);
  });

  it('record a hook that keeps failing as failed, with its error', async () => {
    process.env.REBUILD_QUIET_WINDOW_MS = '0';
    const from = new Date().toISOString();
    receiver.answerWith([500, 500, 500]);
    const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'post deleted');
    expect(flushed).toMatchObject([{ outcome: 'failed', error: 'Build hook answered 500 Internal Server Error' }]);
    expect(await requestsSince(from)).toMatchObject([{ status: 'failed', attempts: 3, error: 'Build hook answered 500 Internal Server Error' }]);
  });

  it('never call a loopback hook from a deployment whose backend is not local (it would aim at its own host)', async () => {
    const from = new Date().toISOString();
    const calls = receiver.calls.length;
    const hosted = { ...process.env, REBUILD_QUIET_WINDOW_MS: '0', SUPABASE_URL: 'https://project.supabase.co', SUPABASE_SERVICE_ROLE_KEY: 'hosted-key' };
    const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'post published', hosted);
    expect(flushed).toMatchObject([{ outcome: 'skipped', error: 'A loopback build hook is only used with a local backend' }]);
    expect(receiver.calls.length).toBe(calls);
    expect(await requestsSince(from)).toMatchObject([{ status: 'skipped' }]);
  });

  it('record an unreachable hook as failed', async () => {
    process.env.REBUILD_QUIET_WINDOW_MS = '0';
    const from = new Date().toISOString();
    // Port 1 (tcpmux) is not served here: the connection is refused.
    await setBuildHook(SCALE_PRO.id, 'http://127.0.0.1:1/build_hooks/unreachable');
    try {
      const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'post published');
      expect(flushed).toMatchObject([{ outcome: 'failed' }]);
      const [row] = await requestsSince(from);
      expect(row).toMatchObject({ status: 'failed', attempts: 3 });
      expect(row?.error).toMatch(/^Build hook unreachable/);
    } finally {
      await setBuildHook(SCALE_PRO.id, receiver.url);
    }
  });
});
