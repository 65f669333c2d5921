/**
 * GET /api/invitations/{token} and POST /api/invitations/accept as handlers with real Requests: details
 * only for usable tokens, account creation in the invitation's organization and role, one use only (even
 * concurrently), expiry, unknown tokens, existing accounts. Invitations are created here with a known
 * token's hash; the seed's pending invitation is left alone.
 */
import { afterAll, describe, expect, it } from 'vitest';
import accept, { config as acceptConfig } from '../../netlify/functions/invitation-accept.mts';
import details, { config as detailsConfig } from '../../netlify/functions/invitation-details.mts';
import { AUTH_MESSAGES } from '../../src/lib/auth-messages.ts';
import { hashInvitationToken } from '../../src/lib/server/invitations.ts';
import { createMember, seed, serviceClient } from './support/db-fixtures.ts';
import { clientWithSession, removeMember } from './support/auth-users.ts';

const service = serviceClient();
const password = 'Joined-Team-2026';
const invitationIds: string[] = [];
const createdEmails: string[] = [];
const startedAt = new Date().toISOString();

/** Stores an invitation for a fresh address and returns its token. */
async function invite(options: { role?: 'admin' | 'editor' | 'viewer'; expiresAt?: Date; email?: string } = {}) {
  const token = crypto.randomUUID();
  const email = options.email ?? `invited-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
  const { data, error } = await service
    .from('user_invitations')
    .insert({
      organization_id: seed.scalePro,
      email,
      role: options.role ?? 'editor',
      token_hash: hashInvitationToken(token),
      invited_by: seed.users.admin.id,
      ...(options.expiresAt ? { expires_at: options.expiresAt.toISOString() } : {}),
    })
    .select('id')
    .single();
  if (error) throw new Error(`creating an invitation failed: ${error.message}`);
  invitationIds.push(data.id);
  createdEmails.push(email);
  return { token, email, id: data.id as string };
}

const lookup = (token: string) => details(new Request(`http://localhost/api/invitations/${encodeURIComponent(token)}`));
const acceptWith = (body: unknown) =>
  accept(new Request('http://localhost/api/invitations/accept', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-nf-client-connection-ip': '192.0.2.77' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  }));

afterAll(async () => {
  const { data: profiles } = await service.from('profiles').select('id, email').in('email', createdEmails);
  await Promise.all((profiles ?? []).map(removeMember));
  await service.from('login_attempts').delete().in('email', createdEmails);
  await service.from('user_invitations').delete().in('id', invitationIds);
  // What the seed's Evergreen admin left here by accepting an invitation.
  await service.from('user_activity_logs').delete().eq('user_id', seed.users.otherAdmin.id).gte('created_at', startedAt);
  await service.from('login_attempts').delete().eq('email', seed.users.otherAdmin.email).gte('created_at', startedAt);
});

describe('GET /api/invitations/{token}', () => {
  it('is routed for GET with the token in the path', () => {
    expect(detailsConfig).toMatchObject({ path: '/api/invitations/:token', method: 'GET' });
    expect(acceptConfig).toMatchObject({ path: '/api/invitations/accept', method: 'POST' });
  });

  it('tells who invited whom, to which organization and role', async () => {
    const { token, email } = await invite({ role: 'editor' });
    const response = await lookup(token);
    expect(response.status).toBe(200);
    const { invitation } = await response.json();
    expect(invitation).toMatchObject({
      email,
      role: 'editor',
      organization: { id: seed.scalePro, name: 'Scale Pro Marketing' },
      invitedBy: 'Alex Morgan',
    });
    expect(Date.parse(invitation.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);
  });

  it.each([
    ['an unknown token', 'no-such-invitation-token'],
    ['a malformed token', 'bad token!'],
  ])('answers 404 with no data for %s', async (_case, token) => {
    const response = await lookup(token);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ title: AUTH_MESSAGES.invitationUnknown.title, message: AUTH_MESSAGES.invitationUnknown.description, problem: 'unknown' });
  });

  it('answers 410 for an expired invitation', async () => {
    const { token } = await invite({ expiresAt: new Date(Date.now() - 60_000) });
    const response = await lookup(token);
    expect(response.status).toBe(410);
    expect(await response.json()).toMatchObject({ problem: 'expired', message: AUTH_MESSAGES.invitationExpired.description });
  });
});

describe('POST /api/invitations/accept', () => {
  it('creates the confirmed account in the organization with the role, signs in, and can be used once only', async () => {
    const { token, email, id } = await invite({ role: 'editor' });
    const response = await acceptWith({ token, full_name: 'Pat Newcomer', password });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ role: 'editor', organization: { id: seed.scalePro, name: 'Scale Pro Marketing' } });

    const member = await clientWithSession(body.session);
    const { data: user } = await member.auth.getUser();
    expect(user.user?.email).toBe(email);
    expect(user.user?.email_confirmed_at).toBeTruthy();
    const { data: profile } = await member.from('profiles').select('full_name, role, organization_id, is_active').eq('id', user.user!.id).single();
    expect(profile).toEqual({ full_name: 'Pat Newcomer', role: 'editor', organization_id: seed.scalePro, is_active: true });
    expect((await member.rpc('org_role', { org: seed.scalePro })).data).toBe('editor');

    const { data: row } = await service.from('user_invitations').select('used_at').eq('id', id).single();
    expect(row?.used_at).toBeTruthy();
    const { data: attempts } = await service.from('login_attempts').select('success, ip_address').eq('email', email);
    expect(attempts).toEqual([{ success: true, ip_address: '192.0.2.77' }]);

    const again = await acceptWith({ token, full_name: 'Pat Again', password });
    expect(again.status).toBe(410);
    expect(await again.json()).toMatchObject({ problem: 'used', message: AUTH_MESSAGES.invitationUsed.description });
    const lookedUp = await lookup(token);
    expect(lookedUp.status).toBe(410);
    expect((await lookedUp.json()).problem).toBe('used');
  });

  it('lets only one of two simultaneous acceptances win', async () => {
    const { token } = await invite({ role: 'viewer' });
    const responses = await Promise.all([
      acceptWith({ token, full_name: 'First Racer', password }),
      acceptWith({ token, full_name: 'Second Racer', password }),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 410]);
  });

  it('refuses an expired invitation and creates nothing', async () => {
    const { token, email } = await invite({ expiresAt: new Date(Date.now() - 60_000) });
    const response = await acceptWith({ token, full_name: 'Too Late', password });
    expect(response.status).toBe(410);
    expect((await response.json()).problem).toBe('expired');
    expect((await service.from('profiles').select('id').eq('email', email)).data).toEqual([]);
  });

  it('refuses a revoked invitation even while its expiry lies ahead, creates nothing and leaves it unused', async () => {
    const { token, email, id } = await invite({ expiresAt: new Date(Date.now() + 86_400_000) });
    await service.from('user_invitations').update({ revoked_at: new Date().toISOString() }).eq('id', id);
    const response = await acceptWith({ token, full_name: 'Revoked', password });
    expect(response.status).toBe(404);
    expect((await response.json()).problem).toBe('unknown');
    expect((await service.from('profiles').select('id').eq('email', email)).data).toEqual([]);
    expect((await service.from('user_invitations').select('used_at').eq('id', id).single()).data).toEqual({ used_at: null });
  });

  it('answers 404 to an unknown token', async () => {
    const response = await acceptWith({ token: 'no-such-invitation-token', full_name: 'Nobody', password });
    expect(response.status).toBe(404);
    expect((await response.json()).problem).toBe('unknown');
  });

  it('asks an existing account for its password: a wrong one joins nothing and keeps the invitation, the right one joins', async () => {
    const { token, id } = await invite({ email: seed.users.otherAdmin.email, role: 'editor' });
    createdEmails.pop(); // the seed's Evergreen admin is not ours to remove
    const looked = await (await lookup(token)).json();
    expect(looked.invitation.hasAccount).toBe(true);

    const response = await acceptWith({ token, password: 'not-their-password' });
    expect(response.status).toBe(401);
    expect((await response.json()).message).toBe(AUTH_MESSAGES.invitationWrongPassword.description);
    expect((await service.from('user_invitations').select('used_at').eq('id', id).single()).data?.used_at).toBeNull();
    const { data: memberships } = await service.from('organization_memberships').select('organization_id').eq('user_id', seed.users.otherAdmin.id);
    expect(memberships).toEqual([{ organization_id: seed.evergreen }]);

    // With its own password, it joins: a membership with the invitation role, nothing else changes.
    try {
      const response = await acceptWith({ token, password: seed.password });
      expect(response.status).toBe(200);
      const body = await response.json();
      expect(body).toMatchObject({ role: 'editor', organization: { id: seed.scalePro } });
      const { data: memberships } = await service
        .from('organization_memberships').select('organization_id, role').eq('user_id', seed.users.otherAdmin.id).order('organization_id');
      expect(memberships).toEqual([
        { organization_id: seed.scalePro, role: 'editor' },
        { organization_id: seed.evergreen, role: 'admin' },
      ]);
      const { data: profile } = await service.from('profiles').select('organization_id, role').eq('id', seed.users.otherAdmin.id).single();
      expect(profile).toEqual({ organization_id: seed.evergreen, role: 'admin' });
      expect((await service.from('user_invitations').select('used_at').eq('id', id).single()).data?.used_at).not.toBeNull();
      // The session the invitation signed in reads Scale Pro's drafts as an editor.
      const member = await clientWithSession(body.session);
      const { data: drafts } = await member.from('blog_posts').select('id').eq('organization_id', seed.scalePro).eq('status', 'draft').limit(1);
      expect(drafts).toHaveLength(1);
    } finally {
      await service.from('organization_memberships').delete().eq('user_id', seed.users.otherAdmin.id).eq('organization_id', seed.scalePro);
    }
  });

  it('tells a deactivated existing account that it is inactive, and keeps the invitation', async () => {
    const member = await createMember('viewer', seed.evergreen);
    try {
      await service.from('profiles').update({ is_active: false }).eq('id', member.id);
      const { token, id } = await invite({ email: member.email, role: 'editor' });
      const response = await acceptWith({ token, password: seed.password });
      expect(response.status).toBe(403);
      expect((await response.json()).message).toBe(AUTH_MESSAGES.inactive.description);
      expect((await service.from('user_invitations').select('used_at').eq('id', id).single()).data?.used_at).toBeNull();
      const { data: memberships } = await service.from('organization_memberships').select('organization_id').eq('user_id', member.id);
      expect(memberships).toEqual([{ organization_id: seed.evergreen }]);
    } finally {
      await removeMember(member);
    }
  });

  it('brings back, with the right password, an account whose every membership was deactivated', async () => {
    const member = await createMember('viewer', seed.evergreen);
    try {
      await service.from('organization_memberships').update({ is_active: false }).eq('user_id', member.id);
      const { token } = await invite({ email: member.email, role: 'editor' });
      const response = await acceptWith({ token, password: seed.password });
      expect(response.status).toBe(200);
      const { data: memberships } = await service
        .from('organization_memberships').select('organization_id, role, is_active').eq('user_id', member.id).order('organization_id');
      expect(memberships).toEqual([
        { organization_id: seed.scalePro, role: 'editor', is_active: true },
        { organization_id: seed.evergreen, role: 'viewer', is_active: false },
      ]);
    } finally {
      await removeMember(member);
    }
  });

  it('reactivates a deactivated membership in the invitation\'s organization with the invited role', async () => {
    const member = await createMember('viewer', seed.evergreen);
    try {
      await service.from('organization_memberships').insert({ user_id: member.id, organization_id: seed.scalePro, role: 'viewer', is_active: false });
      const { token } = await invite({ email: member.email, role: 'admin' });
      expect((await acceptWith({ token, password: seed.password })).status).toBe(200);
      const { data } = await service.from('organization_memberships').select('role, is_active').eq('user_id', member.id).eq('organization_id', seed.scalePro).single();
      expect(data).toEqual({ role: 'admin', is_active: true });
    } finally {
      await removeMember(member);
    }
  });

  it.each<[string, unknown, number]>([
    ['malformed JSON', '{"token":', 400],
    ['a weak password', { token: 'dev-invite-token-scale-pro', full_name: 'X', password: 'weakpass' }, 400],
    ['a missing name', { token: 'dev-invite-token-scale-pro', password }, 400],
    ['a role smuggled in', { token: 'dev-invite-token-scale-pro', full_name: 'X', password, role: 'admin' }, 400],
    ['a body over 10 KB', { token: 'dev-invite-token-scale-pro', full_name: 'x'.repeat(11 * 1024), password }, 413],
  ])('refuses %s without touching the invitation', async (_case, body, status) => {
    expect((await acceptWith(body)).status).toBe(status);
    const { data } = await service.from('user_invitations').select('used_at').eq('id', seed.invitation).single();
    expect(data?.used_at).toBeNull();
  });
});
