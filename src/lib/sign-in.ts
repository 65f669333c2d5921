/**
 * Admin sign-in on the server (used by `POST /api/auth/sign-in`): lockout, password check with Supabase
 * Auth, the active-admin rule, and the records every attempt leaves (login_attempts, activity log,
 * last_login). The browser adopts the returned session with `auth.setSession`.
 */
import { createClient, isAuthApiError, type Session, type SupabaseClient } from '@supabase/supabase-js';
import { isActiveAdmin, readAccessProfile } from './admin-access.ts';
import { FAILURE_REASONS, lockedUntil, recentAttempts, recordAttempt, type ClientInfo } from './login-attempts.ts';

/** What a sign-in came to. */
export type SignInOutcome =
  | { kind: 'granted'; session: Session }
  | { kind: 'denied' }
  | { kind: 'not-admin' }
  | { kind: 'locked'; until: Date };

/** Where Supabase Auth is, for a password sign-in made on the client's behalf. */
export interface AuthEndpoint {
  url: string;
  anonKey: string;
}

/**
 * Signs an admin in with email and password. Every attempt is recorded with the client's address; the
 * password is passed to Supabase Auth and nowhere else.
 */
export async function signInAdmin(
  service: SupabaseClient,
  auth: AuthEndpoint,
  credentials: { email: string; password: string },
  client: ClientInfo,
  now: Date = new Date(),
): Promise<SignInOutcome> {
  const { email } = credentials;
  const until = lockedUntil(await recentAttempts(service, email, now), now);
  if (until) {
    await recordAttempt(service, { email, success: false, failureReason: FAILURE_REASONS.lockedOut, client });
    return { kind: 'locked', until };
  }

  const session = await passwordSession(auth, credentials, client);
  if (!session) {
    await recordAttempt(service, { email, success: false, failureReason: FAILURE_REASONS.invalidCredentials, client });
    return { kind: 'denied' };
  }

  const userId = session.user.id;
  const profile = await readAccessProfile(service, userId);
  if (!isActiveAdmin(profile)) {
    await endSession(service, session);
    const failureReason = profile?.role === 'admin' ? FAILURE_REASONS.inactive : FAILURE_REASONS.notAdmin;
    await recordAttempt(service, { email, success: false, failureReason, client });
    return { kind: 'not-admin' };
  }

  await recordAttempt(service, { email, success: true, client });
  await recordAdminLogin(service, userId, client);
  return { kind: 'granted', session };
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
  const anon = createClient(auth.url, auth.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers },
  });
  const { data, error } = await anon.auth.signInWithPassword(credentials);
  if (error) {
    if (isAuthApiError(error) && error.status >= 400 && error.status < 500) return null;
    throw new Error(`Supabase Auth sign-in failed: ${error.message}`, { cause: error });
  }
  return data.session;
}

/** Ends a session that must not be used (not an admin): its refresh token stops working at once. */
async function endSession(service: SupabaseClient, session: Session): Promise<void> {
  const { error } = await service.auth.admin.signOut(session.access_token, 'local');
  if (error) throw new Error(`Ending the session of ${session.user.id} failed: ${error.message}`);
}

/** `admin_login_success` in the activity log and the profile's last_login. */
async function recordAdminLogin(service: SupabaseClient, userId: string, client: ClientInfo): Promise<void> {
  const logged = await service.rpc('log_user_activity', {
    p_user_id: userId,
    p_action: 'admin_login_success',
    p_details: { ip_address: client.ip, user_agent: client.userAgent },
  });
  if (logged.error) throw new Error(`Logging admin_login_success for ${userId} failed: ${logged.error.message}`);
  const updated = await service.from('profiles').update({ last_login: new Date().toISOString() }).eq('id', userId);
  if (updated.error) throw new Error(`Updating last_login of ${userId} failed: ${updated.error.message}`);
}
