/**
 * Where the links in mails lead (newsletter confirmations, invitations, password resets): never the request's
 * Host header, which whoever sends the request writes (a sign-up sent with `Host: evil.example` once mailed a
 * confirmation link to evil.example). In order:
 * 1. SITE_URL, when the deployment sets it (the local servers set their own address);
 * 2. with the local backend (its demo service key), the local site, http://localhost:8888;
 * 3. the organization's domain as the operator confirmed it (`add_site`), over https;
 * 4. Netlify's URL, the site's primary address.
 * With none of them the function fails with what to set, rather than guess.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE, serviceSupabaseConfig } from './service-config.ts';

type Env = Record<string, string | undefined>;

/** The local site's address when nothing else names one (`npm run dev` / `serve` on their default port). */
export const LOCAL_SITE_ADDRESS = 'http://localhost:8888';

/** What of an organization decides its address. */
export type SiteAddressOrganization = { slug: string; domain: string | null; domain_confirmed: boolean | null };

/** The origin (scheme, host, port) links to the organization's site start with. */
export function siteAddress(organization: SiteAddressOrganization, env: Env = process.env): string {
  const configured = env.SITE_URL?.trim();
  if (configured) return new URL(configured).origin;
  if (serviceSupabaseConfig(env).serviceRoleKey === LOCAL_SUPABASE.serviceRoleKey) return LOCAL_SITE_ADDRESS;
  if (organization.domain && organization.domain_confirmed) return `https://${organization.domain}`;
  if (env.URL?.trim()) return new URL(env.URL).origin;
  throw new Error(`No address for the links in mails of ${organization.slug}: set SITE_URL on the site, or have its domain confirmed (npm run site:add)`);
}

/** The organization's site address, its row read with the service client. */
export async function organizationSiteAddress(client: SupabaseClient, organizationId: string, env: Env = process.env): Promise<string> {
  const { data, error } = await client.from('organizations').select('slug, domain, domain_confirmed').eq('id', organizationId).single();
  if (error) throw new Error(`Reading the address of organization ${organizationId} failed: ${error.message}`);
  return siteAddress(data as SiteAddressOrganization, env);
}
