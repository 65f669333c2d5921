/**
 * Sign-in attempts (`public.login_attempts`): recording them with the real client address, and the lockout
 * rule computed from them. Only the service role writes this table, so these run in functions.
 */
import { isIP } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';

/** After this many credential failures within LOCKOUT_WINDOW_MS, an address is refused for LOCKOUT_DURATION_MS. */
export const LOCKOUT_MAX_FAILURES = 5;
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
export const LOCKOUT_DURATION_MS = 15 * 60_000;

/**
 * Why an attempt failed, as stored in `failure_reason`. Only INVALID_CREDENTIALS counts towards the lockout:
 * the privilege reasons follow a correct password, and refusals during a lockout must not extend it.
 */
export const FAILURE_REASONS = {
  invalidCredentials: 'Invalid login credentials',
  notAdmin: 'Admin privileges required',
  inactive: 'Account inactive',
  lockedOut: 'Too many failed attempts',
} as const;
export type FailureReason = (typeof FAILURE_REASONS)[keyof typeof FAILURE_REASONS];

/** Where a request came from, as the function saw it. */
export interface ClientInfo {
  /** A valid IPv4/IPv6 address, or null when none was given. */
  ip: string | null;
  userAgent: string | null;
}

/** One stored attempt, as the lockout rule reads it. */
export interface AttemptRow {
  success: boolean;
  failure_reason: string | null;
  created_at: string;
}

/**
 * The moment an address may try again, or null when it is not locked: locked while the last
 * LOCKOUT_MAX_FAILURES credential failures (with no success or correct password in between) happened within
 * LOCKOUT_WINDOW_MS of each other and the newest is less than LOCKOUT_DURATION_MS old.
 * `attempts` are newest first; refusals during a lockout are ignored.
 */
export function lockedUntil(attempts: readonly AttemptRow[], now: Date): Date | null {
  const failures: number[] = [];
  for (const attempt of attempts) {
    if (attempt.failure_reason === FAILURE_REASONS.lockedOut) continue;
    if (attempt.success || attempt.failure_reason !== FAILURE_REASONS.invalidCredentials) break;
    failures.push(Date.parse(attempt.created_at));
    if (failures.length === LOCKOUT_MAX_FAILURES) break;
  }
  if (failures.length < LOCKOUT_MAX_FAILURES) return null;
  const newest = failures[0]!;
  const oldest = failures[failures.length - 1]!;
  if (newest - oldest > LOCKOUT_WINDOW_MS) return null;
  const until = newest + LOCKOUT_DURATION_MS;
  return until > now.getTime() ? new Date(until) : null;
}

/** The attempts that can still matter for the lockout rule, newest first (addresses are stored lower-cased). */
export async function recentAttempts(service: SupabaseClient, email: string, now: Date): Promise<AttemptRow[]> {
  const since = new Date(now.getTime() - LOCKOUT_WINDOW_MS - LOCKOUT_DURATION_MS).toISOString();
  const { data, error } = await service
    .from('login_attempts')
    .select('success, failure_reason, created_at')
    .eq('email', email.toLowerCase())
    .gte('created_at', since)
    .order('created_at', { ascending: false })
    .limit(100);
  if (error) throw new Error(`Reading sign-in attempts failed: ${error.message}`);
  return data ?? [];
}

/** Stores one attempt. The password is never part of it. */
export async function recordAttempt(
  service: SupabaseClient,
  attempt: { email: string; success: boolean; failureReason?: FailureReason; client: ClientInfo },
): Promise<void> {
  const { error } = await service.from('login_attempts').insert({
    email: attempt.email.toLowerCase().slice(0, 254),
    success: attempt.success,
    failure_reason: attempt.failureReason ?? null,
    ip_address: attempt.client.ip,
    user_agent: attempt.client.userAgent?.slice(0, 1000) ?? null,
  });
  if (error) throw new Error(`Recording the sign-in attempt failed: ${error.message}`);
}

/**
 * The client's address and user agent: Netlify's `x-nf-client-connection-ip`, else the first
 * `x-forwarded-for` entry, else the function context's `ip`. Anything that is not an IP address is dropped
 * (the column is `inet`), so a forged header cannot break the insert.
 */
export function clientInfoFrom(headers: Headers, contextIp?: string | null): ClientInfo {
  const candidates = [
    headers.get('x-nf-client-connection-ip'),
    headers.get('x-forwarded-for')?.split(',')[0],
    contextIp,
  ];
  const ip = candidates.map((value) => value?.trim() ?? '').find((value) => isIP(value) !== 0) ?? null;
  return { ip, userAgent: headers.get('user-agent') };
}
