/**
 * The organization this deployed site shows, for functions that act on "this site" (counting a view,
 * recording a deploy): chosen as the build chooses it (SITE_ORG, else the domain of the site's URL, else the
 * local fallback; src/lib/site/organizations.ts), never taken from a request. Read at most every 5 minutes per
 * function instance.
 */
import { chooseSiteOrganization, listOrganizations } from '../site/organizations.ts';

const ORGANIZATION_CACHE_MS = 5 * 60_000;
let cached: { id: Promise<string>; until: number } | undefined;

/** The id of the organization this site shows. */
export function siteOrganizationId(): Promise<string> {
  if (!cached || cached.until < Date.now()) {
    const id = listOrganizations().then((organizations) => chooseSiteOrganization(organizations, process.env).id);
    id.catch(() => (cached = undefined));
    cached = { id, until: Date.now() + ORGANIZATION_CACHE_MS };
  }
  return cached.id;
}
