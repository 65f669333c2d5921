import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, setBuildHook, settleBuilds, startHookReceiver, webhookRequest } from './support/webhook-backend.ts';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import sendDueRebuilds from '../../netlify/functions/admin-send-due-rebuilds.mts';
import { backend, seed, signedInClient } from './support/db-fixtures.ts';
import { flushDueRebuilds, requestRebuild } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

const QUIET_WINDOW_MS = 1500;
const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs = Array.from({ length: 20 }, (_, i) => `rebuild-test-${run}-${i}`);
const lonePosts = Array.from({ length: 4 }, (_, i) => `rebuild-lone-${run}-${i}`);
const savedEnv = { window: process.env.REBUILD_QUIET_WINDOW_MS, retry: process.env.REBUILD_RETRY_BASE_MS, atOnce: process.env.REBUILD_AT_ONCE };
let receiver: Awaited<ReturnType<typeof startHookReceiver>>;

/** A request with what became of the send that carries it (`pending` while it waits for one). */
type RequestRow = { id: string; status: string; batch_id: string | null; attempts: number; error: string | null; sent_at: string | null; hook_failures: number };
async function withSends(requests: { id: string; batch_id: string | null }[]): Promise<RequestRow[]> {
  const ids = [...new Set(requests.flatMap((request) => request.batch_id ?? []))];
  const sends = must(await db.from('site_rebuild_sends').select('id, state, attempts, error, claimed_at, hook_failures').in('id', ids), 'sends') as
    { id: string; state: string; attempts: number; error: string | null; claimed_at: string; hook_failures: number }[];
  return requests.map((request) => {
    const send = sends.find((each) => each.id === request.batch_id);
    return { id: request.id, batch_id: request.batch_id, status: send?.state ?? 'pending', attempts: send?.attempts ?? 0, error: send?.error ?? null, sent_at: send?.claimed_at ?? null, hook_failures: send?.hook_failures ?? 0 };
  });
}
const requestsSince = async (from: string) =>
  withSends(must(await db.from('site_rebuild_requests').select('id, batch_id').eq('organization_id', SCALE_PRO.id).gte('requested_at', from).order('requested_at'), 'requests') as { id: string; batch_id: string | null }[]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  // Earlier suites' changes left requests pending in every organization (their window is an hour): they are
  // not this test's burst, and a flush of all organizations would send them.
  must(await db.from('site_rebuild_requests').delete().is('batch_id', null).select('id'), 'clear pending');
  receiver = await startHookReceiver();
  await setBuildHook(SCALE_PRO.id, receiver.url);
  process.env.REBUILD_QUIET_WINDOW_MS = String(QUIET_WINDOW_MS);
  process.env.REBUILD_RETRY_BASE_MS = '20';
  process.env.REBUILD_AT_ONCE = 'on'; // the suite's default is off (see vitest.config.ts)
});
beforeEach(() => settle());
afterEach(() => {
  process.env.REBUILD_QUIET_WINDOW_MS = String(QUIET_WINDOW_MS);
});
afterAll(async () => {
  for (const [name, value] of [['REBUILD_QUIET_WINDOW_MS', savedEnv.window], ['REBUILD_RETRY_BASE_MS', savedEnv.retry], ['REBUILD_AT_ONCE', savedEnv.atOnce]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await setBuildHook(SCALE_PRO.id, null);
  await receiver.close();
  await removeTestRows({ postSlugs: [...slugs, ...lonePosts], organizationIds: [SCALE_PRO.id], since });
});

/** Records a build of Scale Pro as Netlify's notifications would (`building`, `succeeded`, `failed`). */
const deployEvent = async (id: string, state: 'building' | 'succeeded' | 'failed', startedAt?: string) =>
  check(await db.rpc('record_site_deploy', { p_organization_id: SCALE_PRO.id, p_source: 'netlify', p_external_id: `${run}-${id}`, p_state: state, p_started_at: startedAt ?? null }), state);

/** Moves Scale Pro's builds and sends eleven minutes into the past, as if that time had passed. */
async function elevenMinutesPass(): Promise<void> {
  const client = new pg.Client({ connectionString: backend.dbUrl });
  await client.connect();
  try {
    await client.query("update public.site_deploys set started_at = started_at - interval '11 minutes', finished_at = finished_at - interval '11 minutes' where organization_id = $1", [SCALE_PRO.id]);
    // requested_at stays: the test's rows are still found by their time, and removed with the others.
    await client.query("update public.site_rebuild_sends set claimed_at = claimed_at - interval '11 minutes' where organization_id = $1", [SCALE_PRO.id]);
  } finally {
    await client.end();
  }
}

/** Nothing in flight: every batch sent so far has had its build (its deploys stay, or those batches would look unstarted). */
const settle = () => settleBuilds([SCALE_PRO.id]);

describe('rebuild requests: one build running, one waiting, no quiet window', () => {
  it('build a burst of 20 concurrent deliveries in two builds: the first change at once, the other 19 together as soon as that build ends', async () => {
    const responses = await Promise.all(
      slugs.map((slug, i) => webhook(webhookRequest(SCALE_PRO.token, { title: `Burst post ${i}`, html: `<p>Post ${i}</p>`, slug }))),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    // Exactly one delivery found no build in flight and sent its change (claims of one organization take turns).
    expect(receiver.calls).toHaveLength(1);
    const first = await requestsSince(since);
    expect(first).toHaveLength(20);
    expect(first.filter((row) => row.status === 'hook_called')).toHaveLength(1);
    expect(first.filter((row) => row.status === 'pending')).toHaveLength(19);

    // While that build has not started, and while it runs, the rest waits, however often a flush runs.
    expect(await flushDueRebuilds(serviceClient())).toEqual([]);
    await deployEvent('burst-1', 'building');
    expect(await flushDueRebuilds(serviceClient())).toEqual([]);
    expect(receiver.calls).toHaveLength(1);

    // It ends: at once (no window), the scheduled flush and four other invocations race for the same requests.
    await deployEvent('burst-1', 'succeeded');
    const [scheduled] = await Promise.all([
      publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' })),
      ...Array.from({ length: 4 }, () => flushDueRebuilds(serviceClient())),
    ]);
    expect(scheduled.status).toBe(200);
    expect(receiver.calls).toHaveLength(2);
    expect(receiver.calls[1]?.method).toBe('POST');
    // Each delivery's post trigger recorded its own request, named after the post.
    expect(new URL(receiver.calls[1]?.url ?? '', 'http://x').searchParams.get('trigger_title')).toMatch(/^19 change\(s\): Post published: rebuild-test-/);

    const sent = await requestsSince(since);
    // The first send's build reported its end; the second's has not started yet.
    expect(sent.map((row) => row.status).sort()).toEqual([...Array(19).fill('hook_called'), 'succeeded']);
    expect(new Set(sent.map((row) => row.batch_id)).size).toBe(2);
    expect(sent.every((row) => row.attempts === 1 && row.error === null)).toBe(true);
  });

  it('send a lone change at once, and what arrives during its build in one follow-up build after it', async () => {
    const from = new Date().toISOString();
    const before = receiver.calls.length;
    const lone = lonePosts[0]!;
    expect((await webhook(webhookRequest(SCALE_PRO.token, { title: 'A lone post', html: '<p>Alone.</p>', slug: lone }))).status).toBe(201);
    expect(receiver.calls.length).toBe(before + 1);

    await deployEvent('lone', 'building');
    try {
      for (const slug of lonePosts.slice(1)) {
        expect((await webhook(webhookRequest(SCALE_PRO.token, { title: `During the build ${slug}`, html: '<p>Later.</p>', slug }))).status).toBe(201);
      }
      expect(await flushDueRebuilds(serviceClient())).toEqual([]); // the build still runs
      expect(receiver.calls.length).toBe(before + 1);
    } finally {
      await deployEvent('lone', 'succeeded');
    }
    expect(await flushDueRebuilds(serviceClient())).toMatchObject([{ outcome: 'hook_called', request_count: lonePosts.length - 1 }]);
    expect(receiver.calls.length).toBe(before + 2);
    const rows = await requestsSince(from);
    expect(new Set(rows.map((row) => row.batch_id)).size).toBe(2);
  });

  it('send the changes again when a hook call was answered but no build started within ten minutes (the call was lost)', async () => {
    const from = new Date().toISOString();
    const before = receiver.calls.length;
    const { requestId, flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'lost call');
    expect(flushed).toMatchObject([{ outcome: 'hook_called', request_count: 1 }]);
    expect(await flushDueRebuilds(serviceClient())).toEqual([]);
    // Eleven minutes pass with no build reported: Scale Pro's history moves back in time.
    await elevenMinutesPass();
    expect(await flushDueRebuilds(serviceClient())).toMatchObject([{ outcome: 'hook_called', request_count: 1, reasons: ['lost call'] }]);
    expect(receiver.calls.length).toBe(before + 2);
    const [resent] = await withSends([must(await db.from('site_rebuild_requests').select('id, batch_id').eq('id', requestId).single(), 'request') as { id: string; batch_id: string }]);
    expect(resent).toMatchObject({ status: 'hook_called', attempts: 1 });
    expect(Date.parse(resent!.sent_at!)).toBeGreaterThanOrEqual(Date.parse(from));
    // The lost one is one record too, and says what became of it.
    const lost = must(await db.from('site_rebuild_sends').select('state, error').eq('id', flushed[0]!.batch_id).single(), 'lost send');
    expect(lost).toEqual({ state: 'failed', error: 'No build started after the hook call; its changes went with the next send.' });
  });

  it('retry a failed build by itself after a backoff that doubles with each failure in a row, six times at most; a new change goes at once', async () => {
    must(await db.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO.id).is('batch_id', null).select('id'), 'clear pending');
    const retries = async () =>
      must(await db.from('site_rebuild_requests').select('reason, not_before, requested_at').eq('organization_id', SCALE_PRO.id).is('batch_id', null).eq('reason', 'Retry after a failed build'), 'retries');
    const backoffs: number[] = [];
    for (let failure = 1; failure <= 7; failure += 1) {
      await deployEvent(`failing-${failure}`, 'failed');
      const pendingRetries = await retries();
      if (failure <= 6) {
        expect(pendingRetries).toHaveLength(1);
        backoffs.push(Math.round((Date.parse(pendingRetries[0]!.not_before!) - Date.parse(pendingRetries[0]!.requested_at)) / 60_000));
        // Not due before its time: nothing is sent.
        expect(await flushDueRebuilds(serviceClient())).toEqual([]);
        must(await db.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO.id).eq('reason', 'Retry after a failed build').select('id'), 'drop retry');
      } else {
        expect(pendingRetries).toEqual([]);
      }
    }
    expect(backoffs).toEqual([1, 2, 4, 8, 16, 30]);

    // A failed build's retry comes due (its time passed): it is sent, and joins nothing else.
    await deployEvent('failing-again', 'succeeded');
    await deployEvent('failing-last', 'failed');
    const [retry] = await retries();
    expect(retry).toBeDefined();
    check(await db.from('site_rebuild_requests').update({ not_before: new Date(Date.now() - 1000).toISOString() }).eq('organization_id', SCALE_PRO.id).eq('reason', 'Retry after a failed build'), 'due');
    expect(await flushDueRebuilds(serviceClient())).toMatchObject([{ outcome: 'hook_called', request_count: 1, reasons: ['Retry after a failed build'] }]);
    await deployEvent('retried', 'succeeded');

    // After another failure, a new change does not wait for the backoff: it goes at once, and takes the retry with it.
    await deployEvent('failing-then-change', 'failed');
    expect(await retries()).toHaveLength(1);
    const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'post edited');
    expect(flushed).toMatchObject([{ outcome: 'hook_called', request_count: 2 }]);
    expect(flushed[0]!.reasons.sort()).toEqual(['Retry after a failed build', 'post edited']);
  });

  it('hold a send for a minute where builds never report (without deploy notifications nothing else could end the wait)', async () => {
    const id = crypto.randomUUID();
    const organization = { id, slug: `rebuild-silent-${run}` };
    must(await db.from('organizations').insert({ id, name: 'Silent builds', slug: organization.slug }).select('id').single(), 'organization');
    // Room for its builds whatever the day of the month (a new organization's team has Free's 300 credits).
    check(await db.rpc('place_site_in_team', { p_organization_id: id, p_team_name: organization.slug, p_monthly_credits: 10_000_000 }), 'team');
    try {
      await setBuildHook(id, receiver.url);
      const before = receiver.calls.length;
      const first = await requestRebuild(serviceClient(), organization, 'first');
      expect(first.flushed).toMatchObject([{ outcome: 'hook_called' }]);
      const second = await requestRebuild(serviceClient(), organization, 'second');
      expect(second.flushed).toEqual([]);
      check(await db.from('site_rebuild_sends').update({ claimed_at: new Date(Date.now() - 61_000).toISOString() }).eq('id', first.flushed[0]!.batch_id), 'a minute later');
      expect(await flushDueRebuilds(serviceClient(), { organizationId: id })).toMatchObject([{ outcome: 'hook_called', request_count: 1, reasons: ['second'] }]);
      expect(receiver.calls.length).toBe(before + 2);
    } finally {
      check(await db.from('organizations').delete().eq('id', id), 'remove organization');
    }
  });

  it('let only one of two concurrent first changes build at once: claims of one organization take turns', async () => {
    // An organization of its own with room for its builds: a seed organization on a backend kept between runs
    // may have spent its share of the cycle, and then nothing is claimed at all.
    const id = crypto.randomUUID();
    must(await db.from('organizations').insert({ id, name: 'Racing claims', slug: `rebuild-race-${run}` }).select('id').single(), 'organization');
    check(await db.rpc('place_site_in_team', { p_organization_id: id, p_team_name: `rebuild-race-${run}`, p_monthly_credits: 10_000_000 }), 'team');
    const [a, b] = [new pg.Client({ connectionString: backend.dbUrl }), new pg.Client({ connectionString: backend.dbUrl })];
    await Promise.all([a.connect(), b.connect()]);
    const claim = 'select * from public.claim_due_site_rebuilds($1, $2)';
    try {
      for (const [client, reason] of [[a, 'race a'], [b, 'race b']] as const) {
        await client.query('begin');
        await client.query('insert into public.site_rebuild_requests (organization_id, reason) values ($1, $2)', [id, reason]);
      }
      // Each transaction sees only its own request; without taking turns, each would claim it as a lone one.
      const first = await a.query(claim, [0, id]);
      const second = b.query(claim, [0, id]);
      await sleep(300);
      await a.query('commit');
      expect(first.rows).toHaveLength(1);
      expect((await second).rows).toHaveLength(0);
      await b.query('commit');
    } finally {
      await Promise.all([a.end(), b.end()]);
      check(await db.from('organizations').delete().eq('id', id), 'remove organization');
    }
  });

  it('hold even a lone change for the window when REBUILD_AT_ONCE is off (the test suites hold their builds)', async () => {
    must(await db.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO.id).is('batch_id', null).select('id'), 'clear pending');
    const before = receiver.calls.length;
    const env = { ...process.env, REBUILD_AT_ONCE: 'off' };
    check(await db.from('blog_posts').update({ title: 'A lone post, edited' }).eq('organization_id', SCALE_PRO.id).eq('slug', lonePosts[0]!), 'edit');
    expect(await flushDueRebuilds(serviceClient(), { organizationId: SCALE_PRO.id, env })).toEqual([]);
    expect(receiver.calls.length).toBe(before);
    await sleep(QUIET_WINDOW_MS + 200);
    expect(await flushDueRebuilds(serviceClient(), { organizationId: SCALE_PRO.id, env })).toMatchObject([{ outcome: 'hook_called', request_count: 1 }]);
    expect(receiver.calls.length).toBe(before + 1);
  });

  it('retry a failing hook with backoff and record the attempts', async () => {
    const from = new Date().toISOString();
    const before = receiver.calls.length;
    receiver.answerWith([500, 503]);
    const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'post edited');
    expect(flushed).toMatchObject([{ outcome: 'hook_called' }]);
    const calls = receiver.calls.slice(before);
    expect(calls).toHaveLength(3);
    // Backoff of 20 ms, then 40 ms (REBUILD_RETRY_BASE_MS doubled): each wait at least its step, however the
    // machine's load stretches the calls themselves.
    expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(20);
    expect((calls[2]?.at ?? 0) - (calls[1]?.at ?? 0)).toBeGreaterThanOrEqual(40);
    expect(await requestsSince(from)).toMatchObject([{ status: 'hook_called', attempts: 3, error: null }]);
  });

  it('record a hook that keeps failing as failed, with its error, and send the changes again after the backoff, by themselves', async () => {
    const from = new Date().toISOString();
    receiver.answerWith([500, 500, 500]);
    const { flushed } = await requestRebuild(serviceClient(), SCALE_PRO, 'post deleted');
    expect(flushed).toMatchObject([{ outcome: 'failed', error: 'Build hook answered 500 Internal Server Error' }]);
    expect(await requestsSince(from)).toMatchObject([{ status: 'failed', attempts: 3, error: 'Build hook answered 500 Internal Server Error', hook_failures: 1 }]);
    // Not at the next tick: a minute later (the backoff's first step), with nothing new needed.
    expect(await flushDueRebuilds(serviceClient(), { organizationId: SCALE_PRO.id })).toEqual([]);
    check(await db.from('site_rebuild_sends').update({ retry_at: new Date(Date.now() - 1000).toISOString() }).eq('organization_id', SCALE_PRO.id).eq('state', 'failed').gte('claimed_at', from), 'a minute later');
    expect(await flushDueRebuilds(serviceClient(), { organizationId: SCALE_PRO.id })).toMatchObject([{ outcome: 'hook_called', request_count: 1, reasons: ['post deleted'] }]);
    expect(await requestsSince(from)).toMatchObject([{ status: 'hook_called', attempts: 1, error: null, hook_failures: 0 }]);
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
      // What failed is sent with the next flush: this test's request goes now, so the next test starts clean.
      await flushDueRebuilds(serviceClient(), { organizationId: SCALE_PRO.id });
    }
  });
});

describe('POST /api/admin/send-due-rebuilds (the back office, right after a change)', () => {
  const call = (token: string | null, body: unknown = { organization_id: SCALE_PRO.id }) =>
    sendDueRebuilds(new Request('http://localhost/api/admin/send-due-rebuilds', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }));
  const tokenOf = async (email: string) => (await (await signedInClient(email)).auth.getSession()).data.session?.access_token ?? '';

  it('sends an editor\'s lone change at once; anon, a viewer and another organization\'s admin send nothing', async () => {
    const from = new Date().toISOString();
    const before = receiver.calls.length;
    const editor = await signedInClient(seed.users.editor.email);
    check(await editor.from('blog_posts').update({ title: 'Edited by the editor' }).eq('organization_id', SCALE_PRO.id).eq('slug', lonePosts[1]!), 'editor edit');
    expect(await requestsSince(from)).toMatchObject([{ status: 'pending' }]);

    expect((await call(null)).status).toBe(401);
    expect((await call(await tokenOf(seed.users.viewer.email))).status).toBe(403);
    expect((await call(await tokenOf(seed.users.otherAdmin.email))).status).toBe(403);
    expect((await call(await tokenOf(seed.users.editor.email), { organization_id: 'nope' })).status).toBe(400);
    expect(receiver.calls.length).toBe(before);
    expect(await requestsSince(from)).toMatchObject([{ status: 'pending' }]);

    const answer = await call(await tokenOf(seed.users.editor.email));
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ message: 'Build started', started: true });
    expect(receiver.calls.length).toBe(before + 1);
    expect(await requestsSince(from)).toMatchObject([{ status: 'hook_called' }]);

    // Asking again starts nothing: only what the database holds due is sent.
    const again = await call(await tokenOf(seed.users.editor.email));
    expect(await again.json()).toEqual({ message: 'Nothing due', started: false });
    expect(receiver.calls.length).toBe(before + 1);
  });
});
