/**
 * The organization the local site shows. A machine serves one site (`npm run dev`/`serve`): the one of
 * SITE_ORG, else the default organization (the local fallback of src/lib/site/organizations.ts: no Netlify `URL`
 * names a domain locally). The local servers configure their build hook for this organization only
 * (netlify/local/build-hook.ts), so another organization's rebuild batch is skipped for want of a hook, as an
 * organization without a Netlify site is.
 */
import { DEFAULT_ORGANIZATION_SLUG } from '../host-match.ts';

type Env = Record<string, string | undefined>;

/** The slug of the organization the local site shows: SITE_ORG, else the default organization's. */
export function localSiteOrganizationSlug(env: Env = process.env): string {
  return env.SITE_ORG?.trim() || DEFAULT_ORGANIZATION_SLUG;
}
