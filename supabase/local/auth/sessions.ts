/**
 * Sessions as GoTrue keeps them: one `auth.sessions` row per sign-in, a chain of rotating refresh
 * tokens in `auth.refresh_tokens` (each new token's `parent` is the one it replaced), the sign-in
 * method in `auth.mfa_amr_claims`, and short-lived access tokens whose `session_id` names the row.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { ACCESS_TOKEN_TTL_SECONDS, signJwt, type AccessTokenClaims } from '../jwt.ts';
import { authErrors, CommitWithError } from './errors.ts';
import { findUserById, isBanned, userJson, type UserRow } from './users.ts';

type Db = pg.Pool | pg.PoolClient;

/**
 * GoTrue's `refresh_token_reuse_interval` (config.toml): within this many seconds of a session's last
 * refresh, an older refresh token of the session still answers (with the current one) instead of ending it.
 */
export const REFRESH_REUSE_SECONDS = 10;

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
 * Exchanges a refresh token for a new access token and the session's next refresh token (rotation: the old
 * token is revoked, the new one's `parent` is the old one), and records the refresh on the session (time,
 * user agent, address). Tokens of deleted sessions or banned users are refused.
 *
 * Presenting a token that was already rotated follows GoTrue's reuse detection, as its v2 refresh token
 * algorithm does it (supabase/auth internal/tokens/service.go; the v1 algorithm revokes the session's
 * tokens but keeps the session, so its access tokens live on until they expire):
 * - the token just before the current one (the client did not save the last answer) gets the current
 *   token, at any time;
 * - an older one gets the current token too while the session was refreshed less than
 *   REFRESH_REUSE_SECONDS ago (tabs refreshing at once);
 * - otherwise the token is taken to be stolen: the whole session ends (row, refresh tokens, and with it
 *   every access token naming it) and the request fails with refresh_token_already_used. The deletion
 *   commits although the request fails.
 */
export async function refreshSession(db: Db, issuer: string, token: unknown, client: ClientInfo): Promise<SessionJson> {
  if (typeof token !== 'string' || token === '') throw authErrors.refreshTokenNotFound();
  // Lock the session first: all refreshes of one session take turns, and the token is read after the lock.
  const found = await db.query<{ session_id: string | null }>('select session_id from auth.refresh_tokens where token = $1', [token]);
  const sessionId = found.rows[0]?.session_id;
  if (!sessionId) throw authErrors.refreshTokenNotFound();
  const { rows: sessions } = await db.query<{ recently_refreshed: boolean }>(
    `select coalesce(refreshed_at, created_at at time zone 'utc') > (now() at time zone 'utc') - make_interval(secs => $2) as recently_refreshed
       from auth.sessions where id = $1 for update`,
    [sessionId, REFRESH_REUSE_SECONDS],
  );
  const { rows } = await db.query<{ id: string; user_id: string; revoked: boolean }>(
    `select id::text, user_id, coalesce(revoked, false) as revoked from auth.refresh_tokens where token = $1 and session_id = $2 for update`,
    [token, sessionId],
  );
  const row = rows[0];
  if (!sessions[0] || !row) throw authErrors.refreshTokenNotFound();
  const user = await findUserById(db, row.user_id);
  if (!user) throw authErrors.refreshTokenNotFound();
  if (isBanned(user)) throw authErrors.userBanned();

  let issued: string;
  if (row.revoked) {
    const { rows: active } = await db.query<{ token: string; parent: string | null }>(
      `select token, parent from auth.refresh_tokens where session_id = $1 and not coalesce(revoked, false) order by id desc limit 1`,
      [sessionId],
    );
    const current = active[0];
    const failedToSave = current?.parent === token;
    if (!current || (!failedToSave && !sessions[0].recently_refreshed)) {
      await db.query('delete from auth.sessions where id = $1', [sessionId]);
      throw new CommitWithError(authErrors.refreshTokenAlreadyUsed());
    }
    issued = current.token;
  } else {
    await db.query(`update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1`, [row.id]);
    issued = await insertRefreshToken(db, user.id, sessionId, token);
  }
  // As GoTrue's refresh does (UpdateOnlyRefreshInfo): the time of the refresh (its column has no time zone: UTC),
  // and the browser and address it came from, so the session shows where it was last used.
  await db.query(
    `update auth.sessions set refreshed_at = now() at time zone 'utc', updated_at = now(), user_agent = $2, ip = $3 where id = $1`,
    [sessionId, client.userAgent, validIp(client.ip)],
  );
  return sessionJson(db, issuer, user, sessionId, issued);
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
