/**
 * The build queue under crashes and races, through the real claim, the real sends to a build hook (a local
 * receiver) and the real database:
 * - a claim never puts a request into two sends: a claimer whose snapshot still saw a request waiting, while
 *   another transaction claimed it, skips it once that one commits, and leaves no send of its own;
 * - a send claimed by a function that died before its hook call is sent again once its lease is over, also where
 *   builds never report, and is recorded as failed with the reason;
 * - a hook failing for an hour is called a bounded number of times (1, 2, 4, 8, 16, 30 minutes apart), then no
 *   more by itself, and the header says so; a new change tries at once;
 * - a hook added builds the changes that were skipped for want of one.
 * Time is moved by moving the sends' stamps back (the backoff's `retry_at`, a claim's `claimed_at`).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDeployState, type DeployFacts } from '../../src/lib/back-office/deploy-status.ts';
import { flushDueRebuilds, requestRebuild } from '../../src/lib/server/rebuilds.ts';
import { backend, createMember, serviceClient, signedInClient } from './support/db-fixtures.ts';
import { setBuildHook, startHookReceiver } from './support/webhook-backend.ts';

const service = serviceClient();
const run = Date.now().toString(36);
/** Production's rule for sends (no hold), and hook retries within a call that take no time. */
const ENV = { ...process.env, REBUILD_AT_ONCE: 'on', REBUILD_QUIET_WINDOW_MS: '0', REBUILD_RETRY_BASE_MS: '1' };
let receiver: Awaited<ReturnType<typeof startHookReceiver>>;
const organizations: string[] = [];

beforeAll(async () => {
  receiver = await startHookReceiver();
});

afterAll(async () => {
  await service.from('organizations').delete().in('id', organizations);
  await receiver.close();
});

/** An organization of this test's own, in a team with room for every build, with the receiver as its hook unless `hook` is false. */
async function organization(name: string, { hook = true } = {}) {
  const id = crypto.randomUUID();
  const slug = `faults-${name}-${run}`;
  const { error } = await service.from('organizations').insert({ id, name: `Faults ${name}`, slug });
  if (error) throw new Error(error.message);
  organizations.push(id);
  await service.rpc('place_site_in_team', { p_organization_id: id, p_team_name: slug, p_monthly_credits: 10_000_000 });
  if (hook) await setBuildHook(id, receiver.url);
  return { id, slug };
}

/** The hook calls whose build is for a change of this reason (the call's `trigger_title` names the reasons). */
const callsFor = (reason: string) =>
  receiver.calls.filter((call) => new URL(call.url, 'http://hook').searchParams.get('trigger_title')?.includes(reason)).length;

async function requests(organizationId: string) {
  const { data, error } = await service.from('site_rebuild_requests').select('id, batch_id').eq('organization_id', organizationId).order('requested_at');
  if (error) throw new Error(error.message);
  return data as { id: string; batch_id: string | null }[];
}

/** The organization's sends, oldest first. */
async function sends(organizationId: string) {
  const { data, error } = await service.from('site_rebuild_sends').select('id, state, hook_failures, retry_at, error, request_count').eq('organization_id', organizationId).order('claimed_at');
  if (error) throw new Error(error.message);
  return data as { id: string; state: string; hook_failures: number; retry_at: string | null; error: string | null; request_count: number }[];
}

describe('a claim cannot double-send', () => {
  it('a claimer whose snapshot saw the requests waiting skips them once another transaction has claimed them', async () => {
    const { id } = await organization('race');
    await service.from('site_rebuild_requests').insert({ organization_id: id, reason: `race ${run}` });
    const [other, claimer] = [new pg.Client({ connectionString: backend.dbUrl }), new pg.Client({ connectionString: backend.dbUrl })];
    await Promise.all([other.connect(), claimer.connect()]);
    try {
      // Another claimer has taken the rows and not committed yet.
      await other.query('begin');
      const { rows: [send] } = await other.query('insert into public.site_rebuild_sends (organization_id) values ($1) returning id', [id]);
      await other.query('update public.site_rebuild_requests set batch_id = $2 where organization_id = $1', [id, send.id]);
      // This claim reads them as waiting, and its update waits for the other's row locks.
      const claimed = claimer.query('select * from public.claim_due_site_rebuilds(0, $1)', [id]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('commit');
      expect((await claimed).rows).toEqual([]);
      expect(await requests(id)).toEqual([{ id: expect.any(String), batch_id: send.id }]);
      expect((await sends(id)).map((each) => each.id)).toEqual([send.id]);
    } finally {
      await Promise.all([other.end(), claimer.end()]);
    }
  });
});

describe('a claim is a lease', () => {
  it('a batch whose function died before its hook call is sent once the lease is over, where builds never report', async () => {
    const { id } = await organization('died');
    await service.from('site_rebuild_requests').insert({ organization_id: id, reason: `died ${run}` });
    // The function claims, then dies: the send stays `claimed`, the hook never called.
    const { data: claimed } = await service.rpc('claim_due_site_rebuilds', { p_quiet_window_ms: 0, p_organization_id: id });
    expect(claimed).toHaveLength(1);
    expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toEqual([]);
    const before = callsFor(`died ${run}`);
    // Two minutes later: the lease is over, the next tick sends it, once.
    await service.from('site_rebuild_sends').update({ claimed_at: new Date(Date.now() - 121_000).toISOString() }).eq('organization_id', id);
    expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toMatchObject([{ outcome: 'hook_called', request_count: 1 }]);
    expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toEqual([]);
    expect(callsFor(`died ${run}`) - before).toBe(1);
    // Each send is one record: the one that died says why, the one that went says so.
    expect(await sends(id)).toMatchObject([
      { state: 'failed', error: expect.stringMatching(/^Not sent: the function that claimed it stopped before calling the hook/), request_count: 1 },
      { state: 'hook_called', error: null, request_count: 1 },
    ]);
  });
});

describe('a failing hook backs off and stops', () => {
  it('failing for an hour, it is called 6 times in 18 tries, then no more by itself; the header says so; a new change tries at once', async () => {
    const { id, slug } = await organization('failing');
    receiver.answerWith(Array(200).fill(500));
    try {
      await requestRebuild(service, { id, slug }, `failing ${run}`, ENV);
      let sent = 1;
      // An hour, minute by minute: each tick moves the backoff's time one minute nearer.
      for (let minute = 1; minute <= 60; minute += 1) {
        const latest = (await sends(id)).at(-1)!;
        if (latest.retry_at && latest.retry_at !== 'infinity') {
          await service.from('site_rebuild_sends').update({ retry_at: new Date(Date.parse(latest.retry_at) - 60_000).toISOString() }).eq('id', latest.id);
        }
        sent += (await flushDueRebuilds(service, { organizationId: id, env: ENV })).length;
      }
      // Sent at minutes 0, 1, 3, 7, 15 and 31: six sends of three tries each.
      expect(sent).toBe(6);
      expect(callsFor(`failing ${run}`)).toBe(18);
      // At minute 61 the seventh, and then it stops.
      const sixth = (await sends(id)).at(-1)!;
      await service.from('site_rebuild_sends').update({ retry_at: new Date(Date.now() - 1000).toISOString() }).eq('id', sixth.id);
      expect(sixth.hook_failures).toBe(6);
      expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toHaveLength(1);
      expect((await sends(id)).at(-1)).toMatchObject({ state: 'failed', hook_failures: 7, retry_at: 'infinity' });
      expect(await sends(id)).toHaveLength(7);
      const admin = await createMember('admin', id);
      try {
        const { data } = await (await signedInClient(admin.email)).rpc('site_deploy_status', { p_organization_id: id });
        const state = describeDeployState(data as DeployFacts);
        expect(state).toMatchObject({ kind: 'failed', title: 'Build failed', retry: true });
        expect(state.detail).toBe('Build hook answered 500 Internal Server Error. It is no longer tried by itself: the next change, or Retry, tries again.');
      } finally {
        await admin.remove();
      }
      // A new change tries at once, with what failed.
      receiver.answerWith([]);
      const { flushed } = await requestRebuild(service, { id, slug }, `another ${run}`, ENV);
      expect(flushed).toMatchObject([{ outcome: 'hook_called', request_count: 2 }]);
    } finally {
      receiver.answerWith([]);
    }
  });
});

describe('adding a hook builds what waited', () => {
  it('changes skipped for want of a hook are sent when one is set', async () => {
    const { id, slug } = await organization('no-hook', { hook: false });
    const { flushed } = await requestRebuild(service, { id, slug }, `before the hook ${run}`, ENV);
    expect(flushed).toMatchObject([{ outcome: 'skipped', error: 'No build hook configured for this organization' }]);
    // Its admin is told at once that nothing reaches the site until a hook is set, with no Retry; then it is set.
    const admin = await createMember('admin', id);
    const status = async () => ((await (await signedInClient(admin.email)).rpc('site_deploy_status', { p_organization_id: id })).data as DeployFacts);
    try {
      expect((await status()).build_hook_set).toBe(false);
      expect(describeDeployState(await status())).toMatchObject({ kind: 'no_hook', title: 'Not rebuilt: no build hook', retry: false });
      await setBuildHook(id, receiver.url);
      expect((await status()).build_hook_set).toBe(true);
    } finally {
      await admin.remove();
    }
    expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toMatchObject([{ outcome: 'hook_called', request_count: 1, reasons: [`before the hook ${run}`] }]);
  });
});
