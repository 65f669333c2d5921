import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { workerBackend, uniqueEmail, type TestBackend } from './support/local-backend-instance.ts';

let backend: TestBackend;
beforeAll(() => {
  backend = workerBackend();
});
afterAll(async () => {
  await backend?.stop();
});

/** Creates a confirmed user through the admin API and returns its email and id. */
async function createConfirmedUser(password = 'correct-horse-1') {
  const email = uniqueEmail('pw');
  const { data, error } = await backend.service().auth.admin.createUser({ email, password, email_confirm: true, user_metadata: { full_name: 'Pat Doe' } });
  expect(error).toBeNull();
  return { email, password, id: data.user!.id };
}

describe('password sign-in (POST /token?grant_type=password)', () => {
  it('signs in with the right password and records a session row with user agent and address', async () => {
    const { email, password, id } = await createConfirmedUser();
    const { data, error } = await backend.anon().auth.signInWithPassword({ email, password });
    expect(error).toBeNull();
    expect(data.session?.token_type).toBe('bearer');
    expect(data.session?.expires_in).toBe(3600);
    expect(data.user?.id).toBe(id);
    expect(data.user?.email).toBe(email);
    expect(data.user?.last_sign_in_at).toBeTruthy();
    const sessions = await backend.sql<{ user_agent: string; ip: string; aal: string }>(
      'select user_agent, host(ip) as ip, aal::text from auth.sessions where user_id = $1',
      [id],
    );
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.aal).toBe('aal1');
    expect(sessions[0]!.ip).toBe('127.0.0.1');
    expect(sessions[0]!.user_agent).toBeTruthy();
  });

  it.each([
    ['a wrong password', (email: string) => ({ email, password: 'wrong-password' })],
    ['an unknown email', () => ({ email: uniqueEmail('nobody'), password: 'whatever-1' })],
  ])('refuses %s with 400 invalid_credentials', async (_label, credentials) => {
    const { email } = await createConfirmedUser();
    const { data, error } = await backend.anon().auth.signInWithPassword(credentials(email));
    expect(data.session).toBeNull();
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('invalid_credentials');
    expect(error?.message).toBe('Invalid login credentials');
  });

  it('signs in a user seeded with extensions.crypt(password, gen_salt(bf))', async () => {
    const email = uniqueEmail('seeded');
    await backend.sql(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1,
               extensions.crypt('seed-password', extensions.gen_salt('bf')), now(), '{"provider":"email","providers":["email"]}', '{}', now(), now())`,
      [email],
    );
    const { data, error } = await backend.anon().auth.signInWithPassword({ email, password: 'seed-password' });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
  });

  it('stores GoTrue-format $2a$ bcrypt hashes, at the cost the instance was started with', async () => {
    const { id } = await createConfirmedUser();
    const [row] = await backend.sql<{ encrypted_password: string }>('select encrypted_password from auth.users where id = $1', [id]);
    // The suite starts its instances with LOCAL_AUTH_HASH_COST (vitest.config.ts); GoTrue's 10 without it.
    const cost = String(process.env.LOCAL_AUTH_HASH_COST || 10).padStart(2, '0');
    expect(row!.encrypted_password).toMatch(new RegExp(`^\\$2a\\$${cost}\\$`));
  });

  it('refuses a banned user with user_banned', async () => {
    const { email, password, id } = await createConfirmedUser();
    const admin = backend.service().auth.admin;
    expect((await admin.updateUserById(id, { ban_duration: '24h' })).error).toBeNull();
    const { error } = await backend.anon().auth.signInWithPassword({ email, password });
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('user_banned');
  });
});

describe('access token claims', () => {
  it('carries the claims Supabase Auth issues', async () => {
    const { email, password, id } = await createConfirmedUser();
    const { data } = await backend.anon().auth.signInWithPassword({ email, password });
    const claims = decodeJwt(data.session!.access_token);
    const [session] = await backend.sql<{ id: string }>('select id from auth.sessions where user_id = $1', [id]);
    expect(claims).toMatchObject({
      iss: `${backend.apiUrl}/auth/v1`,
      sub: id,
      aud: 'authenticated',
      email,
      phone: '',
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'Pat Doe' },
      role: 'authenticated',
      aal: 'aal1',
      session_id: session!.id,
      is_anonymous: false,
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(claims.amr).toEqual([{ method: 'password', timestamp: expect.any(Number) }]);
  });
});

describe('sessions', () => {
  it('rotates the refresh token within the same session', async () => {
    const { email, password, id } = await createConfirmedUser();
    const client = backend.anon();
    const { data: signIn } = await client.auth.signInWithPassword({ email, password });
    const first = signIn.session!;
    const { data, error } = await client.auth.refreshSession({ refresh_token: first.refresh_token });
    expect(error).toBeNull();
    expect(data.session!.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(data.session!.access_token).session_id).toBe(decodeJwt(first.access_token).session_id);
    const tokens = await backend.sql<{ token: string; revoked: boolean; parent: string | null }>(
      'select token, revoked, parent from auth.refresh_tokens where user_id = $1 order by id',
      [id],
    );
    expect(tokens).toEqual([
      { token: first.refresh_token, revoked: true, parent: null },
      { token: data.session!.refresh_token, revoked: false, parent: first.refresh_token },
    ]);
  });

  it('getUser returns the signed-in user', async () => {
    const { email, password, id } = await createConfirmedUser();
    const client = backend.anon();
    await client.auth.signInWithPassword({ email, password });
    const { data, error } = await client.auth.getUser();
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ id, email, aud: 'authenticated', role: 'authenticated', user_metadata: { full_name: 'Pat Doe' } });
    expect(data.user?.identities?.[0]).toMatchObject({ provider: 'email', user_id: id });
  });

  it('updateUser changes the password; the new one signs in and the old one no longer does', async () => {
    const { email, password } = await createConfirmedUser();
    const client = backend.anon();
    await client.auth.signInWithPassword({ email, password });
    const { error } = await client.auth.updateUser({ password: 'brand-new-pass-2' });
    expect(error).toBeNull();
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'brand-new-pass-2' })).error).toBeNull();
    expect((await backend.anon().auth.signInWithPassword({ email, password })).error?.code).toBe('invalid_credentials');
  });

  it('refuses a too short password with weak_password', async () => {
    const { email, password } = await createConfirmedUser();
    const client = backend.anon();
    await client.auth.signInWithPassword({ email, password });
    const { error } = await client.auth.updateUser({ password: '123' });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('weak_password');
  });

  it('signOut deletes the session row; its refresh token and access token stop working at once', async () => {
    const { email, password, id } = await createConfirmedUser();
    const client = backend.anon();
    const { data } = await client.auth.signInWithPassword({ email, password });
    const { access_token, refresh_token } = data.session!;
    expect((await client.auth.signOut()).error).toBeNull();
    expect(await backend.sql('select 1 from auth.sessions where user_id = $1', [id])).toHaveLength(0);

    const refreshed = await backend.anon().auth.refreshSession({ refresh_token });
    expect(refreshed.error?.status).toBe(400);
    expect(refreshed.error?.code).toBe('refresh_token_not_found');

    // GoTrue answers 403 session_not_found, which supabase-js turns into AuthSessionMissingError.
    const response = await fetch(`${backend.apiUrl}/auth/v1/user`, {
      headers: { apikey: LOCAL_SUPABASE.anonKey, authorization: `Bearer ${access_token}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ code: 403, error_code: 'session_not_found', msg: 'Session from session_id claim in JWT does not exist' });
    const user = await backend.anon().auth.getUser(access_token);
    expect(user.data.user).toBeNull();
    expect(user.error?.name).toBe('AuthSessionMissingError');
  });

  it("signOut({ scope: 'others' }) keeps only the current session", async () => {
    const { email, password, id } = await createConfirmedUser();
    const keep = backend.anon();
    await backend.anon().auth.signInWithPassword({ email, password });
    await keep.auth.signInWithPassword({ email, password });
    expect(await backend.sql('select 1 from auth.sessions where user_id = $1', [id])).toHaveLength(2);
    expect((await keep.auth.signOut({ scope: 'others' })).error).toBeNull();
    expect(await backend.sql('select 1 from auth.sessions where user_id = $1', [id])).toHaveLength(1);
    expect((await keep.auth.getUser()).error).toBeNull();
  });
});
