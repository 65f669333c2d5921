/**
 * Who is calling an admin function: the bearer token must belong to a live session of an active admin of
 * the organization the request is about. Checked by the database's own helpers (`is_org_admin` under the
 * caller's token), so a terminated session or a deactivated admin is refused at once.
 */
import { createClient } from '@supabase/supabase-js';
import { publicSupabaseConfig } from '../../../src/lib/supabase-config.ts';
import { HttpError } from './http.ts';

/** The verified caller. */
export interface AdminCaller {
  id: string;
  email: string;
}

/** Resolves the caller or throws 401 (no or bad token) / 403 (not an active admin of `organizationId`). */
export async function requireOrganizationAdmin(req: Request, organizationId: string): Promise<AdminCaller> {
  const token = /^Bearer (.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1];
  if (!token) throw new HttpError(401, 'Sign in to continue.');
  const { url, anonKey } = publicSupabaseConfig(process.env);
  const client = createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
  const { data: userData, error: userError } = await client.auth.getUser(token);
  if (userError || !userData.user) throw new HttpError(401, 'Your session has expired. Please log in again.');
  const { data: isAdmin, error } = await client.rpc('is_org_admin', { org: organizationId });
  if (error) throw new Error(`Checking admin rights of ${userData.user.id} failed: ${error.message}`);
  if (isAdmin !== true) throw new HttpError(403, 'Admin privileges required for this organization.');
  return { id: userData.user.id, email: userData.user.email ?? '' };
}
