/**
 * Sessions as GoTrue keeps them: one `auth.sessions` row per sign-in, a chain of rotating refresh
 * tokens in `auth.refresh_tokens` (each new token's `parent` is the one it replaced), the sign-in
 * method in `auth.mfa_amr_claims`, and short-lived access tokens whose `session_id` names the row.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ACCESS_TOKEN_TTL_SECONDS, signJwt, type AccessTokenClaims } from '../jwt.ts';
import { authErrors } from './errors.ts';
import { findUserById, isBanned, userJson, type UserRow } from './users.ts';

type Db = pg.Pool | pg.PoolClient;

/** GoTrue's reuse interval: a just-rotated refresh token still answers (with the new one) this long. */
const REFRESH_REUSE_SECONDS = 10;

/** Where a sign-in came from, stored on the session row. */
export interface ClientInfo {
  userAgent: string | null;
  ip: string | null;
}

/** GoTrue's session JSON, as `/token`, `/verify` and `/signup` return it. */
export interface SessionJson {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
}

/** How a session was authenticated (GoTrue's AMR method names). */
export type AuthMethod = 'password' | 'otp' | 'recovery' | 'invite' | 'magiclink' | 'email/signup';

/** Starts a session for a user: session row, first refresh token, `last_sign_in_at`. */
export async function startSession(db: Db, issuer: string, user: UserRow, method: AuthMethod, client: ClientInfo): Promise<SessionJson> {
  const sessionId = randomUUID();
  await db.query(
    `insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
     values ($1, $2, now(), now(), 'aal1', $3, $4)`,
    [sessionId, user.id, client.userAgent, validIp(client.ip)],
  );
  await db.query(
    `insert into auth.mfa_amr_claims (session_id, created_at, updated_at, authentication_method, id)
     values ($1, now(), now(), $2, $3)`,
    [sessionId, method, randomUUID()],
  );
  const { rows } = await db.query<UserRow>(
    `update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1 returning *`,
    [user.id],
  );
  await db.query(`update auth.identities set last_sign_in_at = now() where user_id = $1`, [user.id]);
  const refreshToken = await insertRefreshToken(db, user.id, sessionId, null);
  return sessionJson(db, issuer, rows[0]!, sessionId, refreshToken);
}

/**
 * Exchanges a refresh token for a new access token and a new refresh token in the same session; the
 * old token is revoked. Tokens of deleted sessions or banned users are refused.
 */
export async function refreshSession(db: Db, issuer: string, token: unknown): Promise<SessionJson> {
  if (typeof token !== 'string' || token === '') throw authErrors.refreshTokenNotFound();
  const { rows } = await db.query<{ id: string; user_id: string; session_id: string | null; revoked: boolean; recently: boolean }>(
    `select id::text, user_id, session_id, coalesce(revoked, false) as revoked,
            updated_at > now() - make_interval(secs => $2) as recently
       from auth.refresh_tokens where token = $1 for update`,
    [token, REFRESH_REUSE_SECONDS],
  );
  const row = rows[0];
  if (!row || !row.session_id) throw authErrors.refreshTokenNotFound();
  const user = await findUserById(db, row.user_id);
  if (!user) throw authErrors.refreshTokenNotFound();
  if (isBanned(user)) throw authErrors.userBanned();

  if (row.revoked) {
    // A client racing itself (two tabs refreshing at once) gets the current token instead of an error.
    const current = await db.query<{ token: string }>(
      `select token from auth.refresh_tokens where parent = $1 and not coalesce(revoked, false) order by id desc limit 1`,
      [token],
    );
    if (!row.recently || !current.rows[0]) throw authErrors.refreshTokenAlreadyUsed();
    return sessionJson(db, issuer, user, row.session_id, current.rows[0].token);
  }
  await db.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
  await db.query(`update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now() where id = $1`, [row.session_id]);
  const next = await insertRefreshToken(db, user.id, row.session_id, token);
  return sessionJson(db, issuer, user, row.session_id, next);
}

/** Whether the session an access token names still exists (signing out deletes it at once). */
export async function sessionExists(db: Db, sessionId: unknown): Promise<boolean> {
  if (typeof sessionId !== 'string' || !/^[0-9a-f-]{36}$/i.test(sessionId)) return false;
  const { rowCount } = await db.query('select 1 from auth.sessions where id = $1', [sessionId]);
  return rowCount === 1;
}

/** GoTrue's logout scopes: this session, every session of the user, or all but this one. */
export type LogoutScope = 'local' | 'global' | 'others';

/** Deletes sessions (their refresh tokens go with them) for a logout of the given scope. */
export async function endSessions(db: Db, userId: string, sessionId: string, scope: LogoutScope): Promise<void> {
  if (scope === 'local') await db.query('delete from auth.sessions where id = $1', [sessionId]);
  else if (scope === 'others') await db.query('delete from auth.sessions where user_id = $1 and id <> $2', [userId, sessionId]);
  else await db.query('delete from auth.sessions where user_id = $1', [userId]);
}

async function insertRefreshToken(db: Db, userId: string, sessionId: string, parent: string | null): Promise<string> {
  const token = randomBytes(9).toString('base64url');
  await db.query(
    `insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
     values ('00000000-0000-0000-0000-000000000000', $1, $2, false, now(), now(), $3, $4)`,
    [token, userId, parent, sessionId],
  );
  return token;
}

async function sessionJson(db: Db, issuer: string, user: UserRow, sessionId: string, refreshToken: string): Promise<SessionJson> {
  const { rows: amr } = await db.query<{ method: string; timestamp: number }>(
    `select authentication_method as method, extract(epoch from created_at)::int as timestamp
       from auth.mfa_amr_claims where session_id = $1 order by created_at`,
    [sessionId],
  );
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
  const claims: AccessTokenClaims = {
    iss: issuer,
    sub: user.id,
    aud: user.aud || 'authenticated',
    exp,
    iat,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: 'aal1',
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  };
  return {
    access_token: await signJwt(claims),
    token_type: 'bearer',
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await userJson(db, user),
  };
}

function validIp(ip: string | null): string | null {
  if (!ip) return null;
  const plain = ip.replace(/^::ffff:/, '');
  return /^[\d.]+$|^[0-9a-f:]+$/i.test(plain) ? plain : null;
}
