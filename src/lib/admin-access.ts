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

/** The blog management path /auth may return to after sign-in (`?next=`), or null for anything else. */
export function blogReturnPath(next: string | null): string | null {
  return next && /^\/admin\/blog(?:\/[\w\-/]*)?$/.test(next) ? next : null;
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
 * The dashboard's check, as the signed-in browser user. The user is confirmed with the Auth server (not only
 * the stored token), so a terminated session or deleted user reads as signed out.
 */
export async function checkAdminAccess(client: SupabaseClient): Promise<AdminAccess> {
  try {
    const { data: local } = await client.auth.getSession();
    if (!local.session) return { kind: 'signed-out' };
    const { data, error } = await client.auth.getUser();
    if (error) {
      // A 4xx from Auth: the token or its session is no longer valid (ended, expired, user deleted).
      if (isAuthSessionMissingError(error) || (isAuthApiError(error) && error.status >= 400 && error.status < 500)) return { kind: 'signed-out' };
      throw error;
    }
    const profile = await readAccessProfile(client, data.user.id);
    return profile && isActiveAdmin(profile) ? { kind: 'allowed', user: data.user, profile } : { kind: 'denied' };
  } catch (error) {
    return { kind: 'failed', error };
  }
}
