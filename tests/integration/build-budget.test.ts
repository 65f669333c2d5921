/**
 * Publishing within the hosting bill, through the real build queue (claim_due_site_rebuilds), the scheduler
 * function, the admin's build function, the deploy notifications' function and the real database:
 * - a team within its pace builds at once; ahead of it, changes wait, the header says until when, and everything
 *   waiting goes into the one build the pace then allows;
 * - two sites of a team: the one with fewer builds goes first, and a site at twice its even share waits while
 *   the other builds;
 * - automatic builds stop once the cycle's share is spent; an admin's Build now builds anyway; a new cycle builds;
 * - a signed deploy notification counts as a build of its site's team;
 * - the admins get one mail at 80% and one at 95%;
 * - who may read and change a team, attacked through the raw API: only an admin of every site of the team.
 * The cycle is moved rather than the clock: a team's cycle start day decides how far into its cycle it is, and
 * builds recorded days ago (as their notifications would have) are what it has used.
 */
import { createHash } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import adminRebuild from '../../netlify/functions/admin-rebuild.mts';
import deployEvents from '../../netlify/functions/deploy-events.mts';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import { budgetWaitDetail, describeDeployState, type DeployFacts } from '../../src/lib/back-office/deploy-status.ts';
import { HostingTeamInputSchema, type BuildBudget, type TeamUsage } from '../../src/schemas/hosting-team.ts';
import { anonClient, backend, createMember, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';
import { setBuildHook, settleBuilds, startHookReceiver } from './support/webhook-backend.ts';

const service = serviceClient();
const run = Date.now().toString(36);
const DAY = 86_400_000;
let receiver: Awaited<ReturnType<typeof startHookReceiver>>;
const cleanup: (() => PromiseLike<unknown>)[] = [];
/** Production's rule for sends: no hold (the suite's servers hold an hour). */
const AT_ONCE = { REBUILD_AT_ONCE: 'on', REBUILD_QUIET_WINDOW_MS: '0' };

beforeAll(async () => {
  receiver = await startHookReceiver();
});

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  await receiver.close();
});

/** An organization of this test's own with a build hook (the receiver) and an admin, in the team named. */
async function site(name: string, team: string, figures: { credits?: number; cycleDaysAgo?: number } = {}) {
  const id = crypto.randomUUID();
  const { error } = await service.from('organizations').insert({ id, name: `Budget ${name}`, slug: `budget-${name}-${run}` });
  if (error) throw new Error(error.message);
  cleanup.push(() => service.from('organizations').delete().eq('id', id));
  await setBuildHook(id, receiver.url);
  await placeInTeam(id, team, figures);
  return id;
}

/** Puts the site in the team, whose cycle started `cycleDaysAgo` days ago (0: today). */
async function placeInTeam(organizationId: string, team: string, { credits = 300, cycleDaysAgo = 0 }: { credits?: number; cycleDaysAgo?: number }) {
  const { error } = await service.rpc('place_site_in_team', {
    p_organization_id: organizationId,
    p_team_name: `${team} ${run}`,
    p_monthly_credits: credits,
    p_cycle_start_day: new Date(Date.now() - cycleDaysAgo * DAY).getUTCDate(),
  });
  if (error) throw new Error(error.message);
}

/** Builds of the site as its deploy notifications record them, `count` of them, started `daysAgo` days ago. */
async function recordBuilds(organizationId: string, count: number, daysAgo = 0) {
  for (let n = 0; n < count; n += 1) {
    const { error } = await service.rpc('record_site_deploy', {
      p_organization_id: organizationId, p_source: 'netlify', p_external_id: `budget-${crypto.randomUUID()}`, p_state: 'succeeded',
      p_started_at: new Date(Date.now() - daysAgo * DAY).toISOString(),
    });
    if (error) throw new Error(error.message);
  }
}

/** A change visitors could see, as the database records one (the posts' trigger would). */
async function change(organizationId: string, reason: string) {
  const { error } = await service.from('site_rebuild_requests').insert({ organization_id: organizationId, reason: `${reason} ${run}` });
  if (error) throw new Error(error.message);
}

/** The site's budget, as its header reads it. */
async function budget(organizationId: string): Promise<BuildBudget> {
  return (await statusAs(organizationId)).budget!;
}

/** What the site's header reads: site_deploy_status as the organization's admin. */
const admins = new Map<string, SupabaseClient>();
async function statusAs(organizationId: string): Promise<DeployFacts> {
  let client = admins.get(organizationId);
  if (!client) {
    const admin = await createMember('admin', organizationId);
    cleanup.push(admin.remove);
    client = await signedInClient(admin.email);
    admins.set(organizationId, client);
  }
  const { data, error } = await client.rpc('site_deploy_status', { p_organization_id: organizationId });
  if (error) throw new Error(error.message);
  return data as DeployFacts;
}

/** The scheduler's minute, as Netlify runs it, with production's rule for sends. */
async function schedulerTick() {
  const saved = { ...process.env };
  Object.assign(process.env, AT_ONCE);
  try {
    const response = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
    expect(response.status).toBe(200);
    return (await response.json()) as { rebuilds: { organization_slug: string; request_count: number; outcome: string }[]; budget_mails: number };
  } finally {
    for (const key of Object.keys(AT_ONCE)) process.env[key] = saved[key];
  }
}

async function pendingCount(organizationId: string) {
  const { count } = await service.from('site_rebuild_requests').select('id', { count: 'exact', head: true }).eq('organization_id', organizationId).is('batch_id', null);
  return count ?? 0;
}

describe('pacing through the build queue', () => {
  it('builds at once within the pace; ahead of it changes wait, the header says until when, and all of them go into the next build', async () => {
    const id = await site('pace', 'Pace team', { cycleDaysAgo: 0 });
    const slug = `budget-pace-${run}`;
    // A fresh cycle: the pace allows its burst (one build of Free's 16) and no more.
    expect(await budget(id)).toMatchObject({ builds_in_cycle: 16, team_builds_used: 0, may_build: true, allowed_now: 1 });
    await change(id, 'first post');
    const first = await schedulerTick();
    expect(first.rebuilds.filter((batch) => batch.organization_slug === slug)).toEqual([expect.objectContaining({ request_count: 1, outcome: 'hook_called' })]);
    // Its build reports, and ends.
    const { data: send } = await service.from('site_rebuild_sends').select('state, request_count').eq('organization_id', id).single();
    expect(send).toEqual({ state: 'hook_called', request_count: 1 });
    await recordBuilds(id, 1);

    for (const reason of ['second post', 'an edit', 'third post']) await change(id, reason);
    const held = await schedulerTick();
    expect(held.rebuilds.filter((batch) => batch.organization_slug === slug)).toEqual([]);
    const facts = await statusAs(id);
    // The hook call and the build it started are one build.
    expect(facts.budget).toMatchObject({ may_build: false, share_spent: false, team_builds_used: 1, builds_left: 15 });
    expect(Date.parse(facts.budget!.next_build_at)).toBeGreaterThan(Date.now());
    const header = describeDeployState(facts);
    expect(header.title).toBe('Changes waiting');
    expect(header.detail).toMatch(/^3 changes waiting\. Next build at .+: 15 of 16 builds left this month\.$/);

    // Ten days on (the cycle moved back ten days): the pace allows more; the one build takes all three changes.
    await placeInTeam(id, 'Pace team', { cycleDaysAgo: 10 });
    expect((await budget(id)).may_build).toBe(true);
    const next = await schedulerTick();
    expect(next.rebuilds.filter((batch) => batch.organization_slug === slug)).toEqual([expect.objectContaining({ request_count: 3, outcome: 'hook_called' })]);
    expect(await pendingCount(id)).toBe(0);
  });

  it('serves the site with fewer builds first, and a site at twice its even share waits while the others build', async () => {
    // Three sites, 16 builds, two thirds into the cycle: the pace allows about ten; one site has used 8.
    const busy = await site('busy', 'Fair team', { cycleDaysAgo: 20 });
    const quiet = await site('quiet', 'Fair team', { cycleDaysAgo: 20 });
    await site('idle', 'Fair team', { cycleDaysAgo: 20 });
    const allowed = (await budget(busy)).allowed_now;
    const cap = Math.max(1, Math.ceil((2 * allowed) / 3));
    await recordBuilds(busy, cap, 1);
    expect(await budget(busy)).toMatchObject({ team_builds_used: cap, site_builds_used: cap, may_build: false });
    expect((await budget(quiet)).may_build).toBe(true);

    await change(busy, 'busy site burst');
    await change(quiet, 'quiet site post');
    const tick = await schedulerTick();
    const slugs = tick.rebuilds.map((batch) => batch.organization_slug);
    expect(slugs).toContain(`budget-quiet-${run}`);
    expect(slugs).not.toContain(`budget-busy-${run}`);
    expect(await pendingCount(busy)).toBe(1);
  });

  it('stops automatic builds once the share is spent; an admin builds by hand, told what is left; a new cycle builds again', async () => {
    const id = await site('spent', 'Spent team', { cycleDaysAgo: 3 });
    await recordBuilds(id, 16, 1);
    await change(id, 'after the share');
    const tick = await schedulerTick();
    expect(tick.rebuilds.map((batch) => batch.organization_slug)).not.toContain(`budget-spent-${run}`);
    const facts = await statusAs(id);
    expect(facts.budget).toMatchObject({ share_spent: true, builds_left: 0, may_build: false });
    expect(budgetWaitDetail(facts.budget!, null, new Date())).toMatch(/^This month's 16 builds are used: automatic builds resume on /);

    // The admin's Build now: past the pace, through the admin function; counted like any build.
    const token = (await admins.get(id)!.auth.getSession()).data.session!.access_token;
    const built = await adminRebuild(new Request('http://localhost/api/admin/rebuild', {
      method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ organization_id: id }),
    }));
    expect(built.status).toBe(202);
    expect(await built.json()).toMatchObject({ started: true });
    expect(await pendingCount(id)).toBe(0);
    expect((await budget(id)).team_builds_used).toBe(17);

    // The next cycle (it starts today): the builds of earlier days no longer count.
    await recordBuilds(id, 1);
    await change(id, 'next cycle');
    await placeInTeam(id, 'Spent team', { cycleDaysAgo: 0 });
    // Today's own build counts in the new cycle; yesterday's sixteen do not.
    const fresh = await budget(id);
    expect(fresh.team_builds_used).toBeLessThan(16);
    expect(fresh.share_spent).toBe(false);
  });

  it('counts a signed deploy notification as a build of its site\'s team', async () => {
    const SECRET = `budget-secret-${run}`;
    const saved = process.env.DEPLOY_NOTIFICATION_SECRET;
    process.env.DEPLOY_NOTIFICATION_SECRET = SECRET;
    try {
      const before = (await service.rpc('hosting_team_usage', { p_organization_id: seed.scalePro })).data;
      expect(before).toBeNull(); // the service role administers no team: the usage is for admins of every site
      const used = async () => ((await statusAs(seed.scalePro)).budget as BuildBudget).team_builds_used;
      // A send of an earlier test still waiting for its build would be the one this build answers: none waits.
      await settleBuilds([seed.scalePro]);
      const start = await used();
      for (const state of ['building', 'ready']) {
        const body = JSON.stringify({ id: `budget-${run}`, state, context: 'production', created_at: new Date().toISOString(), ssl_url: 'https://scalepromarketing.com' });
        const signature = await new SignJWT({ sha256: createHash('sha256').update(body).digest('hex') }).setProtectedHeader({ alg: 'HS256' }).setIssuer('netlify').sign(new TextEncoder().encode(SECRET));
        const answer = await deployEvents(new Request('http://localhost/api/deploy-events', { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': signature }, body }));
        expect(answer.status).toBe(202);
      }
      expect(await used()).toBe(start + 1);
    } finally {
      if (saved === undefined) delete process.env.DEPLOY_NOTIFICATION_SECRET;
      else process.env.DEPLOY_NOTIFICATION_SECRET = saved;
    }
  });
});

describe("the queues' pace in Settings", () => {
  it('counts the builds scheduled posts need: posts that go out at one time are one build', async () => {
    // Early in a cycle, so the posts' times (a day and two days ahead) fall within it.
    const id = await site('slots', 'Slot team', { cycleDaysAgo: 0 });
    await statusAs(id); // makes the site's admin, who administers every site of its team
    const [slot, later] = [1, 2].map((days) => new Date(Date.now() + days * DAY).toISOString());
    const post = (n: number, publishedAt: string) => ({ organization_id: id, slug: `slot-${n}-${run}`, title: `Slot ${n}`, content: '<p>x</p>', status: 'scheduled', published_at: publishedAt });
    const { error } = await service.from('blog_posts').insert([post(1, slot!), post(2, slot!), post(3, slot!), post(4, later!)]);
    expect(error).toBeNull();
    const { data, error: readError } = await admins.get(id)!.rpc('hosting_team_usage', { p_organization_id: id });
    expect(readError).toBeNull();
    expect((data as TeamUsage).sites).toEqual([expect.objectContaining({ organization_id: id, scheduled_in_cycle: 4, scheduled_slots_in_cycle: 2 })]);
  });
});

describe('alerts', () => {
  it('mails the admins once at 80% of the share and once at 95%', async () => {
    const id = await site('alerts', 'Alert team', { cycleDaysAgo: 5 });
    await statusAs(id); // makes the site's admin
    const { data: member } = await service.from('organization_memberships').select('profiles(email)').eq('organization_id', id).eq('role', 'admin').single();
    const email = (member as unknown as { profiles: { email: string } }).profiles.email;
    const outbox = async () => {
      const response = await fetch(`${backend.url}/__local/outbox?to=${encodeURIComponent(email)}`, { headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` } });
      return ((await response.json()) as { subject: string; text: string }[]).filter((mail) => mail.subject.includes('builds are used'));
    };
    await recordBuilds(id, 12, 1); // 12 of 16: 75%
    await schedulerTick();
    expect(await outbox()).toEqual([]);
    await recordBuilds(id, 1, 1); // 13 of 16: 81%
    await schedulerTick();
    await schedulerTick();
    const first = await outbox();
    expect(first).toHaveLength(1);
    expect(first[0]!.subject).toBe(`Alert team ${run}: 80% of this month's builds are used`);
    expect(first[0]!.text).toContain('13 of the 16 builds');
    await recordBuilds(id, 3, 1); // 16 of 16
    await schedulerTick();
    const both = await outbox();
    expect(both.map((mail) => mail.subject)).toEqual(expect.arrayContaining([expect.stringContaining('95%'), expect.stringContaining('80%')]));
    expect(both).toHaveLength(2);
  });
});

describe('who may read and change a team (attacked through the raw API)', () => {
  it('only an admin of every site of the team reads and changes it; the change is audited; nobody else, and nothing was written', async () => {
    const a = await site('rules-a', 'Rules team');
    const b = await site('rules-b', 'Rules team');
    const { data: teamRow } = await service.from('hosting_team_sites').select('team_id').eq('organization_id', a).single();
    const team = (teamRow as { team_id: string }).team_id;
    const adminOfA = await createMember('admin', a);
    cleanup.push(adminOfA.remove);
    const clientA = await signedInClient(adminOfA.email);

    // An admin of one of two sites: no team row, no usage, no update; the site's own budget only.
    expect((await clientA.from('hosting_teams').select('id').eq('id', team)).data).toEqual([]);
    expect((await clientA.rpc('hosting_team_usage', { p_organization_id: a })).data).toBeNull();
    await clientA.from('hosting_teams').update({ monthly_credits: 5000 }).eq('id', team);
    expect((await statusAs(a)).budget).toMatchObject({ builds_in_cycle: 16, monthly_credits: 300 });

    // Anyone else: anon, an editor, a viewer, the other organization's admin; the raw tables and functions.
    const editor = await createMember('editor', a);
    const viewer = await createMember('viewer', a);
    cleanup.push(editor.remove, viewer.remove);
    const others: [string, SupabaseClient][] = [
      ['anon', anonClient()],
      ['editor', await signedInClient(editor.email)],
      ['viewer', await signedInClient(viewer.email)],
      ['another organization\'s admin', await signedInClient(seed.users.otherAdmin.email)],
    ];
    for (const [who, client] of others) {
      expect((await client.from('hosting_teams').select('id').eq('id', team)).data ?? [], who).toEqual([]);
      await client.from('hosting_teams').update({ monthly_credits: 5000 }).eq('id', team);
      expect((await client.from('hosting_team_sites').select('team_id')).data ?? [], who).toEqual([]);
      expect((await client.rpc('place_site_in_team', { p_organization_id: a, p_team_name: 'Taken' })).error, who).not.toBeNull();
      expect((await client.rpc('request_site_rebuild', { p_organization_id: a, p_reason: 'x', p_quiet_window_ms: 0, p_manual: true })).error, who).not.toBeNull();
      expect((await client.rpc('claim_budget_alerts')).error, who).not.toBeNull();
      expect((await client.rpc('hosting_team_usage', { p_organization_id: a })).data ?? null, who).toBeNull();
    }
    const { data: unchanged } = await service.from('hosting_teams').select('monthly_credits').eq('id', team).single();
    expect(unchanged).toEqual({ monthly_credits: 300 });

    // An admin of both sites reads and changes it, within the schema's bounds, and the audit log says so.
    await service.from('organization_memberships').insert({ user_id: adminOfA.id, organization_id: b, role: 'admin' });
    const usage = (await clientA.rpc('hosting_team_usage', { p_organization_id: a })).data as { sites: { name: string }[] };
    expect(usage.sites.map((each) => each.name).sort()).toEqual(['Budget rules-a', 'Budget rules-b']);
    const pro = HostingTeamInputSchema.parse({ name: 'Agency team', monthly_credits: '5000', credits_per_deploy: 15, cycle_start_day: 12, build_share_percent: 80, auto_recharge: true });
    const saved = await clientA.from('hosting_teams').update(pro).eq('id', team).select('monthly_credits');
    expect(saved.error).toBeNull();
    expect(saved.data).toEqual([{ monthly_credits: 5000 }]);
    expect((await statusAs(b)).budget).toMatchObject({ builds_in_cycle: 266, team_name: 'Agency team', auto_recharge: true });
    const { data: audit } = await service.from('user_activity_logs').select('user_id, organization_id').eq('action', 'hosting_team_changed').eq('resource_id', team);
    expect(audit).toEqual(expect.arrayContaining([{ user_id: adminOfA.id, organization_id: a }, { user_id: adminOfA.id, organization_id: b }]));
  });

  it.each([
    ['monthly_credits', 0, 1, 10_000_000, 10_000_001],
    ['credits_per_deploy', 0, 1, 1_000, 1_001],
    ['cycle_start_day', 0, 1, 31, 32],
    ['build_share_percent', 0, 1, 100, 101],
  ])('%s: the schema and the database take the same values (%s refused, %s and %s kept, %s refused)', async (field, below, min, max, above) => {
    const id = await site(`bounds-${field.replace(/_/g, '-')}`, `Bounds ${field}`);
    const { data: row } = await service.from('hosting_team_sites').select('team_id').eq('organization_id', id).single();
    const team = (row as { team_id: string }).team_id;
    const base = { name: 'Bounds', monthly_credits: 300, credits_per_deploy: 15, cycle_start_day: 1, build_share_percent: 80, auto_recharge: false };
    for (const [value, accepted] of [[below, false], [min, true], [max, true], [above, false]] as const) {
      expect(HostingTeamInputSchema.safeParse({ ...base, [field]: value }).success, `zod ${value}`).toBe(accepted);
      const { error } = await service.from('hosting_teams').update({ [field]: value }).eq('id', team);
      expect(error === null, `database ${value}`).toBe(accepted);
    }
  });
});
