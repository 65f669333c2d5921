/**
 * Attacks on accounts and memberships, made as an outsider would: the public anon key, the raw Auth and REST
 * APIs, and tokens of another organization. Each asserts that the attack fails AND that nothing was written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashInvitationToken } from '../../src/lib/server/invitations.ts';
import { anonClient, backend, createMember, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';
import { removeMember, type Member } from './support/auth-users.ts';

const service = serviceClient();
const startedAt = new Date().toISOString();
const invitationIds: string[] = [];

/** A pending admin invitation to Scale Pro for a fresh address, as an admin would send it. */
async function pendingAdminInvitation() {
  const email = `invitee-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
  const { data, error } = await service
    .from('user_invitations')
    .insert({ organization_id: seed.scalePro, email, role: 'admin', token_hash: hashInvitationToken(crypto.randomUUID()), invited_by: seed.users.admin.id })
    .select('id')
    .single();
  if (error) throw new Error(`creating the invitation failed: ${error.message}`);
  invitationIds.push(data.id);
  return { email, id: data.id as string };
}

const authUserCount = (email: string) =>
  withDatabase(async (db) => (await db.query('select count(*)::int as n from auth.users where lower(email) = lower($1)', [email])).rows[0].n as number);

async function invitationIsPending(id: string): Promise<boolean> {
  const { data } = await service.from('user_invitations').select('used_at').eq('id', id).single();
  return data?.used_at === null;
}

afterAll(async () => {
  await service.from('user_invitations').delete().in('id', invitationIds);
});

describe('taking an invited role without the invitation', () => {
  it('public sign-up is refused through the raw Auth API, even for an invited address naming the organization', async () => {
    const { email, id } = await pendingAdminInvitation();
    const response = await fetch(`${backend.url}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'Stolen-Role-2026', data: { organization_id: seed.scalePro, role: 'admin' } }),
    });
    expect(response.status).toBe(422);
    expect((await response.json()).error_code).toBe('signup_disabled');
    expect(await authUserCount(email)).toBe(0);
    expect(await invitationIsPending(id)).toBe(true);
  });

  it('supabase-js signUp and a magic link for an unknown address create nothing', async () => {
    const { email, id } = await pendingAdminInvitation();
    const signUp = await anonClient().auth.signUp({ email, password: 'Stolen-Role-2026', options: { data: { organization_id: seed.scalePro } } });
    expect(signUp.error).not.toBeNull();
    expect(signUp.data.session).toBeNull();
    const otp = await anonClient().auth.signInWithOtp({ email, options: { shouldCreateUser: true, data: { organization_id: seed.scalePro } } });
    expect(otp.error).not.toBeNull();
    expect(await authUserCount(email)).toBe(0);
    expect(await invitationIsPending(id)).toBe(true);
  });

  it('the Auth settings say sign-up is off', async () => {
    const settings = await (await fetch(`${backend.url}/auth/v1/settings`, { headers: { apikey: backend.anonKey } })).json();
    expect(settings.disable_signup).toBe(true);
  });
});

describe('enrolling another organization’s user', () => {
  let victim: Member;

  beforeAll(async () => {
    victim = await createMember('editor');
  });

  afterAll(async () => {
    await service.from('organization_memberships').delete().eq('user_id', victim.id).eq('organization_id', seed.evergreen);
    await removeMember(victim);
  });

  it('an admin of another organization cannot add a Scale Pro user to theirs, by REST or by moving the profile', async () => {
    const evergreenAdmin = await signedInClient(seed.users.otherAdmin.email);
    const inserted = await evergreenAdmin
      .from('organization_memberships')
      .insert({ user_id: victim.id, organization_id: seed.evergreen, role: 'viewer' });
    expect(inserted.error?.code).toBe('42501');
    // Even into a membership they would administer, and even for their own organization's id.
    const moved = await evergreenAdmin.from('profiles').update({ organization_id: seed.evergreen }).eq('id', victim.id).select('id');
    expect(moved.error?.code ?? (moved.data?.length === 0 ? 'no rows' : 'updated')).not.toBe('updated');

    const { data: memberships } = await service.from('organization_memberships').select('organization_id').eq('user_id', victim.id);
    expect(memberships).toEqual([{ organization_id: seed.scalePro }]);
  });

  it('so the victim’s email, phone, sessions and sign-in attempts stay out of reach, and their sessions cannot be ended', async () => {
    const victimClient = await signedInClient(victim.email);
    const { data: sessionData } = await victimClient.auth.getSession();
    const victimSession = JSON.parse(Buffer.from(sessionData.session!.access_token.split('.')[1]!, 'base64url').toString()).session_id;

    const evergreenAdmin = await signedInClient(seed.users.otherAdmin.email);
    expect((await evergreenAdmin.from('profiles').select('email, phone').eq('id', victim.id)).data).toEqual([]);
    expect((await evergreenAdmin.from('login_attempts').select('id').eq('email', victim.email)).data).toEqual([]);
    const sessions = await evergreenAdmin.rpc('list_organization_sessions', { p_organization_id: seed.scalePro });
    expect(sessions.error?.code).toBe('42501');
    const mine = await evergreenAdmin.rpc('list_organization_sessions', { p_organization_id: seed.evergreen });
    expect(mine.data?.map((row: { user_id: string }) => row.user_id)).not.toContain(victim.id);
    expect((await evergreenAdmin.rpc('terminate_session', { p_session_id: victimSession })).error?.code).toBe('42501');
    // The victim's session still works.
    expect((await victimClient.rpc('org_role', { org: seed.scalePro })).data).toBe('editor');
  });

  it('an admin still removes a member from their own organization', async () => {
    const extra = await createMember('viewer');
    try {
      const admin = await signedInClient(seed.users.admin.email);
      const removed = await admin.from('organization_memberships').delete().eq('user_id', extra.id).eq('organization_id', seed.scalePro).select('id');
      expect(removed.data).toHaveLength(1);
    } finally {
      await removeMember(extra);
    }
  });
});

describe('the helpers behind the policies', () => {
  it.each(['current_active_user_id', 'is_org_admin', 'is_org_member', 'is_org_editor', 'shares_organization_with', 'assert_admins_remain', 'is_member_email_of_admin_org'])(
    '%s is not an RPC, for anyone',
    async (name) => {
      const admin = await signedInClient(seed.users.otherAdmin.email);
      const { error } = await admin.rpc(name, {});
      expect(error?.code).toBe('PGRST202');
      const privateSchema = await fetch(`${backend.url}/rest/v1/rpc/${name}`, {
        method: 'POST',
        headers: { apikey: backend.anonKey, 'content-type': 'application/json', 'content-profile': 'private' },
        body: '{}',
      });
      expect(privateSchema.status).toBe(406);
    },
  );

  it('assert_admins_remain cannot be turned against another organization', async () => {
    // Through REST it does not exist (above); through a membership change it guards only the caller's own.
    const evergreenAdmin = await signedInClient(seed.users.otherAdmin.email);
    const demoted = await evergreenAdmin.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', seed.users.admin.id).select('id');
    expect(demoted.data ?? []).toEqual([]);
    const { data } = await service.from('organization_memberships').select('role').eq('user_id', seed.users.admin.id).eq('organization_id', seed.scalePro).single();
    expect(data?.role).toBe('admin');
  });
});

afterAll(async () => {
  // Sign-ins of seed users in this file leave attempts and log lines; the seed stays as it was.
  const seedIds = Object.values(seed.users).map((user) => user.id);
  await service.from('user_activity_logs').delete().in('user_id', seedIds).gte('created_at', startedAt);
});
