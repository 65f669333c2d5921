/**
 * Refresh token rotation with reuse detection, as GoTrue's v2 algorithm does it: each refresh revokes the
 * token it was given and issues the next; a rotated token presented again gets the current token when the
 * client plausibly just lost an answer (the token right before the current one, at any time) or tabs are
 * refreshing at once (the session was refreshed less than 10 s ago, `refresh_token_reuse_interval`);
 * otherwise it is taken to be stolen and the whole session ends. The 10 s are not waited for: the tests
 * move the session's last refresh back in the database.
 */
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

const REUSE_SECONDS = 10;

interface Tokens {
  access_token: string;
  refresh_token: string;
}

/** POST /token?grant_type=refresh_token, without supabase-js (which would retry and store). */
async function refresh(refreshToken: string): Promise<{ status: number; body: Record<string, unknown> & Partial<Tokens> }> {
  const response = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: LOCAL_SUPABASE.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  return { status: response.status, body: await response.json() };
}

/** GET /user with an access token: its status. */
async function userStatus(accessToken: string): Promise<number> {
  const response = await fetch(`${backend.apiUrl}/auth/v1/user`, { headers: { apikey: LOCAL_SUPABASE.anonKey, authorization: `Bearer ${accessToken}` } });
  await response.body?.cancel();
  return response.status;
}

/**
 * A user signed in once and refreshed `refreshes` times: `chain[0]` is the sign-in's tokens, the last entry
 * the current ones.
 */
async function signedInChain(refreshes: number): Promise<{ email: string; password: string; userId: string; sessionId: string; chain: Tokens[] }> {
  const email = uniqueEmail('refresh');
  const password = 'refresh-pass-1';
  const { data: created } = await backend.service().auth.admin.createUser({ email, password, email_confirm: true });
  const { data, error } = await backend.anon().auth.signInWithPassword({ email, password });
  expect(error).toBeNull();
  const chain: Tokens[] = [data.session!];
  for (let i = 0; i < refreshes; i++) {
    const next = await refresh(chain.at(-1)!.refresh_token);
    expect(next.status).toBe(200);
    chain.push(next.body as unknown as Tokens);
  }
  return { email, password, userId: created.user!.id, sessionId: decodeJwt(data.session!.access_token).session_id as string, chain };
}

/** Moves the session's last refresh (and its tokens' rotation times) `seconds` into the past. */
async function backdate(sessionId: string, seconds: number): Promise<void> {
  await backend.sql(`update auth.sessions set refreshed_at = refreshed_at - make_interval(secs => $2) where id = $1`, [sessionId, seconds]);
  await backend.sql(`update auth.refresh_tokens set updated_at = updated_at - make_interval(secs => $2) where session_id = $1::uuid`, [sessionId, seconds]);
}

const sessionRows = (sessionId: string) => backend.sql('select id from auth.sessions where id = $1', [sessionId]);
const tokenRows = (sessionId: string) => backend.sql('select token from auth.refresh_tokens where session_id = $1::uuid', [sessionId]);

describe('rotation', () => {
  it('the current token gets the next one, in the same session', async () => {
    const { sessionId, chain } = await signedInChain(2);
    expect(new Set(chain.map((t) => t.refresh_token)).size).toBe(3);
    expect(chain.map((t) => decodeJwt(t.access_token).session_id)).toEqual([sessionId, sessionId, sessionId]);
  });

  it('two tabs refreshing with the same current token both get the same next token', async () => {
    const { chain } = await signedInChain(1);
    const [a, b] = await Promise.all([refresh(chain[1]!.refresh_token), refresh(chain[1]!.refresh_token)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refresh_token).toBe(b.body.refresh_token);
  });
});

describe('the session row', () => {
  it('records each refresh as GoTrue does: its time, and the browser and address it came from', async () => {
    const { sessionId, chain } = await signedInChain(1);
    await backdate(sessionId, 3600);
    const response = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=refresh_token`, {
      method: 'POST',
      headers: { apikey: LOCAL_SUPABASE.anonKey, 'content-type': 'application/json', 'user-agent': 'a-later-browser/2.0' },
      body: JSON.stringify({ refresh_token: chain[1]!.refresh_token }),
    });
    expect(response.status).toBe(200);
    await response.body?.cancel();
    const [row] = await backend.sql<{ refreshed_seconds_ago: number; user_agent: string; ip: string }>(
      `select extract(epoch from (now() at time zone 'utc') - refreshed_at)::float as refreshed_seconds_ago, user_agent, host(ip) as ip
         from auth.sessions where id = $1`,
      [sessionId],
    );
    expect(row?.refreshed_seconds_ago).toBeLessThan(60);
    expect(row?.user_agent).toBe('a-later-browser/2.0');
    expect(row?.ip).toBe('127.0.0.1');
  });
});

describe('a rotated token presented again', () => {
  it.each([
    ['right away', 0],
    [`${REUSE_SECONDS - 2} s after the last refresh`, REUSE_SECONDS - 2],
  ])('%s, two rotations old: answers with the current token and keeps the session', async (_label, seconds) => {
    const { sessionId, chain } = await signedInChain(2);
    await backdate(sessionId, seconds);
    const again = await refresh(chain[0]!.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).toBe(chain[2]!.refresh_token);
    expect(decodeJwt(again.body.access_token!).session_id).toBe(sessionId);
    expect(await sessionRows(sessionId)).toHaveLength(1);
    expect(await tokenRows(sessionId)).toHaveLength(3);
  });

  it('the one right before the current token, long after the interval: answers with the current token (the client lost the last answer)', async () => {
    const { sessionId, chain } = await signedInChain(2);
    await backdate(sessionId, 3600);
    const again = await refresh(chain[1]!.refresh_token);
    expect(again.status).toBe(200);
    expect(again.body.refresh_token).toBe(chain[2]!.refresh_token);
    expect(await sessionRows(sessionId)).toHaveLength(1);
    expect((await refresh(chain[2]!.refresh_token)).status).toBe(200);
  });

  it.each([
    ['two rotations old', 2, 0],
    ['three rotations old', 3, 0],
    ['two rotations old, an hour later', 2, 3600],
  ])('after the interval, %s: ends the whole session', async (_label, behind, extra) => {
    const { userId, sessionId, chain, email, password } = await signedInChain(3);
    const other = await backend.anon().auth.signInWithPassword({ email, password });
    await backdate(sessionId, REUSE_SECONDS + 1 + extra);

    const stolen = chain[chain.length - 1 - behind]!;
    const reuse = await refresh(stolen.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual({ code: 400, error_code: 'refresh_token_already_used', msg: 'Invalid Refresh Token: Already Used' });

    // The session row and all its refresh tokens are gone ...
    expect(await sessionRows(sessionId)).toEqual([]);
    expect(await tokenRows(sessionId)).toEqual([]);
    // ... so the newest refresh token no longer works ...
    const newest = await refresh(chain.at(-1)!.refresh_token);
    expect([newest.status, newest.body.error_code]).toEqual([400, 'refresh_token_not_found']);
    // ... nor does any access token naming the session, the newest included.
    for (const tokens of chain) expect(await userStatus(tokens.access_token)).toBe(403);
    // The user's other sessions go on.
    expect(await userStatus(other.data.session!.access_token)).toBe(200);
    expect(await backend.sql('select 1 from auth.sessions where user_id = $1', [userId])).toHaveLength(1);
  });

  it('supabase-js sees refresh_token_already_used and then no session', async () => {
    const { sessionId, chain } = await signedInChain(2);
    await backdate(sessionId, REUSE_SECONDS + 1);
    const { data, error } = await backend.anon().auth.refreshSession({ refresh_token: chain[0]!.refresh_token });
    expect(data.session).toBeNull();
    expect([error?.status, error?.code]).toEqual([400, 'refresh_token_already_used']);
    const user = await backend.anon().auth.getUser(chain[2]!.access_token);
    expect(user.error?.name).toBe('AuthSessionMissingError');
  });
});
