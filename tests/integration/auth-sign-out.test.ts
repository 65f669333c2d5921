/**
 * POST /api/auth/sign-out, called as a handler with real Requests against the local backend: a session our
 * sign-in handed over and the browser could not take up is ended (its refresh token stops working, its
 * auth.sessions row is gone); a token ends only its own session; a bad body is refused and ends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import signIn from '../../netlify/functions/auth-sign-in.mts';
import signOut, { config } from '../../netlify/functions/auth-sign-out.mts';
import { backend, createMember, seed, withDatabase } from './support/db-fixtures.ts';
import { removeMember, sessionIdOfToken, type Member } from './support/auth-users.ts';

interface Tokens {
  access_token: string;
  refresh_token: string;
}

function post(handler: (req: Request) => Promise<Response>, path: string, body: unknown): Promise<Response> {
  return handler(
    new Request(`http://localhost${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );
}

async function signedIn(member: Member): Promise<Tokens> {
  const response = await post(signIn, '/api/auth/sign-in', { email: member.email, password: seed.password });
  expect(response.status).toBe(200);
  return ((await response.json()) as { session: Tokens }).session;
}

const sessionExists = (id: string) =>
  withDatabase(async (db) => (await db.query('select count(*)::int as n from auth.sessions where id = $1', [id])).rows[0].n === 1);

/** Supabase Auth's own refresh, as supabase-js calls it: the status it answers for this refresh token. */
async function refreshStatus(refreshToken: string): Promise<number> {
  const response = await fetch(`${backend.url}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: backend.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  await response.arrayBuffer();
  return response.status;
}

const members: Member[] = [];
let editor: Member;

beforeAll(async () => {
  editor = await createMember('editor');
  members.push(editor);
});

afterAll(async () => {
  await Promise.all(members.map(removeMember));
});

describe('POST /api/auth/sign-out', () => {
  it('is served at /api/auth/sign-out for POST', () => {
    expect(config).toMatchObject({ path: '/api/auth/sign-out', method: 'POST' });
  });

  it('ends the session the access token belongs to: 204, the session row gone, its refresh token refused', async () => {
    const tokens = await signedIn(editor);
    const sessionId = sessionIdOfToken(tokens.access_token);
    expect(await sessionExists(sessionId)).toBe(true);

    const response = await post(signOut, '/api/auth/sign-out', { access_token: tokens.access_token });
    expect(response.status).toBe(204);
    expect(await sessionExists(sessionId)).toBe(false);
    expect(await refreshStatus(tokens.refresh_token)).toBeGreaterThanOrEqual(400);
  });

  it('ends only that session: another session of the same user stays open', async () => {
    const kept = await signedIn(editor);
    const ended = await signedIn(editor);
    expect((await post(signOut, '/api/auth/sign-out', { access_token: ended.access_token })).status).toBe(204);
    expect(await sessionExists(sessionIdOfToken(ended.access_token))).toBe(false);
    expect(await sessionExists(sessionIdOfToken(kept.access_token))).toBe(true);
    expect(await refreshStatus(kept.refresh_token)).toBe(200);
  });

  it('answers 204 for a session already ended, so a repeat tells nothing and changes nothing', async () => {
    const tokens = await signedIn(editor);
    expect((await post(signOut, '/api/auth/sign-out', { access_token: tokens.access_token })).status).toBe(204);
    expect((await post(signOut, '/api/auth/sign-out', { access_token: tokens.access_token })).status).toBe(204);
  });

  it('refuses a malformed body with 400 and ends nothing', async () => {
    const tokens = await signedIn(editor);
    for (const body of [{}, { access_token: 'not a token' }, { access_token: tokens.access_token, scope: 'global' }, 'not json', { access_token: `${'a'.repeat(5000)}.b.c` }]) {
      const response = await post(signOut, '/api/auth/sign-out', body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(JSON.stringify(await response.json())).not.toMatch(/supabase|postgres|stack/i);
    }
    expect(await sessionExists(sessionIdOfToken(tokens.access_token))).toBe(true);
  });

  it('cannot end anyone else’s session with a forged token (signed with another key): 204, nothing ended', async () => {
    const tokens = await signedIn(editor);
    const [header, payload] = tokens.access_token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('forged signature').toString('base64url')}`;
    expect((await post(signOut, '/api/auth/sign-out', { access_token: forged })).status).toBe(204);
    expect(await sessionExists(sessionIdOfToken(tokens.access_token))).toBe(true);
  });
});
