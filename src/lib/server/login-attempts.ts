/**
 * Sign-in attempts (`public.login_attempts`) and the lockout. The rule lives in SQL, in one place, and is
 * checked and recorded atomically (`begin_sign_in` / `finish_sign_in`, migration
 * 20261123000300_sign_in_attempts.sql): 5 wrong passwords for one e-mail from one client address within 15
 * minutes lock that pair for 15 minutes; 30 from one address, whatever the accounts, lock the address.
 * Only the service role writes the table, so this runs in functions.
 */
import { isIP } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';

/**
 * Why an attempt failed, as stored in `failure_reason` (private.sign_in_failure in SQL says the same). Only
 * INVALID_CREDENTIALS counts towards the lockout: the privilege reasons follow a correct password, and
 * refusals during a lockout must not extend it.
 */
export const FAILURE_REASONS = {
  invalidCredentials: 'Invalid login credentials',
  inactive: 'Account inactive',
  noOrganization: 'No active membership',
  lockedOut: 'Too many failed attempts',
} as const;
export type FailureReason = (typeof FAILURE_REASONS)[keyof typeof FAILURE_REASONS];

/** finish_sign_in's answer: granted, or why a right password does not let the account in. */
export type SignInVerdict = 'granted' | 'inactive' | 'no-organization';

/** Where a request came from, as the function saw it. */
export interface ClientInfo {
  /** A valid IPv4/IPv6 address, or null when none was given. */
  ip: string | null;
  userAgent: string | null;
}

/**
 * Step 1 of a sign-in: records the attempt (as a failure until `finishAttempt` says otherwise) unless the
 * e-mail and address, or the address alone, are locked out. Answers the attempt's id, or until when the
 * lockout lasts.
 */
export async function beginAttempt(
  service: SupabaseClient,
  email: string,
  client: ClientInfo,
): Promise<{ attemptId: string } | { lockedUntil: Date }> {
  const { data, error } = await service.rpc('begin_sign_in', { p_email: email, p_ip: client.ip, p_user_agent: client.userAgent });
  if (error) throw new Error(`Recording the sign-in attempt failed: ${error.message}`);
  const answer = data as { attempt_id?: string; locked_until?: string };
  return answer.locked_until ? { lockedUntil: new Date(answer.locked_until) } : { attemptId: answer.attempt_id as string };
}

/**
 * Step 2, after Supabase Auth accepted the password: an active account with an active membership is
 * recorded as a success, its session vouched for (only such sessions read data), logged, and last_login set;
 * otherwise the answer says why not.
 */
export async function finishAttempt(
  service: SupabaseClient,
  attempt: { attemptId: string; userId: string; sessionId: string },
): Promise<SignInVerdict> {
  const { data, error } = await service.rpc('finish_sign_in', {
    p_attempt_id: attempt.attemptId,
    p_user_id: attempt.userId,
    p_session_id: attempt.sessionId,
  });
  if (error) throw new Error(`Completing the sign-in of ${attempt.userId} failed: ${error.message}`);
  return data as SignInVerdict;
}

/**
 * The client's address and user agent. The lockout keys on the address, so it must be one the client cannot
 * choose: the function context's `ip` (Netlify's view of the connection), else `x-nf-client-connection-ip`,
 * which Netlify's edge sets. `x-forwarded-for` is never read: its first entry is whatever the client sent.
 * Anything that is not an IP address is dropped (the column is `inet`).
 */
export function clientInfoFrom(headers: Headers, contextIp?: string | null): ClientInfo {
  const candidates = [contextIp, headers.get('x-nf-client-connection-ip')];
  const ip = candidates.map((value) => value?.trim() ?? '').find((value) => isIP(value) !== 0) ?? null;
  return { ip, userAgent: headers.get('user-agent') };
}
