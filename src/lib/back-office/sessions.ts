/**
 * The Sessions tab's data: the live sessions of an organization's members (`list_organization_sessions`,
 * read from Supabase Auth's own sessions, their last activity the latest of sign-in, token refresh and the back
 * office's own note of use, `noteSessionActivity`), shown one entry per person and browser (every sign-in is its
 * own Auth session, so a browser used for a while holds several), and ending a browser's sessions at once
 * (`terminate_browser_sessions`, which deletes them and their refresh tokens, so that browser's next request is
 * refused).
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

/** Ends a session and the same person's other sessions in that browser, at once; gives how many ended. */
export async function terminateBrowserSessions(client: SupabaseClient, sessionId: string): Promise<number> {
  const { data, error } = await client.rpc('terminate_browser_sessions', { p_session_id: sessionId });
  if (error) throw new Error(`Terminating the sessions of ${sessionId}'s browser failed: ${error.message}`);
  return data as number;
}

/**
 * Tells the database this browser's session is in use now, for its "Last activity" (Supabase Auth itself records
 * a session's use only at a token refresh, about hourly). The database keeps at most one note a minute.
 */
export async function noteSessionActivity(client: SupabaseClient): Promise<void> {
  const { error } = await client.rpc('note_session_activity');
  if (error) throw new Error(`Noting this session's activity failed: ${error.message}`);
}

/** Active while used within IDLE_AFTER_MS and not expired; Inactive otherwise. */
export function sessionStatus(session: Pick<MemberSession, 'last_activity' | 'expires_at'>, now: number = Date.now()): 'Active' | 'Inactive' {
  if (session.expires_at && Date.parse(session.expires_at) <= now) return 'Inactive';
  return now - Date.parse(session.last_activity) < IDLE_AFTER_MS ? 'Active' : 'Inactive';
}

/** '{n} active session(s) found', as the Sessions tab counts them. */
export function sessionCountText(count: number): string {
  return `${count} active session(s) found`;
}

/**
 * The `session_id` claim of an access token (Supabase Auth puts the session's id there), or null for a
 * token that is not a readable JWT. Only decodes: the server verifies tokens, this only marks "This device".
 */
export function sessionIdOfAccessToken(token: string | null | undefined): string | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const claims: unknown = JSON.parse(atob(base64));
    const id = claims && typeof claims === 'object' ? (claims as Record<string, unknown>).session_id : null;
    return typeof id === 'string' && id ? id : null;
  } catch {
    return null;
  }
}

/**
 * One browser of one person: its sessions (the same user agent), the latest first. The entry shows the latest
 * (its address, last activity, expiry) and when the browser first signed in.
 */
export interface BrowserSessions {
  /** The latest session: the one the entry shows and ends (with the others). */
  latest: MemberSession;
  sessions: MemberSession[];
  /** The earliest sign-in of these sessions. */
  firstSignIn: string;
}

/** One person's browsers in the Sessions list. */
export interface SessionGroup {
  user_id: string;
  full_name: string | null;
  email: string;
  /** This device's browser first, then most recently active first. */
  browsers: BrowserSessions[];
}

/**
 * The sessions grouped by person, and within a person by browser (the same user agent): the group holding
 * `currentSessionId` (you) first, then people by their most recent activity. A browser holding
 * `currentSessionId` shows that session as its latest, since it is the one in use here.
 */
export function groupSessionsByUser(sessions: readonly MemberSession[], currentSessionId: string | null): SessionGroup[] {
  const latest = (s: MemberSession) => Date.parse(s.last_activity);
  const isCurrent = (s: MemberSession) => s.session_id === currentSessionId;
  const people = new Map<string, { group: SessionGroup; byAgent: Map<string, MemberSession[]> }>();
  for (const session of sessions) {
    const person = people.get(session.user_id) ?? {
      group: { user_id: session.user_id, full_name: session.full_name, email: session.email, browsers: [] },
      byAgent: new Map<string, MemberSession[]>(),
    };
    const agent = session.user_agent ?? '';
    person.byAgent.set(agent, [...(person.byAgent.get(agent) ?? []), session]);
    people.set(session.user_id, person);
  }
  const groups = [...people.values()].map(({ group, byAgent }) => {
    group.browsers = [...byAgent.values()].map((list) => {
      const ordered = [...list].sort((a, b) => Number(isCurrent(b)) - Number(isCurrent(a)) || latest(b) - latest(a));
      const firstSignIn = list.map((s) => s.created_at).reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b));
      return { latest: ordered[0]!, sessions: ordered, firstSignIn };
    });
    group.browsers.sort((a, b) => Number(isCurrent(b.latest)) - Number(isCurrent(a.latest)) || latest(b.latest) - latest(a.latest));
    return group;
  });
  const newest = (g: SessionGroup) => Math.max(...g.browsers.map((b) => latest(b.latest)));
  const holdsCurrent = (g: SessionGroup) => Number(g.browsers.some((b) => isCurrent(b.latest)));
  return groups.sort((a, b) => holdsCurrent(b) - holdsCurrent(a) || newest(b) - newest(a));
}
