/**
 * POST /api/auth/sign-in, called as a handler with real Requests against the local backend: outcomes,
 * attempt records, lockout and its end, validation, and that ending a session or deactivating a user ends
 * access at once.
 */
import { isAuthSessionMissingError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import signIn, { config, REFUSAL_FLOOR_MS } from '../../netlify/functions/auth-sign-in.mts';
import { AUTH_MESSAGES } from '../../src/lib/auth-messages.ts';
import { FAILURE_REASONS } from '../../src/lib/server/login-attempts.ts';
import { createMember, seed, serviceClient, withDatabase } from './support/db-fixtures.ts';
import { clientWithSession, removeMember, sessionIdOfToken, type Member } from './support/auth-users.ts';

const service = serviceClient();
const password = seed.password;
const wrongPassword = 'Not-The-Password-9';

/** Everything the function writes to the console, to prove no password ever reaches the logs. */
const logged: string[] = [];

function request(body: unknown, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/api/auth/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'SignInSuite/1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function attemptsOf(email: string) {
  const { data, error } = await service
    .from('login_attempts')
    .select('success, failure_reason, ip_address, user_agent')
    .eq('email', email)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return data;
}

async function liveSessionsOf(userId: string): Promise<number> {
  return withDatabase(async (db) => (await db.query('select count(*)::int as n from auth.sessions where user_id = $1', [userId])).rows[0].n);
}

const members: Member[] = [];
let admin: Member;
let editor: Member;
let unknownEmail: string;

beforeAll(async () => {
  for (const method of ['log', 'info', 'warn', 'error'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  }
  admin = await createMember('admin');
  editor = await createMember('editor');
  members.push(admin, editor);
  unknownEmail = `nobody-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
});

afterAll(async () => {
  vi.restoreAllMocks();
  await Promise.all(members.map(removeMember));
  await service.from('login_attempts').delete().eq('email', unknownEmail);
});

describe('POST /api/auth/sign-in', () => {
  it('is routed at /api/auth/sign-in for POST', () => {
    expect(config).toMatchObject({ path: '/api/auth/sign-in', method: 'POST' });
  });

  it('signs an active admin in: session, attempt with the client address, activity log, last_login', async () => {
    const response = await signIn(request({ email: admin.email.toUpperCase(), password }, { 'x-nf-client-connection-ip': '203.0.113.7' }));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(Object.keys(body)).toEqual(['session']);
    expect(body.session.access_token.split('.')).toHaveLength(3);

    const browser = await clientWithSession(body.session);
    const { data: user } = await browser.auth.getUser();
    expect(user.user?.id).toBe(admin.id);
    const { data: role } = await browser.rpc('org_role', { org: seed.scalePro });
    expect(role).toBe('admin');

    expect((await attemptsOf(admin.email))[0]).toEqual({ success: true, failure_reason: null, ip_address: '203.0.113.7', user_agent: 'SignInSuite/1.0' });
    const { data: activity } = await service.from('user_activity_logs').select('action').eq('user_id', admin.id);
    expect(activity?.map((row) => row.action)).toContain('admin_login_success');
    const { data: profile } = await service.from('profiles').select('last_login').eq('id', admin.id).single();
    expect(Date.now() - Date.parse(profile!.last_login)).toBeLessThan(60_000);
    // The auth session records the browser's address and agent, not the function's.
    const sessionRow = await withDatabase(async (db) =>
      (await db.query('select host(ip) as ip, user_agent from auth.sessions where id = $1', [sessionIdOfToken(body.session.access_token)])).rows[0]);
    expect(sessionRow).toEqual({ ip: '203.0.113.7', user_agent: 'SignInSuite/1.0' });
  });

  it('refuses a wrong password and an unknown address with the same answer and similar timing', async () => {
    const timed = async (email: string) => {
      const started = performance.now();
      const response = await signIn(request({ email, password: wrongPassword }, { 'x-nf-client-connection-ip': '198.51.100.4' }));
      return { status: response.status, body: await response.json(), ms: performance.now() - started };
    };
    const wrong = await timed(admin.email);
    const unknown = await timed(unknownEmail);

    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ title: 'Admin Access Denied', message: 'Invalid credentials or insufficient privileges.' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.ms).toBeGreaterThanOrEqual(REFUSAL_FLOOR_MS - 5);
    expect(unknown.ms).toBeGreaterThanOrEqual(REFUSAL_FLOOR_MS - 5);
    expect(Math.abs(wrong.ms - unknown.ms)).toBeLessThan(300);

    for (const email of [admin.email, unknownEmail]) {
      expect((await attemptsOf(email))[0]).toEqual({
        success: false, failure_reason: FAILURE_REASONS.invalidCredentials, ip_address: '198.51.100.4', user_agent: 'SignInSuite/1.0',
      });
    }
  });

  it('refuses a deactivated account with what to do instead, and ends the session it got', async () => {
    const inactive = await createMember('admin');
    members.push(inactive);
    await service.from('profiles').update({ is_active: false }).eq('id', inactive.id);

    const response = await signIn(request({ email: inactive.email, password }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ title: AUTH_MESSAGES.inactive.title, message: AUTH_MESSAGES.inactive.description });
    expect(await liveSessionsOf(inactive.id)).toBe(0);
    expect((await attemptsOf(inactive.email))[0]).toMatchObject({ success: false, failure_reason: FAILURE_REASONS.inactive });
  });

  it('refuses an account whose only membership is deactivated, and ends the session it got', async () => {
    const removed = await createMember('editor');
    members.push(removed);
    await service.from('organization_memberships').update({ is_active: false }).eq('user_id', removed.id);

    const response = await signIn(request({ email: removed.email, password }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ title: AUTH_MESSAGES.noOrganization.title, message: AUTH_MESSAGES.noOrganization.description });
    expect(await liveSessionsOf(removed.id)).toBe(0);
    expect((await attemptsOf(removed.email))[0]).toMatchObject({ success: false, failure_reason: FAILURE_REASONS.noOrganization });
  });

  it('refuses a body with fields it does not know (the old `area`)', async () => {
    const response = await signIn(request({ email: editor.email, password, area: 'blog' }));
    expect(response.status).toBe(400);
  });
});

describe('POST /api/auth/sign-in for editors and viewers', () => {
  it('admits an active editor and a viewer and logs login_success', async () => {
    const viewer = await createMember('viewer');
    members.push(viewer);
    for (const member of [editor, viewer]) {
      const response = await signIn(request({ email: member.email, password }));
      expect(response.status).toBe(200);
      const body = await response.json();
      const browser = await clientWithSession(body.session);
      expect((await browser.rpc('org_role', { org: seed.scalePro })).data).toBe(member === editor ? 'editor' : 'viewer');
      expect((await attemptsOf(member.email))[0]).toMatchObject({ success: true, failure_reason: null });
      const { data: activity } = await service.from('user_activity_logs').select('action').eq('user_id', member.id);
      expect(activity?.map((row) => row.action)).toContain('login_success');
      expect(activity?.map((row) => row.action)).not.toContain('admin_login_success');
    }
  });

  it('admits a member deactivated in one organization who is active in another, with no access to the first', async () => {
    const member = await createMember('admin');
    members.push(member);
    await service.from('organization_memberships').insert({ user_id: member.id, organization_id: seed.evergreen, role: 'viewer' });
    await service.from('organization_memberships').update({ is_active: false }).eq('user_id', member.id).eq('organization_id', seed.scalePro);

    const response = await signIn(request({ email: member.email, password }));
    expect(response.status).toBe(200);
    const browser = await clientWithSession((await response.json()).session);
    expect((await browser.rpc('org_role', { org: seed.scalePro })).data).toBeNull();
    expect((await browser.rpc('org_role', { org: seed.evergreen })).data).toBe('viewer');
    const { data: posts } = await browser.from('blog_posts').select('id').eq('organization_id', seed.scalePro).neq('status', 'published');
    expect(posts).toEqual([]);
    const { data: activity } = await service.from('user_activity_logs').select('action, organization_id').eq('user_id', member.id);
    expect(activity).toContainEqual({ action: 'login_success', organization_id: seed.evergreen });
  });

  it('still gives the same answer to a wrong password', async () => {
    const wrong = await signIn(request({ email: editor.email, password: wrongPassword }));
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ title: 'Admin Access Denied', message: 'Invalid credentials or insufficient privileges.' });
  });
});

describe('lockout', () => {
  /** Stores credential failures `minutesAgo` in the past, as if they had happened then. */
  async function pastFailures(email: string, minutesAgo: number[]) {
    const rows = minutesAgo.map((minutes) => ({
      email, success: false, failure_reason: FAILURE_REASONS.invalidCredentials,
      created_at: new Date(Date.now() - minutes * 60_000).toISOString(),
    }));
    const { error } = await service.from('login_attempts').insert(rows);
    if (error) throw error;
  }

  it('refuses even the right password after five failures within 15 minutes, for 15 minutes', async () => {
    const locked = await createMember('admin');
    members.push(locked);
    await pastFailures(locked.email, [1, 2, 3, 4]);
    // The fifth failure, through the function.
    expect((await signIn(request({ email: locked.email, password: wrongPassword }))).status).toBe(401);

    const refused = await signIn(request({ email: locked.email, password }));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toEqual({ title: AUTH_MESSAGES.lockedOut.title, message: AUTH_MESSAGES.lockedOut.description });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect((await attemptsOf(locked.email))[0]).toMatchObject({ success: false, failure_reason: FAILURE_REASONS.lockedOut });
    expect(await liveSessionsOf(locked.id)).toBe(0);
  });

  it('locks unknown addresses the same way (the answer says nothing about the account)', async () => {
    const ghost = `ghost-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
    try {
      await pastFailures(ghost, [1, 2, 3, 4, 5]);
      const refused = await signIn(request({ email: ghost, password: wrongPassword }));
      expect(refused.status).toBe(429);
      expect((await refused.json()).message).toBe(AUTH_MESSAGES.lockedOut.description);
    } finally {
      await service.from('login_attempts').delete().eq('email', ghost);
    }
  });

  it('lets the address in again once the 15 minutes are over', async () => {
    const released = await createMember('admin');
    members.push(released);
    await pastFailures(released.email, [16, 17, 18, 19, 20]);
    const response = await signIn(request({ email: released.email, password }));
    expect(response.status).toBe(200);
  });

  it('does not lock after four failures', async () => {
    const careful = await createMember('admin');
    members.push(careful);
    await pastFailures(careful.email, [1, 2, 3, 4]);
    expect((await signIn(request({ email: careful.email, password }))).status).toBe(200);
  });
});

describe('request validation', () => {
  it.each<[string, string | object]>([
    ['malformed JSON', '{"email": '],
    ['a missing password', { email: 'admin@scale-pro.test' }],
    ['an invalid address', { email: 'admin', password }],
    ['unknown fields', { email: 'admin@scale-pro.test', password, role: 'admin' }],
    ['a non-object body', '"admin@scale-pro.test"'],
  ])('answers 400 to %s', async (_case, body) => {
    const response = await signIn(request(body));
    expect(response.status).toBe(400);
    expect((await response.json()).title).toBe('Invalid Request');
  });

  it('answers 413 to a body over 10 KB without reading it all', async () => {
    const response = await signIn(request({ email: 'admin@scale-pro.test', password: 'x'.repeat(11 * 1024) }));
    expect(response.status).toBe(413);
  });

  it('answers 500 Authentication Error when the server has no service key for its backend', async () => {
    // A hosted backend's address without its key: a setup mistake, not an outage (an unreachable backend gets
    // 503 with Retry-After: backend-down.test.ts).
    const saved = { url: process.env.SUPABASE_URL, key: process.env.SUPABASE_SERVICE_ROLE_KEY };
    process.env.SUPABASE_URL = 'http://127.0.0.1:9';
    delete process.env.SUPABASE_SERVICE_ROLE_KEY;
    try {
      const response = await signIn(request({ email: admin.email, password }));
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ title: 'Authentication Error', message: 'Unable to verify credentials. Please try again.' });
    } finally {
      for (const [name, value] of [['SUPABASE_URL', saved.url], ['SUPABASE_SERVICE_ROLE_KEY', saved.key]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('never wrote a password to the logs', () => {
    expect(logged.length).toBeGreaterThan(0); // the 500 above was logged
    for (const line of logged) {
      expect(line).not.toContain(password);
      expect(line).not.toContain(wrongPassword);
    }
  });
});

describe('ending access at once', () => {
  it('a terminated session loses access immediately', async () => {
    const body = await (await signIn(request({ email: admin.email, password }))).json();
    const browser = await clientWithSession(body.session);
    expect((await browser.rpc('org_role', { org: seed.scalePro })).data).toBe('admin');

    const { error } = await service.rpc('terminate_session', { p_session_id: sessionIdOfToken(body.session.access_token) });
    expect(error).toBeNull();

    // Refused outright (the request guard), not answered with empty data.
    expect((await browser.rpc('org_role', { org: seed.scalePro })).error?.message).toBe('session_ended');
    expect((await browser.from('profiles').select('id').eq('id', admin.id)).status).toBe(401);
    // supabase-js turns Auth's session_not_found into a missing session and drops it (SIGNED_OUT).
    expect(isAuthSessionMissingError((await browser.auth.getUser()).error)).toBe(true);
    expect((await browser.auth.refreshSession()).error).not.toBeNull();
  });

  it('a deactivated admin loses access immediately', async () => {
    const leaving = await createMember('admin');
    members.push(leaving);
    const body = await (await signIn(request({ email: leaving.email, password }))).json();
    const browser = await clientWithSession(body.session);
    expect((await browser.from('profiles').select('role, is_active').eq('id', leaving.id).single()).data).toEqual({ role: 'admin', is_active: true });

    await service.from('profiles').update({ is_active: false }).eq('id', leaving.id);

    expect((await browser.from('profiles').select('id').eq('id', leaving.id)).error?.message).toBe('account_inactive');
    expect((await browser.rpc('org_role', { org: seed.scalePro })).status).toBe(403);
  });
});
