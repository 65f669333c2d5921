/**
 * Sign-in on the server (used by `POST /api/auth/sign-in`): lockout, password check with Supabase Auth,
 * the rule of the area asked for (the dashboard: active admins; blog management: active members), and the
 * records every attempt leaves (login_attempts, activity log, last_login). The browser adopts the returned session with `auth.setSession`.
 */
import { createClient, isAuthApiError, type Session, type SupabaseClient } from '@supabase/supabase-js';
import type { SignInArea } from '../../schemas/auth.ts';
import { isActiveAdmin, isActiveMember, readAccessProfile } from '../admin-access.ts';
import { FAILURE_REASONS, lockedUntil, recentAttempts, recordAttempt, type ClientInfo } from './login-attempts.ts';

/** What a sign-in came to. */
export type SignInOutcome =
  | { kind: 'granted'; session: Session }
  | { kind: 'denied' }
  /** Right password, but the account may not enter the area (not an admin, or inactive). */
  | { kind: 'not-allowed' }
  | { kind: 'locked'; until: Date };

/** Where Supabase Auth is, for a password sign-in made on the client's behalf. */
export interface AuthEndpoint {
  url: string;
  anonKey: string;
}

/**
 * Signs a user in with email and password for an area (default the dashboard). Every attempt is recorded
 * with the client's address; the password is passed to Supabase Auth and nowhere else.
 */
export async function signIn(
  service: SupabaseClient,
  auth: AuthEndpoint,
  credentials: { email: string; password: string; area?: SignInArea },
  client: ClientInfo,
  now: Date = new Date(),
): Promise<SignInOutcome> {
  const { email, area = 'admin' } = credentials;
  const until = lockedUntil(await recentAttempts(service, email, now), now);
  if (until) {
    await recordAttempt(service, { email, success: false, failureReason: FAILURE_REASONS.lockedOut, client });
    return { kind: 'locked', until };
  }

  const session = await passwordSession(auth, { email, password: credentials.password }, client);
  if (!session) {
    await recordAttempt(service, { email, success: false, failureReason: FAILURE_REASONS.invalidCredentials, client });
    return { kind: 'denied' };
  }

  const userId = session.user.id;
  const profile = await readAccessProfile(service, userId);
  if (!(area === 'admin' ? isActiveAdmin(profile) : isActiveMember(profile))) {
    await endSession(service, session);
    const failureReason = profile?.role === 'admin' || area === 'blog' ? FAILURE_REASONS.inactive : FAILURE_REASONS.notAdmin;
    await recordAttempt(service, { email, success: false, failureReason, client });
    return { kind: 'not-allowed' };
  }

  await recordAttempt(service, { email, success: true, client });
  await recordLogin(service, userId, profile?.role === 'admin' ? 'admin_login_success' : 'login_success', client);
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

/** Ends a session that must not be used (not allowed in the area): its refresh token stops working at once. */
async function endSession(service: SupabaseClient, session: Session): Promise<void> {
  const { error } = await service.auth.admin.signOut(session.access_token, 'local');
  if (error) throw new Error(`Ending the session of ${session.user.id} failed: ${error.message}`);
}

/** The login in the activity log (`admin_login_success` for admins, `login_success` for others) and last_login. */
async function recordLogin(service: SupabaseClient, userId: string, action: string, client: ClientInfo): Promise<void> {
  const logged = await service.rpc('log_user_activity', {
    p_user_id: userId,
    p_action: action,
    p_details: { ip_address: client.ip, user_agent: client.userAgent },
  });
  if (logged.error) throw new Error(`Logging ${action} for ${userId} failed: ${logged.error.message}`);
  const updated = await service.from('profiles').update({ last_login: new Date().toISOString() }).eq('id', userId);
  if (updated.error) throw new Error(`Updating last_login of ${userId} failed: ${updated.error.message}`);
}
