/**
 * The Users tab manages the members of the chosen organization, attacked through the raw API too: the
 * member list and every count are the organization's memberships; role, status and profile edits act on
 * the membership of that organization and are logged by the database; an admin edits only name and phone
 * of a member's profile; password reset mails and invitation resend / revoke go through the admin
 * functions. Admins of another organization, editors and anonymous callers are refused, and nothing is
 * written when they are.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import invitationActions, { config as actionsConfig } from '../../netlify/functions/admin-invitation-actions.mts';
import createInvitationHandler from '../../netlify/functions/admin-invitations.mts';
import passwordReset, { config as resetConfig } from '../../netlify/functions/admin-password-reset.mts';
import invitationAccept from '../../netlify/functions/invitation-accept.mts';
import { changeRole, countStaff, listInvitations, listStaff, setActive, updateMember } from '../../src/lib/back-office/users.ts';
import { loadSystemCounters } from '../../src/lib/back-office/dashboard-stats.ts';
import { findInvitation } from '../../src/lib/server/invitations.ts';
import { removeMember, type Member } from './support/auth-users.ts';
import { anonClient, backend, createMember, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const site = 'http://localhost:8888';
const startedAt = new Date().toISOString();
const members: Member[] = [];
const invitedEmails: string[] = [];

/** A Scale Pro member whose primary organization is Evergreen (joined Scale Pro later), and a plain one. */
let joiner: Member;
let target: Member;
let scaleAdmin: SupabaseClient;
let evergreenAdmin: SupabaseClient;
let editor: SupabaseClient;

beforeAll(async () => {
  joiner = await createMember('viewer', seed.evergreen);
  target = await createMember('viewer');
  members.push(joiner, target);
  const joined = await service.from('organization_memberships').insert({ user_id: joiner.id, organization_id: seed.scalePro, role: 'editor' });
  if (joined.error) throw new Error(joined.error.message);
  [scaleAdmin, evergreenAdmin, editor] = await Promise.all([
    signedInClient(seed.users.admin.email),
    signedInClient(seed.users.otherAdmin.email),
    signedInClient(seed.users.editor.email),
  ]);
});

afterAll(async () => {
  await Promise.all(members.map(removeMember));
  if (invitedEmails.length) await service.from('user_invitations').delete().in('email', invitedEmails);
  for (const admin of [seed.users.admin.id, seed.users.otherAdmin.id]) {
    await service.from('user_activity_logs').delete().eq('user_id', admin).gte('created_at', startedAt);
  }
});

async function tokenOf(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  if (!data.session) throw new Error('no session');
  return data.session.access_token;
}

function post(path: string, body: unknown, token?: string): Request {
  return new Request(`${site}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

async function membership(userId: string, organizationId: string) {
  const { data } = await service.from('organization_memberships').select('role, is_active').eq('user_id', userId).eq('organization_id', organizationId).single();
  return data;
}

async function logsAbout(resourceId: string, action?: string) {
  let query = service.from('user_activity_logs').select('user_id, organization_id, action, resource_type, resource_id, details').eq('resource_id', resourceId);
  if (action) query = query.eq('action', action);
  const { data } = await query.order('created_at');
  return data ?? [];
}

async function outbox(to: string): Promise<{ to: string; subject: string; text: string; type: string; link: string | null }[]> {
  const response = await fetch(`${backend.url}/__local/outbox?to=${encodeURIComponent(to)}`, {
    headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
  });
  if (!response.ok) throw new Error(`the outbox answered ${response.status}`);
  return response.json();
}

describe('the member list and its counts', () => {
  it('lists every membership of the organization, also members whose primary organization is another', async () => {
    const rows = await listStaff(scaleAdmin, seed.scalePro);
    const row = rows.find((member) => member.id === joiner.id);
    expect(row).toMatchObject({ email: joiner.email, role: 'editor', is_active: true });
    expect((await listStaff(scaleAdmin, seed.scalePro, { search: joiner.email.slice(0, 14).toUpperCase() })).map((m) => m.id)).toContain(joiner.id);
    expect((await listStaff(scaleAdmin, seed.scalePro, { role: 'viewer' })).map((m) => m.id)).not.toContain(joiner.id);
    expect((await listStaff(scaleAdmin, seed.scalePro, { search: 'no-such-person-xyz' }))).toEqual([]);
  });

  it('counts the same members in the Users tab cards and the System Overview', async () => {
    const [rows, counts, overview] = await Promise.all([
      listStaff(scaleAdmin, seed.scalePro),
      countStaff(scaleAdmin, seed.scalePro),
      loadSystemCounters(scaleAdmin, seed.scalePro),
    ]);
    expect(counts.total).toBe(rows.length);
    expect(overview.totalUsers).toBe(rows.length);
    expect(counts.active).toBe(rows.filter((row) => row.is_active).length);
    expect(counts.admins).toBe(rows.filter((row) => row.role === 'admin').length);
  });

  it('shows an admin of another organization and a visitor no member of Scale Pro', async () => {
    expect(await listStaff(evergreenAdmin, seed.scalePro)).toEqual([]);
    const { data } = await anonClient().from('organization_members').select('id').eq('organization_id', seed.scalePro);
    expect(data ?? []).toEqual([]);
  });
});

describe('role and status act on the membership of one organization, logged by the database', () => {
  it('changes the role in Scale Pro only and logs role_changed with the target', async () => {
    expect(await changeRole(scaleAdmin, seed.scalePro, [joiner.id], 'viewer')).toBe(1);
    expect(await membership(joiner.id, seed.scalePro)).toMatchObject({ role: 'viewer' });
    expect(await membership(joiner.id, seed.evergreen)).toMatchObject({ role: 'viewer', is_active: true });
    const [entry] = await logsAbout(joiner.id, 'role_changed');
    expect(entry).toMatchObject({
      user_id: seed.users.admin.id, organization_id: seed.scalePro, resource_type: 'user',
      details: { email: joiner.email, new_role: 'viewer', old_role: 'editor' },
    });
  });

  it('deactivates the membership in Scale Pro, leaving Evergreen active; the bulk Delete logs user_soft_deleted_bulk', async () => {
    await setActive(scaleAdmin, seed.scalePro, [joiner.id], false);
    expect(await membership(joiner.id, seed.scalePro)).toMatchObject({ is_active: false });
    expect(await membership(joiner.id, seed.evergreen)).toMatchObject({ is_active: true });
    expect((await logsAbout(joiner.id, 'user_deactivated'))[0]).toMatchObject({ organization_id: seed.scalePro, details: { email: joiner.email } });
    await setActive(scaleAdmin, seed.scalePro, [joiner.id], true);
    expect(await setActive(scaleAdmin, seed.scalePro, [joiner.id, target.id], false, 'delete')).toBe(2);
    expect(await logsAbout(target.id, 'user_soft_deleted_bulk')).toHaveLength(1);
    await setActive(scaleAdmin, seed.scalePro, [joiner.id, target.id], true);
    expect(await logsAbout(target.id, 'user_activated_bulk')).toHaveLength(1);
  });

  it.each([
    ['the admin of Evergreen', () => evergreenAdmin],
    ['an editor of Scale Pro', () => editor],
    ['a visitor', () => anonClient()],
  ])('refuses %s (role, status, edit), writing nothing', async (_who, caller) => {
    const before = (await logsAbout(target.id)).length;
    const attempts = await Promise.all([
      caller().rpc('set_member_roles', { p_organization_id: seed.scalePro, p_user_ids: [target.id], p_role: 'admin' }),
      caller().rpc('set_member_status', { p_organization_id: seed.scalePro, p_user_ids: [target.id], p_active: false }),
      caller().rpc('update_member_profile', { p_organization_id: seed.scalePro, p_user_id: target.id, p_full_name: 'Hijacked', p_phone: null, p_role: 'admin' }),
      caller().from('organization_memberships').update({ role: 'admin' }).eq('user_id', target.id).eq('organization_id', seed.scalePro).select('id'),
    ]);
    for (const attempt of attempts) expect(attempt.error !== null || (Array.isArray(attempt.data) && attempt.data.length === 0)).toBe(true);
    expect(await membership(target.id, seed.scalePro)).toEqual({ role: 'viewer', is_active: true });
    const { data: profile } = await service.from('profiles').select('full_name').eq('id', target.id).single();
    expect(profile?.full_name).toBe('Test viewer');
    expect(await logsAbout(target.id)).toHaveLength(before);
  });

  it('keeps the last admin: a role change of the only admin fails as a whole', async () => {
    await expect(changeRole(scaleAdmin, seed.scalePro, [seed.users.admin.id, target.id], 'viewer')).rejects.toThrow(/at least one active admin/);
    expect(await membership(target.id, seed.scalePro)).toMatchObject({ role: 'viewer' });
  });
});

describe('an admin edits a member: name, phone and role', () => {
  it('saves and logs profile_updated_by_admin with what changed', async () => {
    const changes = await updateMember(scaleAdmin, seed.scalePro, target.id, { full_name: 'Renamed Member', phone: '+1 555 0100', role: 'editor' });
    expect(changes).toEqual({
      full_name: { from: 'Test viewer', to: 'Renamed Member' },
      phone: { from: null, to: '+1 555 0100' },
      role: { from: 'viewer', to: 'editor' },
    });
    const { data: profile } = await service.from('profiles').select('full_name, phone, role').eq('id', target.id).single();
    expect(profile).toEqual({ full_name: 'Renamed Member', phone: '+1 555 0100', role: 'editor' });
    const [entry] = await logsAbout(target.id, 'profile_updated_by_admin');
    expect(entry).toMatchObject({
      user_id: seed.users.admin.id, organization_id: seed.scalePro, resource_type: 'user',
      details: { email: target.email, full_name: 'Renamed Member', new_role: 'editor', changes },
    });
    await updateMember(scaleAdmin, seed.scalePro, target.id, { full_name: 'Test viewer', role: 'viewer' });
  });

  it('lets an admin change name and phone of a member through REST even when their primary organization is another', async () => {
    const { data, error } = await scaleAdmin.from('profiles').update({ phone: '+44 20 7946 0000' }).eq('id', joiner.id).select('phone');
    expect(error).toBeNull();
    expect(data).toEqual([{ phone: '+44 20 7946 0000' }]);
  });

  it('refuses to change the rest of another person\'s profile (bio, author card)', async () => {
    const { error } = await scaleAdmin.from('profiles').update({ bio: 'Written by an admin' }).eq('id', joiner.id).select('id');
    expect(error?.code).toBe('42501');
    const { data } = await service.from('profiles').select('bio').eq('id', joiner.id).single();
    expect(data?.bio).toBeNull();
  });

  it('refuses the admin of Evergreen on a Scale Pro member, and an editor on anyone else', async () => {
    for (const [caller, id] of [[evergreenAdmin, target.id], [editor, target.id], [editor, seed.users.viewer.id]] as const) {
      const { data } = await caller.from('profiles').update({ full_name: 'Hijacked' }).eq('id', id).select('id');
      expect(data ?? []).toEqual([]);
    }
    const { data } = await service.from('profiles').select('id, full_name').in('id', [target.id, seed.users.viewer.id]);
    expect(data?.map((row) => row.full_name)).not.toContain('Hijacked');
  });

  it('refuses a profile edit of a member who is inactive in the organization', async () => {
    await setActive(scaleAdmin, seed.scalePro, [target.id], false);
    await expect(updateMember(scaleAdmin, seed.scalePro, target.id, { full_name: 'While Inactive', role: 'viewer' })).rejects.toThrow();
    const { data } = await scaleAdmin.from('profiles').update({ full_name: 'While Inactive' }).eq('id', target.id).select('id');
    expect(data ?? []).toEqual([]);
    await setActive(scaleAdmin, seed.scalePro, [target.id], true);
  });
});

describe('POST /api/admin/password-reset', () => {
  it('is the route', () => expect(resetConfig).toMatchObject({ path: '/api/admin/password-reset', method: 'POST' }));

  it('mails a recovery link to /auth and logs password_reset_by_admin', async () => {
    const response = await passwordReset(post('/api/admin/password-reset', { organization_id: seed.scalePro, user_id: target.id }, await tokenOf(scaleAdmin)));
    expect(response.status).toBe(200);
    expect((await response.json()).message).toBe(`A password reset email was sent to ${target.email}.`);
    const mails = await outbox(target.email);
    expect(mails.map((mail) => mail.type)).toEqual(['recovery']);
    expect((await logsAbout(target.id, 'password_reset_by_admin'))[0]).toMatchObject({
      user_id: seed.users.admin.id, organization_id: seed.scalePro, resource_type: 'user', details: { email: target.email },
    });
  });

  it('refuses anonymous callers, editors, the admin of Evergreen and a target outside the organization, sending nothing', async () => {
    const mailsBefore = (await outbox(target.email)).length;
    const body = { organization_id: seed.scalePro, user_id: target.id };
    expect((await passwordReset(post('/api/admin/password-reset', body))).status).toBe(401);
    expect((await passwordReset(post('/api/admin/password-reset', body, await tokenOf(editor)))).status).toBe(403);
    expect((await passwordReset(post('/api/admin/password-reset', body, await tokenOf(evergreenAdmin)))).status).toBe(403);
    const outside = await passwordReset(post('/api/admin/password-reset', { organization_id: seed.evergreen, user_id: target.id }, await tokenOf(evergreenAdmin)));
    expect(outside.status).toBe(404);
    expect((await passwordReset(post('/api/admin/password-reset', { ...body, user_id: 'not-a-uuid' }, await tokenOf(scaleAdmin)))).status).toBe(400);
    expect(await outbox(target.email)).toHaveLength(mailsBefore);
    expect(await logsAbout(target.id, 'password_reset_by_admin')).toHaveLength(1);
  });
});

describe('invitations: state, resend and revoke', () => {
  async function invite(): Promise<{ id: string; email: string; token: string }> {
    const email = `members-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
    invitedEmails.push(email);
    const response = await createInvitationHandler(post('/api/admin/invitations', { organization_id: seed.scalePro, email, role: 'editor' }, await tokenOf(scaleAdmin)));
    expect(response.status).toBe(201);
    const answer = await response.json();
    return { id: answer.id, email, token: new URL(answer.link).searchParams.get('invite') ?? '' };
  }
  const act = async (caller: SupabaseClient | null, organizationId: string, invitationId: string, action: 'resend' | 'revoke') =>
    invitationActions(post('/api/admin/invitation-actions', { organization_id: organizationId, invitation_id: invitationId, action }, caller ? await tokenOf(caller) : undefined));

  it('is the route', () => expect(actionsConfig).toMatchObject({ path: '/api/admin/invitation-actions', method: 'POST' }));

  it('logs user_invited when an invitation is created', async () => {
    const invitation = await invite();
    expect((await logsAbout(invitation.id, 'user_invited'))[0]).toMatchObject({
      user_id: seed.users.admin.id, organization_id: seed.scalePro, resource_type: 'invitation', details: { email: invitation.email, role: 'editor' },
    });
  });

  it('resends with a new link: the old one dies, the new one is mailed and opens it; logged invitation_resent', async () => {
    const invitation = await invite();
    const response = await act(scaleAdmin, seed.scalePro, invitation.id, 'resend');
    expect(response.status).toBe(200);
    const answer = await response.json();
    expect(answer.mail).toBe('sent');
    const newToken = new URL(answer.link).searchParams.get('invite') ?? '';
    expect(newToken).not.toBe(invitation.token);
    expect((await findInvitation(service, invitation.token)).kind).toBe('unknown');
    expect((await findInvitation(service, newToken)).kind).toBe('valid');
    const mails = await outbox(invitation.email);
    expect(mails).toHaveLength(2);
    expect(mails.filter((mail) => mail.text.includes(answer.link))).toHaveLength(1);
    expect((await logsAbout(invitation.id, 'invitation_resent'))[0]).toMatchObject({ organization_id: seed.scalePro, details: { email: invitation.email } });
  });

  it('revokes: the link answers like an unknown one and cannot be accepted; listed as revoked; logged invitation_revoked', async () => {
    const invitation = await invite();
    const pendingBefore = (await countStaff(scaleAdmin, seed.scalePro)).pendingInvites;
    expect((await act(scaleAdmin, seed.scalePro, invitation.id, 'revoke')).status).toBe(200);
    expect((await countStaff(scaleAdmin, seed.scalePro)).pendingInvites).toBe(pendingBefore - 1);
    expect((await findInvitation(service, invitation.token)).kind).toBe('unknown');
    const accepted = await invitationAccept(new Request('http://localhost/api/invitations/accept', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-nf-client-connection-ip': '192.0.2.78' },
      body: JSON.stringify({ token: invitation.token, full_name: 'Too Late', password: 'A-Strong-Password-2026!' }),
    }));
    expect(accepted.status).toBe(404);
    const { data: account } = await service.from('profiles').select('id').eq('email', invitation.email);
    expect(account).toEqual([]);
    expect((await listInvitations(scaleAdmin, seed.scalePro)).find((row) => row.id === invitation.id)?.state).toBe('revoked');
    expect((await logsAbout(invitation.id, 'invitation_revoked'))[0]).toMatchObject({ user_id: seed.users.admin.id, details: { email: invitation.email } });
    // Revoked stays revoked: neither resend, nor a second revoke, nor a raw update reopens it.
    expect((await act(scaleAdmin, seed.scalePro, invitation.id, 'resend')).status).toBe(409);
    const reopened = await scaleAdmin.from('user_invitations').update({ expires_at: new Date(Date.now() + 86_400_000).toISOString() }).eq('id', invitation.id).select('id');
    expect(reopened.error?.code).toBe('42501');
  });

  it('refuses editors, visitors and the admin of Evergreen, changing nothing', async () => {
    const invitation = await invite();
    const { data: before } = await service.from('user_invitations').select('token_hash, expires_at, revoked_at').eq('id', invitation.id).single();
    expect((await act(null, seed.scalePro, invitation.id, 'revoke')).status).toBe(401);
    expect((await act(editor, seed.scalePro, invitation.id, 'revoke')).status).toBe(403);
    expect((await act(evergreenAdmin, seed.scalePro, invitation.id, 'resend')).status).toBe(403);
    expect((await act(evergreenAdmin, seed.evergreen, invitation.id, 'revoke')).status).toBe(409);
    expect((await act(evergreenAdmin, seed.evergreen, invitation.id, 'resend')).status).toBe(409);
    const { data: after } = await service.from('user_invitations').select('token_hash, expires_at, revoked_at').eq('id', invitation.id).single();
    expect(after).toEqual(before);
    expect(await logsAbout(invitation.id, 'invitation_revoked')).toEqual([]);
    expect(await outbox(invitation.email)).toHaveLength(1);
  });
});
