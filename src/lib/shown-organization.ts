/**
 * Which organization a site shows: the one rule, used by the build (src/lib/site/organizations.ts reads the
 * chosen organization's settings), by the functions that act on "this site" (src/lib/server/site-organization.ts)
 * and by the local servers (localSiteOrganizationSlug). A site shows one organization: `SITE_ORG` (a slug),
 * else the organization whose confirmed domain is exactly the site's host. Netlify's production build stops
 * there and fails when neither names one; any other build (local, deploy previews, branch deploys) falls back
 * to the default slug, else the fallback organization.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { z } from '../schemas/zod.ts';
import { OrganizationIdentitySchema, type OrganizationIdentity } from '../schemas/organization.ts';
import { publicSupabaseConfig } from './supabase-config.ts';
import { DEFAULT_ORGANIZATION_SLUG, FALLBACK_ORGANIZATION, normalizeHost, organizationForHost, type Organization } from './host-match.ts';

export type Env = Record<string, string | undefined>;

/**
 * Every organization's identity (what picks a site's organization; never settings), readable with the anon
 * key. Each row is validated on its own: one that does not match is reported with its organization and field
 * and left out, so one organization's data never stops another's site or functions. Throws when the database
 * cannot be reached. `client` is the caller's own when it has one (a function's, which notes a backend out of
 * reach).
 */
export async function listOrganizations(env: Env = process.env, client?: SupabaseClient): Promise<OrganizationIdentity[]> {
  const { url } = publicSupabaseConfig(env);
  const rows = await readOrganizations(env, client, 'id, name, slug, domain, domain_confirmed', (query) => query.order('name'));
  return rows.flatMap((row) => {
    const parsed = OrganizationIdentitySchema.safeParse(row);
    if (parsed.success) return [parsed.data];
    console.warn(`Organization ${describeRow(row)} from ${url} left out: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`);
    return [];
  });
}

type OrganizationsQuery = ReturnType<ReturnType<SupabaseClient['from']>['select']>;

export async function readOrganizations(
  env: Env,
  client: SupabaseClient | undefined,
  columns: string,
  narrow: (query: OrganizationsQuery) => OrganizationsQuery,
): Promise<Record<string, unknown>[]> {
  const { url, anonKey } = publicSupabaseConfig(env);
  client ??= createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  let result;
  try {
    result = await narrow(client.from('organizations').select(columns));
  } catch (cause) {
    throw new Error(`Cannot read organizations from ${url}: ${(cause as Error).message}`, { cause });
  }
  if (result.error) {
    throw new Error(`Cannot read organizations from ${url}: ${result.error.message || result.error.code || 'unreachable'}`);
  }
  return (result.data ?? []) as unknown as Record<string, unknown>[];
}

/** How a report names an organization row: its slug and id, as far as they are readable. */
export function describeRow(row: Record<string, unknown> | OrganizationIdentity): string {
  const slug = typeof row.slug === 'string' ? `"${row.slug}"` : '(no slug)';
  return typeof row.id === 'string' ? `${slug} (${row.id})` : slug;
}

/**
 * Netlify's build of the production context: it sets CONTEXT=production and NETLIFY=true. `netlify build`
 * and `netlify serve` on a machine say CONTEXT=production too, but set NETLIFY_LOCAL instead of NETLIFY:
 * those are local builds.
 */
function isProductionBuild(env: Env): boolean {
  return env.CONTEXT === 'production' && env.NETLIFY === 'true';
}

/**
 * The site's host: Netlify's `URL`, the site's main address (its primary custom domain, else its
 * netlify.app name), the same for every deploy of the site. Not DEPLOY_PRIME_URL: that is the address of
 * one branch or preview (`deploy-preview-42--site.netlify.app`), never an organization's domain.
 */
function siteHost(env: Env): string | null {
  if (!env.URL) return null;
  try {
    return new URL(env.URL).host;
  } catch {
    return null;
  }
}

/**
 * The organization a site shows, from the list of identities: SITE_ORG's, else the one whose confirmed domain is
 * the site's host; a production build on Netlify fails when neither names one; any other falls back to the
 * default organization, else the built-in fallback. The build (site/organizations.ts) and the functions
 * (server/site-organization.ts) both choose through here.
 */
export function chooseSiteOrganization<T extends OrganizationIdentity>(organizations: readonly T[], env: Env): T | Readonly<Organization> {
  const known = organizations.map((org) => org.slug).join(', ') || 'none';
  const slug = env.SITE_ORG?.trim();
  if (slug) {
    const chosen = organizations.find((org) => org.slug === slug);
    if (!chosen) throw new Error(`SITE_ORG=${slug} names no organization (known: ${known})`);
    return chosen;
  }
  const host = siteHost(env);
  // Only a domain the operator confirmed picks the site: an admin's new domain could otherwise steer another site.
  const byDomain = host ? organizationForHost(host, organizations.filter((org) => org.domain_confirmed)) : null;
  if (byDomain) return byDomain;
  if (isProductionBuild(env)) {
    const where = host ? `exactly "${normalizeHost(host)}", the host of this site's URL (${env.URL})` : `this site's host (URL is ${env.URL ? `not an address: ${env.URL}` : 'not set'})`;
    throw new Error(
      `This production build cannot tell which organization it shows. Set SITE_ORG to the organization's slug (known: ${known}), or set the organization's domain to ${where} and have it confirmed (organizations.domain_confirmed).`,
    );
  }
  return organizations.find((org) => org.slug === DEFAULT_ORGANIZATION_SLUG) ?? FALLBACK_ORGANIZATION;
}

/**
 * The slug of the organization a local site shows (`npm run dev`/`serve`): SITE_ORG, else the default
 * organization's. The rule above, where no Netlify `URL` names a domain and the build is never production's.
 */
export function localSiteOrganizationSlug(env: Env = process.env): string {
  return env.SITE_ORG?.trim() || DEFAULT_ORGANIZATION_SLUG;
}
