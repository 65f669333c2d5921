/**
 * `redirect_to` is matched by URL origin against SITE_URL and additional_redirect_urls (supabase/config.toml:
 * http://localhost:8888, http://127.0.0.1:8888, http://localhost:4321), never as a string prefix; anything
 * else falls back to SITE_URL. The verify link puts a session in the redirect's fragment, so a target that
 * merely starts with an allowed entry would hand the session to another host.
 */
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

/** A confirmed user to send links to. */
async function confirmedUser(): Promise<string> {
  const email = uniqueEmail('redirect');
  const { error } = await backend.service().auth.admin.createUser({ email, password: 'redirect-pass-1', email_confirm: true });
  expect(error).toBeNull();
  return email;
}

const ALLOWED = [
  'http://localhost:8888',
  'http://localhost:8888/auth?next=%2Fadmin',
  'http://localhost:8888/admin#section',
  'http://127.0.0.1:8888/auth',
  'http://localhost:4321/blog/some-post',
  'HTTP://LOCALHOST:8888/auth',
];

const REFUSED = [
  ['a longer host name', 'http://localhost:8888.evil.test/'],
  ['a longer host name with a path', 'http://localhost:8888.evil.test/auth'],
  ['user info before another host', 'http://localhost:8888@evil.test'],
  ['user info before another host, with a path', 'http://localhost:8888@evil.test/auth'],
  ['another scheme', 'https://localhost:8888/auth'],
  ['another port', 'http://localhost:8889/auth'],
  ['another host with an allowed URL in the path', 'http://evil.test/http://localhost:8888'],
  ['a javascript: URL', 'javascript:alert(1)//http://localhost:8888'],
  ['a data: URL', 'data:text/html,<script>alert(1)</script>'],
  ['a scheme-relative URL', '//evil.test/auth'],
  ['a relative path', '/auth'],
  ['a host without a scheme', 'localhost:8888/auth'],
  ['not a URL', 'not a url'],
] as const;

describe('redirect_to of generated links (POST /admin/generate_link)', () => {
  const target = async (redirectTo?: string) => {
    const { data, error } = await backend.service().auth.admin.generateLink({ type: 'recovery', email: await confirmedUser(), options: { redirectTo } });
    expect(error).toBeNull();
    return { property: data.properties!.redirect_to, inLink: new URL(data.properties!.action_link).searchParams.get('redirect_to') };
  };

  it('is SITE_URL when none is asked for', async () => {
    expect(await target()).toEqual({ property: SITE, inLink: SITE });
  });

  it.each(ALLOWED)('keeps %s (an allowed origin)', async (url) => {
    expect(await target(url)).toEqual({ property: url, inLink: url });
  });

  it.each(REFUSED)('falls back to SITE_URL for %s: %s', async (_label, url) => {
    expect(await target(url)).toEqual({ property: SITE, inLink: SITE });
  });
});

describe('redirect_to of mailed links', () => {
  it.each([
    ['an allowed target', `${SITE}/auth`, `${SITE}/auth`],
    ['a prefix look-alike', 'http://localhost:8888@evil.test/auth', SITE],
  ])('resetPasswordForEmail with %s mails a link to %s', async (_label, redirectTo, expected) => {
    const email = await confirmedUser();
    expect((await backend.anon().auth.resetPasswordForEmail(email, { redirectTo })).error).toBeNull();
    const [mail] = await backend.outbox(email);
    expect(new URL(mail!.link).searchParams.get('redirect_to')).toBe(expected);
  });
});

describe('GET /verify', () => {
  // The link a phishing mail would carry: a real token, its redirect_to swapped for the attacker's.
  it.each(REFUSED.slice(0, 4))('sends the session to SITE_URL, not to %s (%s)', async (_label, evil) => {
    const { data } = await backend.service().auth.admin.generateLink({ type: 'magiclink', email: await confirmedUser() });
    const link = `${backend.apiUrl}/auth/v1/verify?${new URLSearchParams({ token: data.properties!.hashed_token, type: 'magiclink', redirect_to: evil })}`;
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location.startsWith(`${SITE}#access_token=`)).toBe(true);
    expect(new URL(location).host).toBe('localhost:8888');
  });

  it('sends the session to an allowed target', async () => {
    const { data } = await backend.service().auth.admin.generateLink({ type: 'magiclink', email: await confirmedUser() });
    const link = `${backend.apiUrl}/auth/v1/verify?${new URLSearchParams({ token: data.properties!.hashed_token, type: 'magiclink', redirect_to: 'http://localhost:4321/auth' })}`;
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.headers.get('location')).toMatch(/^http:\/\/localhost:4321\/auth#access_token=/);
  });
});
