/**
 * POST /api/admin/users and POST /api/admin/invitations as handlers fed real Requests against the real
 * backend: callers who are not active admins of the organization are refused, bad bodies answer 400, the
 * create-user sequence leaves a usable account (or, when a step fails, no account at all), and invitations
 * are stored as the hash of the link's token. Everything created here is removed again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import createInvitationHandler, { config as invitationsConfig } from '../../netlify/functions/admin-invitations.mts';
import createUserHandler, { config as usersConfig } from '../../netlify/functions/admin-users.mts';
import { createStaffAccount } from '../../src/lib/server/staff-accounts.ts';
import { hashInvitationToken } from '../../src/lib/server/invitations.ts';
import { anonClient, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const createdEmails: string[] = [];
const invitedEmails: string[] = [];
const site = 'http://localhost:8888';

afterAll(async () => {
  for (const email of createdEmails) {
    const { data } = await service.from('profiles').select('id').eq('email', email).maybeSingle();
    if (!data) continue;
    await service.from('user_activity_logs').delete().or(`user_id.eq.${data.id},resource_id.eq.${data.id}`);
    await service.auth.admin.deleteUser(data.id);
  }
  if (invitedEmails.length) await service.from('user_invitations').delete().in('email', invitedEmails);
});

async function tokenOf(email: string): Promise<string> {
  const { data } = await (await signedInClient(email)).auth.getSession();
  if (!data.session) throw new Error(`no session for ${email}`);
  return data.session.access_token;
}

function post(path: string, body: unknown, token?: string): Request {
  return new Request(`${site}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const freshEmail = (what: string) => `fn-${what}-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
const newUser = (email: string) => ({ organization_id: seed.scalePro, email, full_name: 'Function Test', role: 'editor', password: 'Temp-Password-42' });

async function authUserExists(email: string): Promise<boolean> {
  const { data, error } = await service.auth.admin.listUsers({ perPage: 1000 });
  if (error) throw error;
  return data.users.some((user) => user.email === email);
}

describe('the routes', () => {
  it('are POST /api/admin/users and POST /api/admin/invitations', () => {
    expect(usersConfig).toMatchObject({ path: '/api/admin/users', method: 'POST' });
    expect(invitationsConfig).toMatchObject({ path: '/api/admin/invitations', method: 'POST' });
  });
});

describe.each([
  ['admin-users', createUserHandler, '/api/admin/users', () => newUser(freshEmail('refused'))],
  ['admin-invitations', createInvitationHandler, '/api/admin/invitations', () => ({ organization_id: seed.scalePro, email: freshEmail('refused'), role: 'viewer' })],
] as const)('%s refuses', (_name, handler, path, body) => {
  it('a request without a token (401)', async () => {
    expect((await handler(post(path, body()))).status).toBe(401);
  });

  it('an editor of the organization (403)', async () => {
    const response = await handler(post(path, body(), await tokenOf(seed.users.editor.email)));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Admin privileges required for this organization.' });
  });

  it('the admin of another organization (403)', async () => {
    expect((await handler(post(path, body(), await tokenOf(seed.users.otherAdmin.email)))).status).toBe(403);
  });

  it('an invalid body (400) and unknown fields (400), before looking at the caller', async () => {
    const bad = await handler(post(path, { ...body(), email: 'not-an-email' }, await tokenOf(seed.users.admin.email)));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toMatch(/^email: /);
    expect((await handler(post(path, { ...body(), extra: 1 }))).status).toBe(400);
    expect((await handler(post(path, 'not json'))).status).toBe(400);
  });

  it('a body over the size limit (413)', async () => {
    expect((await handler(post(path, { ...body(), padding: 'x'.repeat(20_000) }))).status).toBe(413);
  });
});

describe('admin-users', () => {
  it('creates a confirmed staff account in the organization, logs it and mails a reset link to /auth', async () => {
    const email = freshEmail('created');
    createdEmails.push(email);
    const response = await createUserHandler(post('/api/admin/users', newUser(email), await tokenOf(seed.users.admin.email)));
    expect(response.status).toBe(201);
    const { id } = await response.json();

    const { data: profile } = await service.from('profiles').select('email, full_name, role, organization_id, is_active').eq('id', id).single();
    expect(profile).toEqual({ email, full_name: 'Function Test', role: 'editor', organization_id: seed.scalePro, is_active: true });
    const { data: log } = await service.from('user_activity_logs').select('user_id, action').eq('resource_id', id);
    expect(log).toEqual([{ user_id: seed.users.admin.id, action: 'user_created_by_admin' }]);

    const signIn = await anonClient().auth.signInWithPassword({ email, password: 'Temp-Password-42' });
    expect(signIn.error).toBeNull();

    const again = await createUserHandler(post('/api/admin/users', newUser(email), await tokenOf(seed.users.admin.email)));
    expect(again.status).toBe(409);
  });

  it('removes the account again when a later step fails (no half-created user remains)', async () => {
    const email = freshEmail('rollback');
    createdEmails.push(email);
    // An acting admin without a profile makes the activity-log step fail after the account exists.
    const ghostAdmin = { id: crypto.randomUUID() };
    await expect(
      createStaffAccount(service, { admin: ghostAdmin, organizationId: seed.scalePro, siteUrl: site }, { email, full_name: 'Rollback', role: 'viewer', password: 'Temp-Password-42' }),
    ).rejects.toThrow(/Logging user_created_by_admin for .* failed/);
    expect(await authUserExists(email)).toBe(false);
    const { data } = await service.from('profiles').select('id').eq('email', email);
    expect(data).toEqual([]);
  });
});

describe('admin-invitations', () => {
  it('stores a pending invitation as the hash of the token in its /auth?invite= link, once per address', async () => {
    const email = freshEmail('invited');
    invitedEmails.push(email);
    const token = await tokenOf(seed.users.admin.email);
    const response = await createInvitationHandler(post('/api/admin/invitations', { organization_id: seed.scalePro, email, role: 'editor' }, token));
    expect(response.status).toBe(201);
    const answer = await response.json();
    const linkToken = new URL(answer.link).searchParams.get('invite');
    expect(answer.link.startsWith(`${site}/auth?invite=`)).toBe(true);

    const { data } = await service.from('user_invitations').select('organization_id, role, token_hash, invited_by, used_at, expires_at').eq('id', answer.id).single();
    expect(data).toMatchObject({ organization_id: seed.scalePro, role: 'editor', token_hash: hashInvitationToken(linkToken ?? ''), invited_by: seed.users.admin.id, used_at: null });
    const days = (Date.parse(data?.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const again = await createInvitationHandler(post('/api/admin/invitations', { organization_id: seed.scalePro, email, role: 'editor' }, token));
    expect(again.status).toBe(409);
  });
});
