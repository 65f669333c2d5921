/**
 * Invitations are mailed: POST /api/admin/invitations as a handler fed real Requests against the real local
 * backend, whose outbox stands in for the mail provider. The mail names the organization, role, inviter,
 * link and expiry, and its link opens the invitation (GET /api/invitations/{token}); a mail that cannot be
 * sent leaves the invitation in place and says so. Also the Pending Invites count (pending and unexpired).
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import createInvitationHandler from '../../netlify/functions/admin-invitations.mts';
import invitationDetailsHandler from '../../netlify/functions/invitation-details.mts';
import { countStaff, listInvitations } from '../../src/lib/back-office/users.ts';
import { hashInvitationToken } from '../../src/lib/server/invitations.ts';
import { backend, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const invitedEmails: string[] = [];
const site = 'http://localhost:8888';

afterAll(async () => {
  if (invitedEmails.length) await service.from('user_invitations').delete().in('email', invitedEmails);
});
afterEach(() => {
  delete process.env.RESEND_API_KEY;
});

const freshEmail = (what: string) => {
  const email = `mail-${what}-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
  invitedEmails.push(email);
  return email;
};

async function adminToken(): Promise<string> {
  const { data } = await (await signedInClient(seed.users.admin.email)).auth.getSession();
  if (!data.session) throw new Error('no admin session');
  return data.session.access_token;
}

function invite(email: string, token: string, role = 'editor'): Request {
  return new Request(`${site}/api/admin/invitations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ organization_id: seed.scalePro, email, role }),
  });
}

async function outbox(to: string): Promise<{ to: string; subject: string; text: string; html: string; type: string }[]> {
  const response = await fetch(`${backend.url}/__local/outbox?to=${encodeURIComponent(to)}`, {
    headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
  });
  if (!response.ok) throw new Error(`the outbox answered ${response.status}`);
  return response.json();
}

describe('the link in an invitation', () => {
  it('leads to the organization\'s site, whatever host the request names', async () => {
    const email = freshEmail('host');
    const request = new Request('http://evil.example/api/admin/invitations', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await adminToken()}`, host: 'evil.example', 'x-forwarded-host': 'evil.example' },
      body: JSON.stringify({ organization_id: seed.scalePro, email, role: 'editor' }),
    });
    const response = await createInvitationHandler(request);
    expect(response.status).toBe(201);
    const [mail] = await outbox(email);
    expect(mail?.text).toContain(`${site}/auth?invite=`);
    expect(JSON.stringify(mail)).not.toContain('evil.example');
  });
});

describe('POST /api/admin/invitations mails the invitation', () => {
  it('puts a mail in the outbox naming organization, role, inviter and expiry, whose link opens the invitation', async () => {
    const email = freshEmail('sent');
    const response = await createInvitationHandler(invite(email, await adminToken()));
    expect(response.status).toBe(201);
    const answer = await response.json();
    expect(answer).toMatchObject({ mail: 'sent', message: `Invitation emailed to ${email}. The link is valid for 7 days.` });

    const mails = await outbox(email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({ to: email, type: 'app', subject: "You're invited to join Scale Pro Marketing as Editor" });
    expect(mail?.text).toContain('Alex Morgan invited you to join Scale Pro Marketing as Editor.');
    expect(mail?.text).toMatch(/valid for 7 days, until \w+ \d{1,2}, \d{4}, \d{2}:\d{2} UTC/);
    const link = /https?:\/\/\S+\/auth\?invite=\S+/.exec(mail?.text ?? '')?.[0];
    expect(link).toBe(answer.link);
    expect(link?.startsWith(`${site}/auth?invite=`)).toBe(true);
    expect(mail?.html).toContain(`<a href="${answer.link}">Accept the invitation</a>`);

    const token = new URL(link ?? '').searchParams.get('invite') ?? '';
    const details = await invitationDetailsHandler(new Request(`${site}/api/invitations/${encodeURIComponent(token)}`));
    expect(details.status).toBe(200);
    expect((await details.json()).invitation).toMatchObject({
      email,
      role: 'editor',
      organization: { id: seed.scalePro, name: 'Scale Pro Marketing' },
      invitedBy: 'Alex Morgan',
    });
  });

  it('keeps the invitation and says the email could not be sent when the mail transport fails', async () => {
    // A Resend key without MAIL_FROM is a transport that refuses to send: the same path as a provider error.
    process.env.RESEND_API_KEY = 're_test_without_sender';
    const email = freshEmail('failed');
    const response = await createInvitationHandler(invite(email, await adminToken(), 'viewer'));
    expect(response.status).toBe(201);
    const answer = await response.json();
    expect(answer).toMatchObject({
      mail: 'failed',
      message: `Invitation created, but the email could not be sent. Copy the link and send it to ${email} yourself.`,
    });
    const token = new URL(answer.link).searchParams.get('invite') ?? '';
    const { data } = await service.from('user_invitations').select('id, used_at').eq('token_hash', hashInvitationToken(token)).single();
    expect(data).toEqual({ id: answer.id, used_at: null });
    expect(await outbox(email)).toEqual([]);
  });
});

describe('re-inviting', () => {
  it('replaces an expired, unused invitation of the same address, so it can be sent again', async () => {
    const email = freshEmail('expired');
    const { error } = await service.from('user_invitations').insert({
      organization_id: seed.scalePro, email, role: 'viewer', token_hash: hashInvitationToken(email),
      invited_by: seed.users.admin.id, expires_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(error).toBeNull();
    const response = await createInvitationHandler(invite(email, await adminToken()));
    expect(response.status).toBe(201);
    const { data } = await service.from('user_invitations').select('id').eq('email', email);
    expect(data).toEqual([{ id: (await response.json()).id }]);
  });
});

describe('the Pending Invites count and list', () => {
  it('count and list only invitations that are neither used nor expired', async () => {
    const admin = await signedInClient(seed.users.admin.email);
    const before = (await countStaff(admin, seed.scalePro)).pendingInvites;
    const hour = 3600_000;
    const rows = [
      { email: freshEmail('count-valid'), expires_at: new Date(Date.now() + hour).toISOString(), used_at: null },
      { email: freshEmail('count-expired'), expires_at: new Date(Date.now() - hour).toISOString(), used_at: null },
      { email: freshEmail('count-used'), expires_at: new Date(Date.now() + hour).toISOString(), used_at: new Date().toISOString() },
    ].map((row) => ({ ...row, organization_id: seed.scalePro, role: 'viewer', token_hash: hashInvitationToken(row.email), invited_by: seed.users.admin.id }));
    const { error } = await service.from('user_invitations').insert(rows);
    expect(error).toBeNull();
    expect((await countStaff(admin, seed.scalePro)).pendingInvites).toBe(before + 1);
    const listed = (await listInvitations(admin, seed.scalePro)).filter((invitation) => invitation.state === 'pending').map((invitation) => invitation.email);
    expect(listed).toContain(rows[0]!.email);
    expect(listed).not.toContain(rows[1]!.email);
    expect(listed).not.toContain(rows[2]!.email);
    // Two hours on, the valid one has expired as well.
    expect((await countStaff(admin, seed.scalePro, new Date(Date.now() + 2 * hour))).pendingInvites).toBeLessThanOrEqual(before);
  });
});
