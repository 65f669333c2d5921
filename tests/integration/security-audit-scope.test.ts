/**
 * The Security tab shows the organization it manages, and only it (migration 20261126000100_audit_log_scope.sql).
 * An admin of both Scale Pro and Evergreen lists the sign-in attempts of Scale Pro's members for Scale Pro and
 * of Evergreen's for Evergreen, though the table's policy alone lets them read both; an admin of Scale Pro only,
 * an editor and an anonymous caller asking the SQL function through the raw RPC get a refusal, and nothing
 * is written. A member's recent activity in the user dialog is that organization's. Past the first page: the
 * cards count the whole log and the exports hold every entry (an organization with 1,100 entries and 1,050
 * sign-in attempts, past the 1,000 rows one request reads), for its admins only.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCsvExport, listLoginAttempts, listWholeAudit, loadAuditCounts } from '../../src/lib/back-office/audit.ts';
import { recentActivity } from '../../src/lib/back-office/users.ts';
import { signIn } from '../../src/lib/server/sign-in.ts';
import { removeMember, type Member } from './support/auth-users.ts';
import { anonClient, backend, createMember, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const startedAt = new Date().toISOString();
/** An admin of Scale Pro (primary) and of Evergreen; a member of each organization only. */
let both: Member;
let scaleMember: Member;
let evergreenMember: Member;
let bothClient: SupabaseClient;

/** Rows of a table, counted with the service role. */
async function count(table: 'login_attempts' | 'user_activity_logs'): Promise<number> {
  const { count: rows, error } = await service.from(table).select('id', { count: 'exact', head: true });
  if (error) throw new Error(error.message);
  return rows ?? 0;
}

beforeAll(async () => {
  [both, scaleMember, evergreenMember] = await Promise.all([createMember('admin'), createMember('editor'), createMember('editor', seed.evergreen)]);
  const joined = await service.from('organization_memberships').insert({ user_id: both.id, organization_id: seed.evergreen, role: 'admin' });
  if (joined.error) throw new Error(joined.error.message);
  // A successful and a failed sign-in for each member.
  for (const member of [scaleMember, evergreenMember]) {
    await signedInClient(member.email);
    const failed = await signIn(service, backend, { email: member.email, password: 'not-the-password' }, { ip: null, userAgent: 'integration-tests' });
    expect(failed.kind).not.toBe('granted');
  }
  bothClient = await signedInClient(both.email);
});

afterAll(async () => {
  await Promise.all([both, scaleMember, evergreenMember].map(removeMember));
  await service.from('user_activity_logs').delete().eq('user_id', seed.users.admin.id).gte('created_at', startedAt);
});

describe('sign-in attempts of one organization', () => {
  it('control: the table\'s policy alone lets the admin of both read both members\' attempts', async () => {
    const { data, error } = await bothClient.from('login_attempts').select('email').in('email', [scaleMember.email, evergreenMember.email]);
    expect(error).toBeNull();
    expect(new Set(data!.map((row) => row.email))).toEqual(new Set([scaleMember.email, evergreenMember.email]));
  });

  it('the admin of both gets Scale Pro\'s members\' attempts for Scale Pro, and Evergreen\'s for Evergreen', async () => {
    const scale = await listLoginAttempts(bothClient, seed.scalePro, 1000);
    const evergreen = await listLoginAttempts(bothClient, seed.evergreen, 1000);
    expect(scale.filter((a) => a.email === scaleMember.email).map((a) => a.success).sort()).toEqual([false, true]);
    expect(scale.map((a) => a.email)).not.toContain(evergreenMember.email);
    expect(evergreen.filter((a) => a.email === evergreenMember.email).map((a) => a.success).sort()).toEqual([false, true]);
    expect(evergreen.map((a) => a.email)).not.toContain(scaleMember.email);
    // Their own sign-in belongs to both organizations they administer.
    expect(scale.map((a) => a.email)).toContain(both.email);
    expect(evergreen.map((a) => a.email)).toContain(both.email);
  });

  it('answers newest first, at most the limit asked for', async () => {
    const attempts = await listLoginAttempts(bothClient, seed.scalePro, 1000);
    const times = attempts.map((a) => Date.parse(a.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(await listLoginAttempts(bothClient, seed.scalePro, 2)).toEqual(attempts.slice(0, 2));
  });

  it('an admin of Scale Pro only, asking the raw RPC for Evergreen, is refused (42501) and nothing is written', async () => {
    const scaleAdmin = await signedInClient(seed.users.admin.email);
    const before = await Promise.all([count('login_attempts'), count('user_activity_logs')]);
    const { data, error } = await scaleAdmin.rpc('organization_login_attempts', { p_organization_id: seed.evergreen, p_limit: 1000 });
    expect(error?.code).toBe('42501');
    expect(data).toBeNull();
    expect(await Promise.all([count('login_attempts'), count('user_activity_logs')])).toEqual(before);
    // Control: for their own organization the same call answers.
    const own = await scaleAdmin.rpc('organization_login_attempts', { p_organization_id: seed.scalePro, p_limit: 1000 });
    expect(own.error).toBeNull();
    expect((own.data as { email: string }[]).map((a) => a.email)).toContain(scaleMember.email);
  });

  it('an editor of the organization and an anonymous caller are refused too', async () => {
    const editor = await signedInClient(scaleMember.email);
    const asEditor = await editor.rpc('organization_login_attempts', { p_organization_id: seed.scalePro, p_limit: 10 });
    expect(asEditor.error?.code).toBe('42501');
    expect(asEditor.data).toBeNull();
    const asAnon = await anonClient().rpc('organization_login_attempts', { p_organization_id: seed.scalePro, p_limit: 10 });
    expect(asAnon.error).not.toBeNull();
    expect(asAnon.data).toBeNull();
  });
});

describe('a member\'s recent activity in the user dialog', () => {
  beforeAll(async () => {
    // The admin of both logs an action in Evergreen (their sign-in was logged in Scale Pro, their primary organization).
    const { error } = await bothClient.rpc('log_user_activity', { p_action: 'password_changed', p_organization_id: seed.evergreen });
    if (error) throw new Error(error.message);
  });

  it('is the activity in the organization shown, not the member\'s work elsewhere', async () => {
    const inScale = await recentActivity(bothClient, seed.scalePro, both.id);
    const inEvergreen = await recentActivity(bothClient, seed.evergreen, both.id);
    expect(inScale.map((a) => a.action)).toContain('admin_login_success');
    expect(inScale.map((a) => a.action)).not.toContain('password_changed');
    expect(inEvergreen.map((a) => a.action)).toEqual(['password_changed']);
  });

  it('control: without the organization filter the same reader would see both', async () => {
    const { data, error } = await bothClient.from('user_activity_logs').select('action, organization_id').eq('user_id', both.id);
    expect(error).toBeNull();
    expect(new Set(data!.map((row) => row.organization_id))).toEqual(new Set([seed.scalePro, seed.evergreen]));
  });
});

describe('the audit log past its first page', () => {
  const id = crypto.randomUUID();
  let admin: Awaited<ReturnType<typeof createMember>>;
  beforeAll(async () => {
    expect((await service.from('organizations').insert({ id, name: 'Audit Pages', slug: `audit-pages-${id.slice(0, 8)}` })).error).toBeNull();
    admin = await createMember('admin', id);
    await service.from('organization_memberships').upsert({ user_id: admin.id, organization_id: id, role: 'admin' });
    const at = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
    const entries = Array.from({ length: 1_100 }, (_, n) => ({ organization_id: id, user_id: n % 2 ? admin.id : null, action: 'post_updated', resource_type: 'blog_post', resource_id: `p${n}`, details: { title: `Entry ${n}` }, created_at: at(n) }));
    expect((await service.from('user_activity_logs').insert(entries)).error).toBeNull();
    const attempts = Array.from({ length: 1_050 }, (_, n) => ({ email: admin.email, success: n % 3 !== 0, failure_reason: n % 3 ? null : 'Invalid login credentials', ip_address: '203.0.113.9', created_at: at(n) }));
    expect((await service.from('login_attempts').insert(attempts)).error).toBeNull();
  });
  afterAll(async () => {
    await service.from('login_attempts').delete().eq('email', admin.email);
    await service.from('organizations').delete().eq('id', id);
    await admin.remove();
  });

  it('counts the whole log and exports every entry, newest first, to its admin', async () => {
    const client = await signedInClient(admin.email);
    const { count: activities } = await service.from('user_activity_logs').select('id', { count: 'exact', head: true }).eq('organization_id', id);
    expect(activities).toBeGreaterThanOrEqual(1_100);
    // The 700 successes made here, and the admin's own sign-in just now.
    const { count: succeeded } = await service.from('login_attempts').select('id', { count: 'exact', head: true }).eq('email', admin.email).eq('success', true);
    expect(succeeded).toBeGreaterThanOrEqual(701);
    expect(await loadAuditCounts(client, id)).toEqual({ activities, active_users: 1, successful_logins: succeeded, failed_logins: 350 });
    const whole = await listWholeAudit(client, id);
    expect(whole.activities).toHaveLength(activities!);
    expect(new Set(whole.activities.map((entry) => entry.id)).size).toBe(activities);
    expect(whole.logins).toHaveLength(succeeded! + 350);
    expect(new Set(whole.logins.map((attempt) => attempt.id)).size).toBe(succeeded! + 350);
    const times = whole.logins.map((attempt) => Date.parse(attempt.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(auditCsvExport(whole.activities, whole.logins, whole.people).content.split('\r\n')).toHaveLength(1 + activities! + succeeded! + 350);
  });

  it('refuses the totals to an editor of it, an admin of another organization and a visitor', async () => {
    const editor = await createMember('editor', id);
    try {
      expect((await (await signedInClient(editor.email)).rpc('organization_audit_counts', { p_organization_id: id })).error?.code).toBe('42501');
    } finally {
      await editor.remove();
    }
    expect((await (await signedInClient(seed.users.admin.email)).rpc('organization_audit_counts', { p_organization_id: id })).error?.code).toBe('42501');
    const asAnon = await anonClient().rpc('organization_audit_counts', { p_organization_id: id });
    expect(asAnon.error).not.toBeNull();
    expect(asAnon.data).toBeNull();
  });
});
