/**
 * Password reset end to end at the API level: the reset mail through the local outbox, the recovery link,
 * the new password, then the sign-in function with it. Uses its own user (the demo password stays).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import signIn from '../../netlify/functions/auth-sign-in.mts';
import { anonClient, backend, createMember, seed } from './support/db-fixtures.ts';
import { clientWithSession, removeMember, type Member } from './support/auth-users.ts';

/** Where reset links lead: the site's /auth page (an allowed redirect of the local backend). */
const SITE_AUTH_URL = 'http://localhost:8888/auth';

async function outbox(to: string): Promise<{ type: string; link: string | null }[]> {
  const response = await fetch(`${backend.url}/__local/outbox?to=${encodeURIComponent(to)}`, {
    headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
  });
  if (!response.ok) throw new Error(`outbox answered ${response.status}`);
  return response.json();
}

/** The fragment parameters the recovery link's redirect carries. */
async function followLink(link: string): Promise<URLSearchParams> {
  const response = await fetch(link, { redirect: 'manual' });
  expect([302, 303]).toContain(response.status);
  const location = response.headers.get('location') ?? '';
  expect(location.startsWith(`${SITE_AUTH_URL}#`)).toBe(true);
  return new URLSearchParams(location.slice(location.indexOf('#') + 1));
}

let admin: Member;
beforeAll(async () => {
  admin = await createMember('admin');
});
afterAll(async () => {
  await removeMember(admin);
});

describe('password reset', () => {
  it('answers the same for an unknown address, and sends it nothing', async () => {
    const nobody = `nobody-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
    const { data, error } = await anonClient().auth.resetPasswordForEmail(nobody, { redirectTo: SITE_AUTH_URL });
    expect(error).toBeNull();
    expect(data).toEqual({});
    expect(await outbox(nobody)).toEqual([]);
  });

  it('mails a recovery link to /auth that lets the user set a new password and sign in with it', async () => {
    const { error } = await anonClient().auth.resetPasswordForEmail(admin.email, { redirectTo: SITE_AUTH_URL });
    expect(error).toBeNull();
    const [mail] = await outbox(admin.email);
    expect(mail?.type).toBe('recovery');

    const fragment = await followLink(mail!.link!);
    expect(fragment.get('type')).toBe('recovery');
    const recovering = await clientWithSession({ access_token: fragment.get('access_token')!, refresh_token: fragment.get('refresh_token')! });
    const newPassword = 'Fresh-Start-2026';
    expect((await recovering.auth.updateUser({ password: newPassword })).error).toBeNull();

    const signInWith = (password: string) =>
      signIn(new Request('http://localhost/api/auth/sign-in', { method: 'POST', body: JSON.stringify({ email: admin.email, password }) }));
    expect((await signInWith(seed.password)).status).toBe(401);
    const response = await signInWith(newPassword);
    expect(response.status).toBe(200);
    expect((await response.json()).session.access_token).toBeTruthy();
  });

  it('refuses a recovery link the second time', async () => {
    await anonClient().auth.resetPasswordForEmail(admin.email, { redirectTo: SITE_AUTH_URL });
    const [mail] = await outbox(admin.email);
    expect((await followLink(mail!.link!)).get('access_token')).toBeTruthy();
    const again = await followLink(mail!.link!);
    expect(again.get('error')).toBe('access_denied');
    expect(again.get('access_token')).toBeNull();
  });
});
