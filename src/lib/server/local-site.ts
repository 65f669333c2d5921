/**
 * The organization the local site shows. A machine serves one site (`npm run dev`/`serve`): the one of
 * SITE_ORG, else the default organization (the local fallback of src/lib/site/organizations.ts: no Netlify `URL`
 * names a domain locally). A rebuild batch of any other organization must not rebuild the local site as that
 * organization's: the caller records it as skipped with `localSiteSkipReason`.
 */
import { DEFAULT_ORGANIZATION_SLUG } from '../host-match.ts';

type Env = Record<string, string | undefined>;

/** The slug of the organization the local site shows: SITE_ORG, else the default organization's. */
export function localSiteOrganizationSlug(env: Env = process.env): string {
  return env.SITE_ORG?.trim() || DEFAULT_ORGANIZATION_SLUG;
}

/** Why a local rebuild of `slug` is skipped, or null when `slug` is the organization the local site shows. */
export function localSiteSkipReason(slug: string, env: Env = process.env): string | null {
  const shown = localSiteOrganizationSlug(env);
  return slug === shown ? null : `The local site shows ${shown}`;
}
