/**
 * Application passwords in the back office: what WordPress publishing tools sign in with (the member's user name
 * or e-mail and one of these, HTTP Basic auth). Made through `create_application_password` (editors and admins; shown
 * once), listed under row-level security (one's own; an admin sees everyone's in the organization), revoked
 * through `revoke_application_password`. The database decides who may do what; this module only asks.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** A password as the list shows it: never its value, which is shown once when it is made. */
export interface ApplicationPassword {
  id: string;
  user_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  last_used_ip: string | null;
  owner: { email: string; full_name: string | null } | null;
}

/** A new password: its only showing, in WordPress's format (`abcd EFGH 1234 ijkl MNOP 6789`). */
export interface NewApplicationPassword {
  id: string;
  name: string;
  password: string;
}

/** The passwords of the organization the caller may see, newest first. */
export async function listApplicationPasswords(client: SupabaseClient, organizationId: string): Promise<ApplicationPassword[]> {
  const { data, error } = await client
    .from('application_passwords')
    .select('id, user_id, name, created_at, last_used_at, last_used_ip, owner:profiles(email, full_name)')
    .eq('organization_id', organizationId)
    .order('created_at', { ascending: false });
  if (error) throw new Error(`Listing the application passwords of ${organizationId} failed: ${error.message}`);
  return (data ?? []) as unknown as ApplicationPassword[];
}

/** The caller's user name (profiles.user_login): what tools label "Username", made once from the e-mail. */
export async function loadUserLogin(client: SupabaseClient, userId: string): Promise<string> {
  const { data, error } = await client.from('profiles').select('user_login').eq('id', userId).single();
  if (error) throw new Error(`Reading the user name of ${userId} failed: ${error.message}`);
  return (data as { user_login: string }).user_login;
}

/** Makes a password for the caller; throws with the database's own words for a refusal (a name in use, a viewer). */
export async function createApplicationPassword(client: SupabaseClient, organizationId: string, name: string): Promise<NewApplicationPassword> {
  const { data, error } = await client.rpc('create_application_password', { p_organization_id: organizationId, p_name: name });
  if (error) throw new ApplicationPasswordError(REFUSALS.has(error.code) ? error.message : 'The application password could not be made. Please try again.');
  return data as NewApplicationPassword;
}

/** Revokes a password: tools that use it are refused from the next request. */
export async function revokeApplicationPassword(client: SupabaseClient, id: string): Promise<void> {
  const { error } = await client.rpc('revoke_application_password', { p_id: id });
  if (error) throw new ApplicationPasswordError(REFUSALS.has(error.code) ? error.message : 'The application password could not be revoked. Please try again.');
}

/** The database's refusals, worded for the member (no name, a name in use, not allowed); anything else is a failure. */
const REFUSALS = new Set(['22023', '23505', '42501']);

/** A refusal to show as it is. */
export class ApplicationPasswordError extends Error {}
