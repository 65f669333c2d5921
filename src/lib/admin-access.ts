/**
 * Who may use the back office: an active profile with role admin (spec back-office 6). The same rule runs
 * in the sign-in function (with the service client) and in the /admin gate (as the signed-in user, through
 * RLS, which hides the profile of an inactive user or an ended session).
 */
import { isAuthApiError, isAuthSessionMissingError, type SupabaseClient, type User } from '@supabase/supabase-js';

/** The profile columns the access check reads. */
export interface AccessProfile {
  role: string;
  is_active: boolean;
  organization_id: string | null;
}

/** True for an admin whose account is active. */
export function isActiveAdmin(profile: AccessProfile | null | undefined): boolean {
  return profile?.role === 'admin' && profile.is_active === true;
}

/** True for an active account with any role: who may enter blog management (viewers read only there). */
export function isActiveMember(profile: AccessProfile | null | undefined): boolean {
  return (profile?.role === 'admin' || profile?.role === 'editor' || profile?.role === 'viewer') && profile.is_active === true;
}

/** Reads a user's role, active flag and organization; null when the row is missing or hidden by RLS. */
export async function readAccessProfile(client: SupabaseClient, userId: string): Promise<AccessProfile | null> {
  const { data, error } = await client
    .from('profiles')
    .select('role, is_active, organization_id')
    .eq('id', userId)
    .maybeSingle();
  if (error) throw new Error(`Reading the profile of ${userId} failed: ${error.message}`);
  return data;
}

/** The result of the dashboard's access check. */
export type AdminAccess =
  | { kind: 'allowed'; user: User; profile: AccessProfile }
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

/** The dashboard's check, as the signed-in browser user: an active admin (RLS hides other profiles). */
export async function checkAdminAccess(client: SupabaseClient): Promise<AdminAccess> {
  try {
    const user = await confirmedUser(client);
    if (!user) return { kind: 'signed-out' };
    const profile = await readAccessProfile(client, user.id);
    return profile && isActiveAdmin(profile) ? { kind: 'allowed', user, profile } : { kind: 'denied' };
  } catch (error) {
    return { kind: 'failed', error };
  }
}

/** A member's role in an organization. */
export type MemberRole = 'viewer' | 'editor' | 'admin';

/** The result of blog management's access check. */
export type BlogAccessCheck =
  | { kind: 'allowed'; user: User; role: MemberRole }
  | { kind: 'denied' }
  | { kind: 'signed-out' }
  | { kind: 'failed'; error: unknown };

/**
 * Blog management's check, as the signed-in browser user: any active member of the organization (none: a
 * user without organizations is denied). The role comes from `org_role`, the function RLS uses, which answers
 * null for an inactive profile or a non-member.
 */
export async function checkBlogAccess(client: SupabaseClient, organizationId: string | null): Promise<BlogAccessCheck> {
  try {
    const user = await confirmedUser(client);
    if (!user) return { kind: 'signed-out' };
    if (!organizationId) return { kind: 'denied' };
    const { data, error } = await client.rpc('org_role', { org: organizationId });
    if (error) throw new Error(`Reading the role of ${user.id} in ${organizationId} failed: ${error.message}`);
    return data === 'viewer' || data === 'editor' || data === 'admin' ? { kind: 'allowed', user, role: data } : { kind: 'denied' };
  } catch (error) {
    return { kind: 'failed', error };
  }
}
