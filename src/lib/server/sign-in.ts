/**
 * Sign-in on the server (used by `POST /api/auth/sign-in`, and by the invitation and password-reset flows):
 * the lockout, the password check with Supabase Auth, the rule (an active account with an active membership;
 * the browser then goes where the member's role allows), and the records every attempt leaves. Only a session that
 * passed through here is vouched for in the database (private.trusted_sessions) and may read data; one
 * taken straight from Supabase Auth's token endpoint reads nothing. The browser adopts the returned session
 * with `auth.setSession`.
 */
import { isAuthApiError, type Session, type SupabaseClient } from '@supabase/supabase-js';
import { backendClient } from './backend.ts';
import { beginAttempt, finishAttempt, type ClientInfo, type SignInVerdict } from './login-attempts.ts';

/** What a sign-in came to. */
export type SignInOutcome =
  | { kind: 'granted'; session: Session }
  | { kind: 'denied' }
  /** Right password, but the account is switched off, or has no active membership. */
  | { kind: 'inactive' }
  | { kind: 'no-organization' }
  | { kind: 'locked'; until: Date };

/** Where Supabase Auth is, for a password sign-in made on the client's behalf. */
export interface AuthEndpoint {
  url: string;
  anonKey: string;
}

/**
 * Signs a user in with email and password. Every attempt is recorded
 * with the client's address; the password is passed to Supabase Auth and nowhere else.
 */
export async function signIn(
  service: SupabaseClient,
  auth: AuthEndpoint,
  credentials: { email: string; password: string },
  client: ClientInfo,
): Promise<SignInOutcome> {
  const { email } = credentials;
  const attempt = await beginAttempt(service, email, client);
  if ('lockedUntil' in attempt) return { kind: 'locked', until: attempt.lockedUntil };

  const session = await passwordSession(auth, { email, password: credentials.password }, client);
  if (!session) return { kind: 'denied' };

  let verdict: SignInVerdict;
  try {
    verdict = await finishAttempt(service, { attemptId: attempt.attemptId, userId: session.user.id, sessionId: sessionIdOf(session) });
  } catch (error) {
    await endSession(service, session.access_token);
    throw error;
  }
  if (verdict === 'granted') return { kind: 'granted', session };
  await endSession(service, session.access_token);
  return { kind: verdict };
}

/** The auth session an access token names (its `session_id` claim): our own Auth server's answer, so trusted. */
function sessionIdOf(session: Session): string {
  const payload = JSON.parse(Buffer.from(session.access_token.split('.')[1] ?? '', 'base64url').toString('utf8'));
  if (typeof payload.session_id !== 'string') throw new Error('The access token names no session');
  return payload.session_id;
}

/**
 * A password sign-in with Supabase Auth, or null when Auth refuses the credentials (wrong password, unknown
 * address, unconfirmed or banned account: all the same to the caller). The client's address and user agent
 * are forwarded so the new auth session records them rather than the function's own.
 */
export async function passwordSession(
  auth: AuthEndpoint,
  credentials: { email: string; password: string },
  client: ClientInfo,
): Promise<Session | null> {
  const headers: Record<string, string> = {};
  if (client.ip) headers['x-forwarded-for'] = client.ip;
  if (client.userAgent) headers['user-agent'] = client.userAgent;
  const anon = backendClient(auth.url, auth.anonKey, headers);
  const { data, error } = await anon.auth.signInWithPassword(credentials);
  if (error) {
    if (isAuthApiError(error) && error.status >= 400 && error.status < 500) return null;
    throw new Error(`Supabase Auth sign-in failed: ${error.message}`, { cause: error });
  }
  return data.session;
}

/**
 * Ends the session an access token belongs to: its refresh token stops working at once. Used for a session
 * that must not be used (the account may not sign in), and for one the browser could not take up. A token
 * Auth no longer accepts (expired, its session already ended) has nothing left to end: that is not an error.
 */
export async function endSession(service: SupabaseClient, accessToken: string): Promise<void> {
  const { error } = await service.auth.admin.signOut(accessToken, 'local');
  if (!error || (isAuthApiError(error) && [401, 403, 404].includes(error.status))) return;
  throw new Error(`Ending a session failed: ${error.message}`);
}
