/**
 * Who is calling an admin function: the bearer token must belong to a live session of an active admin of
 * the organization the request names. The check runs as the caller (anon key + their token) through the
 * same SQL helper RLS uses (`is_org_admin`), so a terminated session, a deactivated profile or a demoted
 * role is refused exactly as the database would refuse it.
 */
import { createClient, type User } from '@supabase/supabase-js';
import { publicSupabaseConfig, serviceSupabaseConfig } from '../../../src/lib/supabase-config.ts';
import { HttpError } from './http.ts';

/** The caller's user, once they are confirmed as an active admin of `organizationId`; else 401 / 403. */
export async function requireOrganizationAdmin(req: Request, organizationId: string): Promise<User> {
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '')?.[1];
  if (!token) throw new HttpError(401, 'Sign in first: the request has no bearer token.');
  // Functions read their backend from process.env (SUPABASE_URL first), not from the build's import.meta.env.
  const { url } = serviceSupabaseConfig();
  const { anonKey } = publicSupabaseConfig(process.env);
  const asCaller = createClient(url, anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: { headers: { Authorization: `Bearer ${token}` } },
  });
  const { data: userData, error: userError } = await asCaller.auth.getUser(token);
  if (userError || !userData.user) throw new HttpError(401, 'Your session has expired. Please log in again.');
  const { data: isAdmin, error } = await asCaller.rpc('is_org_admin', { org: organizationId });
  if (error) throw new Error(`Checking admin rights on ${organizationId} failed: ${error.message}`);
  if (isAdmin !== true) throw new HttpError(403, 'Admin privileges required or account inactive.');
  return userData.user;
}
