/**
 * Who may use the back office, as the signed-in browser user: the role in the organization being managed,
 * read with `org_role`, the function every policy uses (null for an inactive account or membership, an ended
 * session, or a non-member). Admins use the dashboard and blog management, editors blog management, viewers
 * read it. The database enforces the same on every request; this decides what the browser shows.
 */
import { isAuthApiError, isAuthSessionMissingError, type SupabaseClient, type User } from '@supabase/supabase-js';
import type { MemberRole } from './memberships.ts';

/** The result of the back office's access check. */
export type AccessCheck =
  | { kind: 'allowed'; user: User; role: MemberRole }
  | { kind: 'denied' }
  | { kind: 'signed-out' }
  | { kind: 'failed'; error: unknown };

/**
 * The signed-in user confirmed with the Auth server (not only the stored token), or null when there is no
 * session or Auth no longer accepts it (ended, expired, user deleted). Other failures throw.
 */
async function confirmedUser(client: SupabaseClient): Promise<User | null> {
  const { data: local } = await client.auth.getSession();
  if (!local.session) return null;
  const { data, error } = await client.auth.getUser();
  if (error) {
    // A 4xx from Auth: the token or its session is no longer valid.
    if (isAuthSessionMissingError(error) || (isAuthApiError(error) && error.status >= 400 && error.status < 500)) return null;
    throw error;
  }
  return data.user;
}

/** The signed-in user's role in the organization, or why there is none. Reports failures in the result. */
export async function checkOrganizationAccess(client: SupabaseClient, organizationId: string): Promise<AccessCheck> {
  try {
    const user = await confirmedUser(client);
    if (!user) return { kind: 'signed-out' };
    const { data, error } = await client.rpc('org_role', { org: organizationId });
    if (error) throw new Error(`Reading the role of ${user.id} in ${organizationId} failed: ${error.message}`);
    return data === 'viewer' || data === 'editor' || data === 'admin' ? { kind: 'allowed', user, role: data } : { kind: 'denied' };
  } catch (error) {
    return { kind: 'failed', error };
  }
}
