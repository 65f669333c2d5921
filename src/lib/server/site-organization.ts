/**
 * The organization this deployed site shows, for functions that act on "this site" (counting a view,
 * recording a deploy): chosen by the build's rule (src/lib/shown-organization.ts: SITE_ORG, else the domain of the
 * site's URL, else the local fallback), never taken from a request. Read at most every 5 minutes per
 * function instance.
 */
import { FALLBACK_ORGANIZATION } from '../host-match.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';
import { backendClient } from './backend.ts';
import { chooseSiteOrganization, listOrganizations } from '../shown-organization.ts';

const ORGANIZATION_CACHE_MS = 5 * 60_000;
let cached: { id: Promise<string | null>; until: number } | undefined;

/**
 * The id of the organization this site shows, or null when it shows the built-in fallback (a local site
 * with no organization in the database): nothing can be counted, listed or recorded for it.
 */
export function siteOrganizationId(): Promise<string | null> {
  if (!cached || cached.until < Date.now()) {
    const { url, anonKey } = publicSupabaseConfig(process.env);
    const id = listOrganizations(process.env, backendClient(url, anonKey)).then((organizations) => {
      const shown = chooseSiteOrganization(organizations, process.env);
      return shown.id === FALLBACK_ORGANIZATION.id ? null : shown.id;
    });
    id.catch(() => (cached = undefined));
    cached = { id, until: Date.now() + ORGANIZATION_CACHE_MS };
  }
  return cached.id;
}
