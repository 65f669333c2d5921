/**
 * The build queue under crashes and races, through the real claim, the real sends to a build hook (a local
 * receiver) and the real database:
 * - a claim never puts a request into two batches: a claimer whose snapshot still saw a request waiting, while
 *   another transaction claimed it, skips it once that one commits;
 * - a batch claimed by a function that died before its hook call is sent once its lease is over, also where
 *   builds never report;
 * - a hook failing for an hour is called a bounded number of times (1, 2, 4, 8, 16, 30 minutes apart), then no
 *   more by itself, and the header says so; a new change tries at once;
 * - a hook added builds the changes that were skipped for want of one.
 * Time is moved by moving the requests' stamps back (the backoff's `not_before`, a claim's `sent_at`).
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
  const { data, error } = await service.from('site_rebuild_requests').select('id, status, batch_id, hook_failures, not_before').eq('organization_id', organizationId).order('requested_at');
  if (error) throw new Error(error.message);
  return data as { id: string; status: string; batch_id: string | null; hook_failures: number; not_before: string | null }[];
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
      await other.query("update public.site_rebuild_requests set status = 'sent', sent_at = now(), batch_id = gen_random_uuid() where organization_id = $1", [id]);
      // This claim reads them as waiting, and its update waits for the other's row locks.
      const claimed = claimer.query('select * from public.claim_due_site_rebuilds(0, $1)', [id]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await other.query('commit');
      expect((await claimed).rows).toEqual([]);
      const rows = await requests(id);
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('sent');
    } finally {
      await Promise.all([other.end(), claimer.end()]);
    }
  });
});

describe('a claim is a lease', () => {
  it('a batch whose function died before its hook call is sent once the lease is over, where builds never report', async () => {
    const { id } = await organization('died');
    await service.from('site_rebuild_requests').insert({ organization_id: id, reason: `died ${run}` });
    // The function claims, then dies: the batch stays `sent`, the hook never called.
    const { data: claimed } = await service.rpc('claim_due_site_rebuilds', { p_quiet_window_ms: 0, p_organization_id: id });
    expect(claimed).toHaveLength(1);
    expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toEqual([]);
    const before = callsFor(`died ${run}`);
    // Two minutes later: the lease is over, the next tick sends it, once.
    await service.from('site_rebuild_requests').update({ sent_at: new Date(Date.now() - 121_000).toISOString() }).eq('organization_id', id);
    expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toMatchObject([{ outcome: 'hook_called', request_count: 1 }]);
    expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toEqual([]);
    expect(callsFor(`died ${run}`) - before).toBe(1);
  });
});

describe('a failing hook backs off and stops', () => {
  it('failing for an hour, it is called 6 times in 18 tries, then no more by itself; the header says so; a new change tries at once', async () => {
    const { id, slug } = await organization('failing');
    receiver.answerWith(Array(200).fill(500));
    try {
      await requestRebuild(service, { id, slug }, `failing ${run}`, ENV);
      let sends = 1;
      // An hour, minute by minute: each tick moves the backoff's time one minute nearer.
      for (let minute = 1; minute <= 60; minute += 1) {
        const [row] = await requests(id);
        if (row!.not_before && row!.not_before !== 'infinity') {
          await service.from('site_rebuild_requests').update({ not_before: new Date(Date.parse(row!.not_before) - 60_000).toISOString() }).eq('organization_id', id);
        }
        sends += (await flushDueRebuilds(service, { organizationId: id, env: ENV })).length;
      }
      // Sent at minutes 0, 1, 3, 7, 15 and 31: six sends of three tries each.
      expect(sends).toBe(6);
      expect(callsFor(`failing ${run}`)).toBe(18);
      // At minute 61 the seventh, and then it stops.
      const [row] = await requests(id);
      await service.from('site_rebuild_requests').update({ not_before: new Date(Date.now() - 1000).toISOString() }).eq('organization_id', id);
      expect(row!.hook_failures).toBe(6);
      expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toHaveLength(1);
      expect((await requests(id))[0]).toMatchObject({ hook_failures: 7, not_before: 'infinity' });
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
    await setBuildHook(id, receiver.url);
    expect(await flushDueRebuilds(service, { organizationId: id, env: ENV })).toMatchObject([{ outcome: 'hook_called', request_count: 1, reasons: [`before the hook ${run}`] }]);
  });
});
