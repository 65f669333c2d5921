/**
 * The organizations a user manages in the back office: their active memberships (organization_memberships
 * joined with organizations), each with the role it gives, and the one rule that picks which to manage and
 * where each role lands. The public site never uses this: it shows the organization it was built for.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Organization } from '../host-match.ts';

/** A member's role in an organization. */
export type MemberRole = 'viewer' | 'editor' | 'admin';

/** An organization the user is an active member of, with their role in it. */
export type MemberOrganization = Organization & { role: MemberRole };

/** localStorage key of the organization the browser last chose to manage. */
export const PREFERRED_ORGANIZATION_KEY = 'preferredOrganization';

/** The user's organizations where their membership is active, by name. Throws with context when the query fails. */
export async function listMemberOrganizations(client: SupabaseClient, userId: string): Promise<MemberOrganization[]> {
  const { data, error } = await client
    .from('organization_memberships')
    .select('role, organization:organizations(id, name, slug, domain, settings)')
    .eq('user_id', userId)
    .eq('is_active', true)
    .overrideTypes<{ role: MemberRole; organization: Organization | null }[], { merge: false }>();
  if (error) throw new Error(`Loading the organizations of ${userId} failed: ${error.message}`);
  return (data ?? [])
    .flatMap((row) => (row.organization ? [{ ...row.organization, settings: row.organization.settings ?? {}, role: row.role }] : []))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Which organization to manage: the one this browser chose before, else the one the site was built for,
 * else the first the user administers, else the first; null without memberships.
 */
export function chooseOrganization(
  list: readonly MemberOrganization[],
  preferredId: string | null,
  siteOrganizationId: string | null = null,
): MemberOrganization | null {
  return (
    list.find((org) => org.id === preferredId) ??
    list.find((org) => org.id === siteOrganizationId) ??
    list.find((org) => org.role === 'admin') ??
    list[0] ??
    null
  );
}

/** Where a role works: admins on the dashboard, editors and viewers in blog management. */
export function landingPath(role: MemberRole): '/admin' | '/admin/blog' {
  return role === 'admin' ? '/admin' : '/admin/blog';
}

/**
 * True when the role may open the page (the dashboard is for admins; blog management, the Media Library, one's
 * profile, the sites board (each person's own sites, in their role there) and the login-approval page for every
 * member, which says itself who may approve).
 */
export function roleMayOpen(role: MemberRole, path: string): boolean {
  return role === 'admin' || /^\/admin\/(?:blog|media|profile|sites|authorize-application)(?:[/?]|$)/.test(path);
}

/** The id of the organization the page was built for (`<html data-organization-id>`), or null. */
export function siteOrganizationId(): string | null {
  return typeof document === 'undefined' ? null : (document.documentElement.dataset.organizationId ?? null);
}
