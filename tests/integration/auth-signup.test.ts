/**
 * Public sign-up is off (`[auth] enable_signup = false` in supabase/config.toml), and the local backend
 * refuses it as GoTrue does: with GoTrue's status, error code and message, before anything is written.
 * Administrators still create users (admin API, invitations, generated links).
 */
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

/** Calls an Auth endpoint with the anon key, without supabase-js, and returns status and JSON body. */
async function auth(path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${backend.apiUrl}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: LOCAL_SUPABASE.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const usersNamed = (email: string) => backend.sql('select id from auth.users where lower(email) = lower($1)', [email]);

describe('with public sign-up off', () => {
  it('GET /settings reports disable_signup: true and the email provider on', async () => {
    const response = await fetch(`${backend.apiUrl}/auth/v1/settings`, { headers: { apikey: LOCAL_SUPABASE.anonKey } });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ disable_signup: true, external: { email: true } });
  });

  it('POST /signup answers 422 signup_disabled and writes no user', async () => {
    const email = uniqueEmail('signup');
    const { status, body } = await auth('/signup', { email, password: 'a-fine-password-1' });
    expect(status).toBe(422);
    expect(body).toEqual({ code: 422, error_code: 'signup_disabled', msg: 'Signups not allowed for this instance' });
    expect(await usersNamed(email)).toEqual([]);
  });

  it('supabase-js signUp gets the same error', async () => {
    const email = uniqueEmail('signup-js');
    const { data, error } = await backend.anon().auth.signUp({ email, password: 'a-fine-password-1' });
    expect(data.user).toBeNull();
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('signup_disabled');
    expect(error?.message).toBe('Signups not allowed for this instance');
    expect(await usersNamed(email)).toEqual([]);
  });

  // supabase-js sends create_user: true unless shouldCreateUser is false. GoTrue runs its sign-up for an
  // unknown address (signup_disabled); asked not to create one, it refuses before that (otp_disabled).
  it.each([
    ['create_user left out', {}, 'signup_disabled', 'Signups not allowed for this instance'],
    ['create_user: true', { create_user: true }, 'signup_disabled', 'Signups not allowed for this instance'],
    ['create_user: false', { create_user: false }, 'otp_disabled', 'Signups not allowed for otp'],
  ])('POST /otp for an unknown address with %s answers 422 %s, writes no user and mails nothing', async (_label, extra, code, msg) => {
    const email = uniqueEmail('otp-unknown');
    const { status, body } = await auth('/otp', { email, ...extra });
    expect(status).toBe(422);
    expect(body).toEqual({ code: 422, error_code: code, msg });
    expect(await usersNamed(email)).toEqual([]);
    expect(await backend.outbox(email)).toEqual([]);
  });

  it('supabase-js signInWithOtp for an unknown address gets signup_disabled', async () => {
    const email = uniqueEmail('otp-js');
    const { error } = await backend.anon().auth.signInWithOtp({ email });
    expect(error?.status).toBe(422);
    expect(error?.code).toBe('signup_disabled');
    expect(await usersNamed(email)).toEqual([]);
  });

  it('POST /otp for a known, confirmed address still mails the magic link', async () => {
    const email = uniqueEmail('otp-known');
    expect((await backend.service().auth.admin.createUser({ email, password: 'known-pass-1', email_confirm: true })).error).toBeNull();
    const { error } = await backend.anon().auth.signInWithOtp({ email, options: { shouldCreateUser: false } });
    expect(error).toBeNull();
    const [mail] = await backend.outbox(email);
    expect(mail).toMatchObject({ type: 'magiclink', subject: 'Your Magic Link' });
    expect(new URL(mail!.link).searchParams.get('type')).toBe('magiclink');
  });

  it('POST /otp for an invited address not yet confirmed answers signup_disabled, as GoTrue signs such addresses up', async () => {
    const email = uniqueEmail('otp-invited');
    expect((await backend.service().auth.admin.inviteUserByEmail(email)).error).toBeNull();
    const before = (await backend.outbox(email)).length;
    const { status, body } = await auth('/otp', { email });
    expect(status).toBe(422);
    expect(body.error_code).toBe('signup_disabled');
    expect(await backend.outbox(email)).toHaveLength(before);
  });

  it('password sign-in and recovery still work for existing users', async () => {
    const email = uniqueEmail('existing');
    await backend.service().auth.admin.createUser({ email, password: 'existing-pass-1', email_confirm: true });
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'existing-pass-1' })).error).toBeNull();
    expect((await backend.anon().auth.resetPasswordForEmail(email)).error).toBeNull();
    expect(await backend.outbox(email)).toEqual([expect.objectContaining({ type: 'recovery' })]);
  });
});

describe('administrators still create users with public sign-up off', () => {
  it('POST /admin/users creates a user', async () => {
    const email = uniqueEmail('admin-create');
    const { data, error } = await backend.service().auth.admin.createUser({ email, password: 'admin-made-1', email_confirm: true });
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect((await backend.anon().auth.signInWithPassword({ email, password: 'admin-made-1' })).error).toBeNull();
  });

  it('POST /invite invites a new address and mails the invitation', async () => {
    const email = uniqueEmail('admin-invite');
    const { data, error } = await backend.service().auth.admin.inviteUserByEmail(email);
    expect(error).toBeNull();
    expect(data.user?.invited_at).toBeTruthy();
    expect(await backend.outbox(email)).toEqual([expect.objectContaining({ type: 'invite' })]);
  });

  it.each(['signup', 'invite', 'magiclink'] as const)('POST /admin/generate_link type %s creates an unknown address', async (type) => {
    const email = uniqueEmail(`admin-link-${type}`);
    const params = type === 'signup' ? { type, email, password: 'generated-1' } : { type, email };
    const { data, error } = await backend.service().auth.admin.generateLink(params);
    expect(error).toBeNull();
    expect(data.user?.email).toBe(email);
    expect(await usersNamed(email)).toHaveLength(1);
  });
});
