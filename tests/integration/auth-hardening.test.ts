/**
 * The local backend as a faithful oracle of Supabase Auth's defences, attacked over HTTP on its own instance:
 * sign-up off (supabase/config.toml), redirect_to matched by origin, typed codes with a guess limit, refresh
 * tokens whose reuse ends the session, and Postgres listening on loopback only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { startTestBackend, uniqueEmail, type TestBackend } from './support/local-backend-instance.ts';

let backend: TestBackend;
beforeAll(() => {
  backend = startTestBackend();
}, 120_000);
afterAll(async () => {
  await backend?.stop();
});

const SITE = 'http://localhost:8888';
const password = 'Hardening-Pass-1';

async function createUser(email = uniqueEmail('hard')) {
  const { data, error } = await backend.service().auth.admin.createUser({ email, password, email_confirm: true });
  if (error || !data.user) throw new Error(`createUser failed: ${error?.message}`);
  return { id: data.user.id, email };
}

const postAuth = (path: string, body: unknown) =>
  fetch(`${backend.apiUrl}/auth/v1${path}`, {
    method: 'POST',
    headers: { apikey: LOCAL_SUPABASE.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('public sign-up is off, as supabase/config.toml says', () => {
  it('refuses /signup and a magic link for an unknown address, and creates no user', async () => {
    const email = uniqueEmail('signup');
    const signup = await postAuth('/signup', { email, password, data: { organization_id: crypto.randomUUID() } });
    expect(signup.status).toBe(422);
    expect(await signup.json()).toMatchObject({ error_code: 'signup_disabled', msg: 'Signups not allowed for this instance' });
    const otp = await postAuth('/otp', { email, create_user: true });
    expect(otp.status).toBe(422);
    expect((await otp.json()).error_code).toBe('otp_disabled');
    expect(await backend.sql('select id from auth.users where email = $1', [email])).toEqual([]);
    const settings = await (await fetch(`${backend.apiUrl}/auth/v1/settings`, { headers: { apikey: LOCAL_SUPABASE.anonKey } })).json();
    expect(settings.disable_signup).toBe(true);
  });

  it('still mails a magic link to a known address, and the admin API still creates users', async () => {
    const user = await createUser();
    expect((await postAuth('/otp', { email: user.email })).status).toBe(200);
    expect((await backend.outbox(user.email))[0]?.type).toBe('magiclink');
  });
});

describe('redirect_to is matched by origin', () => {
  it.each([
    [`${SITE}/auth`, `${SITE}/auth`],
    ['http://127.0.0.1:8888/auth?next=/admin/blog', 'http://127.0.0.1:8888/auth?next=/admin/blog'],
    ['http://localhost:8888.evil.test/auth', SITE],
    ['http://localhost:8888@evil.test/auth', SITE],
    ['https://localhost:8888/auth', SITE],
    ['javascript:alert(1)//http://localhost:8888', SITE],
    ['not a url', SITE],
  ])('%s leads to %s', async (requested, expected) => {
    const user = await createUser();
    expect((await postAuth(`/recover?redirect_to=${encodeURIComponent(requested)}`, { email: user.email })).status).toBe(200);
    const [mail] = await backend.outbox(user.email);
    expect(new URL(mail!.link).searchParams.get('redirect_to')).toBe(expected);
  });
});

describe('a typed code allows a few guesses, then dies', () => {
  it('after five wrong codes even the right one fails, until a new mail', async () => {
    const user = await createUser();
    await postAuth('/recover', { email: user.email });
    const code = /enter the code: (\d{6})/.exec((await backend.outbox(user.email))[0]!.text)![1]!;
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      expect((await postAuth('/verify', { email: user.email, token: wrong, type: 'recovery' })).status).toBe(403);
    }
    const right = await postAuth('/verify', { email: user.email, token: code, type: 'recovery' });
    expect(right.status).toBe(403);
    expect((await right.json()).error_code).toBe('otp_expired');

    await postAuth('/recover', { email: user.email });
    const fresh = /enter the code: (\d{6})/.exec((await backend.outbox(user.email))[0]!.text)![1]!;
    expect((await postAuth('/verify', { email: user.email, token: fresh, type: 'recovery' })).status).toBe(200);
  });
});

describe('refresh token reuse', () => {
  it('a rotated token presented after the reuse interval ends the whole session', async () => {
    const user = await createUser();
    const { data } = await backend.anon().auth.signInWithPassword({ email: user.email, password });
    const first = data.session!;
    const second = (await backend.anon().auth.refreshSession({ refresh_token: first.refresh_token })).data.session!;
    // The thief replays the first token after the interval (10 s, shortened here by backdating it).
    await backend.sql(`update auth.refresh_tokens set updated_at = now() - interval '1 minute' where token = $1`, [first.refresh_token]);
    const replay = await backend.anon().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(replay.error?.message).toMatch(/Already Used/);

    const sessionId = JSON.parse(Buffer.from(first.access_token.split('.')[1]!, 'base64url').toString()).session_id;
    expect(await backend.sql('select id from auth.sessions where id = $1', [sessionId])).toEqual([]);
    expect((await backend.anon().auth.refreshSession({ refresh_token: second.refresh_token })).error).not.toBeNull();
    const user2 = await fetch(`${backend.apiUrl}/auth/v1/user`, { headers: { apikey: LOCAL_SUPABASE.anonKey, authorization: `Bearer ${second.access_token}` } });
    expect(user2.status).toBe(403);
  });

  it('within the interval a racing client still gets the current token', async () => {
    const user = await createUser();
    const { data } = await backend.anon().auth.signInWithPassword({ email: user.email, password });
    const first = data.session!;
    const second = (await backend.anon().auth.refreshSession({ refresh_token: first.refresh_token })).data.session!;
    const again = await backend.anon().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(again.data.session?.refresh_token).toBe(second.refresh_token);
  });
});

describe('Postgres', () => {
  it('listens on 127.0.0.1 only', async () => {
    expect(await backend.sql('show listen_addresses')).toEqual([{ listen_addresses: '127.0.0.1' }]);
  });
});
