/**
 * The Sessions tab's data: the live sessions of an organization's members (`list_organization_sessions`,
 * read from Supabase Auth's own sessions) and ending one at once (`terminate_session`, which deletes the
 * session and its refresh tokens, so the user's next request is refused).
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** One row of `list_organization_sessions`. */
export interface MemberSession {
  session_id: string;
  user_id: string;
  full_name: string | null;
  email: string;
  created_at: string;
  last_activity: string;
  expires_at: string | null;
  user_agent: string | null;
  ip: string | null;
}

/** A session with no activity for this long shows as Inactive (idle) although it could still be used. */
export const IDLE_AFTER_MS = 60 * 60 * 1000;

/** The organization's sessions, most recently active first (admins only; others get an error). */
export async function listMemberSessions(client: SupabaseClient, organizationId: string): Promise<MemberSession[]> {
  const { data, error } = await client.rpc('list_organization_sessions', { p_organization_id: organizationId });
  if (error) throw new Error(`Listing the sessions of ${organizationId} failed: ${error.message}`);
  return (data ?? []) as MemberSession[];
}

/** Ends a session at once. */
export async function terminateSession(client: SupabaseClient, sessionId: string): Promise<void> {
  const { error } = await client.rpc('terminate_session', { p_session_id: sessionId });
  if (error) throw new Error(`Terminating session ${sessionId} failed: ${error.message}`);
}

/** Active while used within IDLE_AFTER_MS and not expired; Inactive otherwise. */
export function sessionStatus(session: Pick<MemberSession, 'last_activity' | 'expires_at'>, now: number = Date.now()): 'Active' | 'Inactive' {
  if (session.expires_at && Date.parse(session.expires_at) <= now) return 'Inactive';
  return now - Date.parse(session.last_activity) < IDLE_AFTER_MS ? 'Active' : 'Inactive';
}

/** '{n} active session(s) found' (spec back-office, Sessions tab). */
export function sessionCountText(count: number): string {
  return `${count} active session(s) found`;
}
