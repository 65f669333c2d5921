import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerBackend, uniqueEmail, type TestBackend } from './support/local-backend-instance.ts';

let backend: TestBackend;
beforeAll(() => {
  backend = workerBackend();
});
afterAll(async () => {
  await backend?.stop();
});

const SITE = 'http://localhost:8888';

/** Follows a verify link like a browser and returns the session GoTrue put in the redirect fragment. */
async function followLink(link: string): Promise<{ location: URL; fragment: URLSearchParams }> {
  const response = await fetch(link, { redirect: 'manual' });
  expect(response.status).toBe(303);
  const location = new URL(response.headers.get('location')!);
  return { location, fragment: new URLSearchParams(location.hash.slice(1)) };
}

describe('admin users API', () => {
  it('creates, gets, lists, updates and deletes a user', async () => {
    const admin = backend.service().auth.admin;
    const email = uniqueEmail('admin');
    const created = await admin.createUser({
      email,
      password: 'initial-pass-1',
      email_confirm: true,
      user_metadata: { full_name: 'Ada Admin' },
      app_metadata: { organization_role: 'editor' },
    });
    expect(created.error).toBeNull();
    const user = created.data.user!;
    expect(user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      user_metadata: { full_name: 'Ada Admin' },
      app_metadata: { provider: 'email', providers: ['email'], organization_role: 'editor' },
    });
    expect(user.email_confirmed_at).toBeTruthy();

    const fetched = await admin.getUserById(user.id);
    expect(fetched.data.user?.email).toBe(email);

    const listed = await admin.listUsers({ page: 1, perPage: 1000 });
    expect(listed.error).toBeNull();
    expect(listed.data.users.map((u) => u.id)).toContain(user.id);
    expect('total' in listed.data && listed.data.total).toBeGreaterThanOrEqual(1);

    const updated = await admin.updateUserById(user.id, {
      password: 'changed-pass-2',
      user_metadata: { full_name: 'Ada Lovelace' },
      app_metadata: { organization_role: 'admin' },
    });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.user_metadata).toEqual({ full_name: 'Ada Lovelace' });
    expect(updated.data.user?.app_metadata).toMatchObject({ provider: 'email', organization_role: 'admin' });
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'changed-pass-2' })).error).toBeNull();

    expect((await admin.deleteUser(user.id)).error).toBeNull();
    const gone = await admin.getUserById(user.id);
    expect(gone.error?.status).toBe(404);
    expect(gone.error?.code).toBe('user_not_found');
    expect(await backend.sql('select 1 from auth.identities where user_id = $1', [user.id])).toHaveLength(0);
  });

  it('paginates with x-total-count and link headers', async () => {
    const admin = backend.service().auth.admin;
    for (let i = 0; i < 3; i++) await admin.createUser({ email: uniqueEmail(`page${i}`), password: 'page-pass-1', email_confirm: true });
    const [row] = await backend.sql<{ count: string }>('select count(*) from auth.users');
    const first = await admin.listUsers({ page: 1, perPage: 2 });
    expect(first.error).toBeNull();
    expect(first.data.users).toHaveLength(2);
    expect(first.data).toMatchObject({ total: Number(row!.count), nextPage: 2 });
    const second = await admin.listUsers({ page: 2, perPage: 2 });
    expect(second.data.users.map((u) => u.id)).not.toContain(first.data.users[0]!.id);
  });

  it('refuses a duplicate email with 422 email_exists', async () => {
    const admin = backend.service().auth.admin;
    const email = uniqueEmail('dup');
    await admin.createUser({ email, password: 'dup-pass-1', email_confirm: true });
    const again = await admin.createUser({ email: email.toUpperCase(), password: 'dup-pass-1', email_confirm: true });
    expect(again.error?.status).toBe(422);
    expect(again.error?.code).toBe('email_exists');
  });

  it('refuses the admin API to the anon key and to signed-in users with 403 not_admin', async () => {
    const anonAdmin = backend.anon().auth.admin;
    const listed = await anonAdmin.listUsers();
    expect(listed.error?.status).toBe(403);
    const email = uniqueEmail('notadmin');
    await backend.service().auth.admin.createUser({ email, password: 'plain-user-1', email_confirm: true });
    const { data } = await backend.anon().auth.signInWithPassword({ email, password: 'plain-user-1' });
    const response = await fetch(`${backend.apiUrl}/auth/v1/admin/users`, {
      headers: { apikey: (await import('../../src/lib/server/service-config.ts')).LOCAL_SUPABASE.anonKey, authorization: `Bearer ${data.session!.access_token}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error_code: 'not_admin', msg: 'User not allowed' });
  });
});

describe('links and mails', () => {
  it('resetPasswordForEmail mails a link that, followed, yields a recovery session', async () => {
    const admin = backend.service().auth.admin;
    const email = uniqueEmail('recover');
    await admin.createUser({ email, password: 'forgotten-1', email_confirm: true });
    const { data, error } = await backend.anon().auth.resetPasswordForEmail(email, { redirectTo: `${SITE}/auth` });
    expect(error).toBeNull();
    expect(data).toEqual({});

    const [mail] = await backend.outbox(email);
    expect(mail).toMatchObject({ to: email, type: 'recovery', subject: 'Reset Your Password' });
    expect(mail!.html).toContain(mail!.link.replaceAll('&', '&#38;'));
    const link = new URL(mail!.link);
    expect(link.origin + link.pathname).toBe(`${backend.apiUrl}/auth/v1/verify`);
    expect(link.searchParams.get('type')).toBe('recovery');
    expect(link.searchParams.get('redirect_to')).toBe(`${SITE}/auth`);

    const { location, fragment } = await followLink(mail!.link);
    expect(location.origin + location.pathname).toBe(`${SITE}/auth`);
    expect(fragment.get('type')).toBe('recovery');
    expect(decodeJwt(fragment.get('access_token')!).amr).toEqual([{ method: 'recovery', timestamp: expect.any(Number) }]);

    const client = backend.anon();
    const session = await client.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    expect(session.error).toBeNull();
    expect((await client.auth.updateUser({ password: 'remembered-2' })).error).toBeNull();
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'remembered-2' })).error).toBeNull();

    // The link works once.
    const again = await followLink(mail!.link);
    expect(again.fragment.get('error_code')).toBe('otp_expired');
  });

  it('recover answers 200 {} for an unknown address and mails nothing', async () => {
    const email = uniqueEmail('unknown');
    const { data, error } = await backend.anon().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(await backend.outbox(email)).toEqual([]);
  });

  it('verifyOtp accepts the recovery token hash and the emailed code', async () => {
    const admin = backend.service().auth.admin;
    const email = uniqueEmail('otp');
    await admin.createUser({ email, password: 'otp-pass-1', email_confirm: true });

    const link = await admin.generateLink({ type: 'recovery', email });
    expect(link.error).toBeNull();
    const byHash = await backend.anon().auth.verifyOtp({ type: 'recovery', token_hash: link.data.properties!.hashed_token });
    expect(byHash.error).toBeNull();
    expect(byHash.data.session?.user.email).toBe(email);

    await backend.anon().auth.resetPasswordForEmail(email);
    const [mail] = await backend.outbox(email);
    const code = /enter the code: (\d{6})/.exec(mail!.text)![1]!;
    const byCode = await backend.anon().auth.verifyOtp({ type: 'recovery', email, token: code });
    expect(byCode.error).toBeNull();
    expect(byCode.data.session?.access_token).toBeTruthy();

    const wrong = await backend.anon().auth.verifyOtp({ type: 'recovery', email, token: '000000' });
    expect(wrong.error?.status).toBe(403);
    expect(wrong.error?.code).toBe('otp_expired');
  });

  it('generateLink returns GoTrue properties for recovery, invite, magiclink and signup', async () => {
    const admin = backend.service().auth.admin;
    const existing = uniqueEmail('gl');
    await admin.createUser({ email: existing, password: 'gl-pass-1', email_confirm: true });
    const cases = [
      { type: 'recovery' as const, email: existing, verification: 'recovery' },
      { type: 'magiclink' as const, email: existing, verification: 'magiclink' },
      { type: 'invite' as const, email: uniqueEmail('gl-invite'), verification: 'invite' },
      { type: 'signup' as const, email: uniqueEmail('gl-signup'), password: 'gl-signup-1', verification: 'signup' },
    ];
    for (const { verification, ...params } of cases) {
      const { data, error } = await admin.generateLink({ ...params, options: { redirectTo: `${SITE}/admin` } } as Parameters<typeof admin.generateLink>[0]);
      expect(error, params.type).toBeNull();
      expect(data.user?.email).toBe(params.email);
      expect(data.properties).toMatchObject({
        verification_type: verification,
        redirect_to: `${SITE}/admin`,
        email_otp: expect.stringMatching(/^\d{6}$/),
        hashed_token: expect.stringMatching(/^[0-9a-f]{56}$/),
      });
      const action = new URL(data.properties!.action_link);
      expect(action.searchParams.get('token')).toBe(data.properties!.hashed_token);
      expect(action.searchParams.get('type')).toBe(verification);
    }
    // generate_link does not send mail, as in GoTrue.
    expect(await backend.outbox(existing)).toEqual([]);
  });

  it('invites a user by email; the link confirms them and signs them in to set a password', async () => {
    const admin = backend.service().auth.admin;
    const email = uniqueEmail('invite');
    const { data, error } = await admin.inviteUserByEmail(email, { data: { full_name: 'New Editor' }, redirectTo: `${SITE}/auth` });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, user_metadata: { full_name: 'New Editor' } });
    expect(data.user?.invited_at).toBeTruthy();
    expect(data.user?.email_confirmed_at).toBeUndefined();

    const [mail] = await backend.outbox(email);
    expect(mail).toMatchObject({ type: 'invite', subject: 'You have been invited' });
    const { fragment } = await followLink(mail!.link);
    expect(fragment.get('type')).toBe('invite');
    const client = backend.anon();
    await client.auth.setSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    expect((await client.auth.getUser()).data.user?.email_confirmed_at).toBeTruthy();
    expect((await client.auth.updateUser({ password: 'invited-pass-1' })).error).toBeNull();
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'invited-pass-1' })).error).toBeNull();

    const twice = await admin.inviteUserByEmail(email);
    expect(twice.error?.code).toBe('email_exists');
  });
});
