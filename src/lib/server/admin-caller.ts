/**
 * Who is calling an admin function: the bearer token must belong to a live session of an active admin of
 * the organization the request is about. Checked by the database's own rule (`org_role` under the
 * caller's token), so a terminated session or a deactivated admin is refused at once.
 */
import { backendClient } from './backend.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';
import { HttpError } from './http.ts';

/** The verified caller. */
export interface AdminCaller {
  id: string;
  email: string;
}

/** The least role a function requires: `editor` admits editors and admins. */
export type RequiredRole = 'admin' | 'editor';

/** The organization roles that satisfy each requirement. */
const sufficientRoles: Record<RequiredRole, readonly string[]> = { admin: ['admin'], editor: ['editor', 'admin'] };
const roleRefusal = {
  admin: 'Admin privileges required for this organization.',
  editor: 'Only editors and admins of this organization can do this.',
} as const;

/** Resolves the caller or throws 401 (no or bad token) / 403 (not an active `role` of `organizationId`). */
export async function requireOrganizationRole(req: Request, organizationId: string, role: RequiredRole = 'admin'): Promise<AdminCaller> {
  const token = /^Bearer (.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1];
  if (!token) throw new HttpError(401, 'Sign in to continue.');
  const { url, anonKey } = publicSupabaseConfig(process.env);
  const client = backendClient(url, anonKey, { Authorization: `Bearer ${token}` });
  const { data: userData, error: userError } = await client.auth.getUser(token);
  if (userError || !userData.user) throw new HttpError(401, 'Your session has expired. Please log in again.');
  // org_role answers null for an inactive profile, a non-member, or a session the sign-in did not vouch for.
  const { data: actual, error } = await client.rpc('org_role', { org: organizationId });
  if (error) throw new Error(`Checking the ${role} rights of ${userData.user.id} failed: ${error.message}`);
  if (!sufficientRoles[role].includes(actual)) throw new HttpError(403, roleRefusal[role]);
  return { id: userData.user.id, email: userData.user.email ?? '' };
}
