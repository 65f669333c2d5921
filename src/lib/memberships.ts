/** The organizations a user belongs to (organization_memberships joined with organizations). */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Organization } from './host-match.ts';

/** The user's organizations, by name. Throws with context when the query fails. */
export async function listMemberOrganizations(client: SupabaseClient, userId: string): Promise<Organization[]> {
  const { data, error } = await client
    .from('organization_memberships')
    .select('organization:organizations(id, name, slug, domain, settings)')
    .eq('user_id', userId)
    .overrideTypes<{ organization: Organization | null }[], { merge: false }>();
  if (error) throw new Error(`Loading the organizations of ${userId} failed: ${error.message}`);
  return (data ?? [])
    .flatMap((row) => (row.organization ? [{ ...row.organization, settings: row.organization.settings ?? {} }] : []))
    .sort((a, b) => a.name.localeCompare(b.name));
}
