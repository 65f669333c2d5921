/**
 * The only place that reads organizations. The build shows one organization (DESIGN.md decision 2):
 * `SITE_ORG` (a slug), else the deploy host, else the default slug, else the fallback organization.
 */
import { createClient } from '@supabase/supabase-js';
import { z } from '../schemas/zod.ts';
import { OrganizationSchema } from '../schemas/organization.ts';
import { readWithSnapshot } from './build-snapshot.ts';
import { publicSupabaseConfig } from './supabase-config.ts';
import { DEFAULT_ORGANIZATION_SLUG, FALLBACK_ORGANIZATION, matchOrganization, type Organization } from './host-match.ts';

type Env = Record<string, string | undefined>;

/** Every organization, readable with the anon key. Throws when the database cannot be reached. */
export async function listOrganizations(env: Env = process.env): Promise<Organization[]> {
  const { url, anonKey } = publicSupabaseConfig(env);
  const client = createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  let result;
  try {
    result = await client.from('organizations').select('id, name, slug, domain, settings').order('name');
  } catch (cause) {
    throw new Error(`Cannot read organizations from ${url}: ${(cause as Error).message}`, { cause });
  }
  if (result.error) {
    throw new Error(`Cannot read organizations from ${url}: ${result.error.message || result.error.code || 'unreachable'}`);
  }
  const rows = z.array(OrganizationSchema).safeParse((result.data ?? []).map((row) => ({ ...row, settings: row.settings ?? {} })));
  if (!rows.success) throw new Error(`Organizations from ${url} do not match OrganizationSchema: ${z.prettifyError(rows.error)}`);
  return rows.data;
}

/** The host the site is deployed at, from Netlify's build variables. */
function deployHost(env: Env): string | null {
  const address = env.URL || env.DEPLOY_PRIME_URL;
  if (!address) return null;
  try {
    return new URL(address).host;
  } catch {
    return null;
  }
}

/** Picks the build's organization from a list (exported for tests; the build uses `getSiteOrganization`). */
export function chooseSiteOrganization(organizations: readonly Organization[], env: Env): Organization {
  const slug = env.SITE_ORG?.trim();
  if (slug) {
    const chosen = organizations.find((org) => org.slug === slug);
    if (!chosen) throw new Error(`SITE_ORG=${slug} names no organization (known: ${organizations.map((o) => o.slug).join(', ') || 'none'})`);
    return chosen;
  }
  const host = deployHost(env);
  const byHost = host ? matchOrganization({ host, path: '/', signedIn: false, organizations }) : null;
  return byHost ?? organizations.find((org) => org.slug === DEFAULT_ORGANIZATION_SLUG) ?? FALLBACK_ORGANIZATION;
}

let siteOrganization: Promise<Organization> | undefined;

/** The organization this build shows; read once per build (kept as a snapshot, see build-snapshot.ts). */
export function getSiteOrganization(env: Env = process.env): Promise<Organization> {
  siteOrganization ??= readWithSnapshot('organizations', z.array(OrganizationSchema), () => listOrganizations(env), env).then((organizations) =>
    chooseSiteOrganization(organizations, env),
  );
  return siteOrganization;
}
