/**
 * What the WordPress-compatible endpoints (`/wp-json/…` and `/xmlrpc.php`) know of a request before answering it:
 * the backend's clients, the organization this site shows, its address, name and time zone, and who is calling.
 */
import { DEFAULT_TIME_ZONE } from '../../schemas/publishing-queue.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';
import { backendClient } from './backend.ts';
import { clientInfoFrom } from './login-attempts.ts';
import { serviceClient } from './service-client.ts';
import { siteAddress, type SiteAddressOrganization } from './site-address.ts';
import { siteOrganizationId } from './site-organization.ts';
import type { WordPressContext } from './wordpress-rest.ts';

/** The context of `req` from client address `ip`. Throws when the backend cannot answer. */
export async function wordPressContext(req: Request, ip: string | undefined): Promise<WordPressContext> {
  const service = serviceClient();
  const organizationId = await siteOrganizationId();
  type Shown = SiteAddressOrganization & { name: string; queue: { time_zone: string } | null };
  let organization: Shown | null = null;
  if (organizationId) {
    const { data, error } = await service
      .from('organizations')
      .select('name, slug, domain, domain_confirmed, queue:publishing_queues(time_zone)')
      .eq('id', organizationId)
      .single();
    if (error) throw new Error(`reading organization ${organizationId} failed: ${error.message}`);
    organization = data as unknown as Shown;
  }
  const { url, anonKey } = publicSupabaseConfig(process.env);
  return {
    service,
    visitor: backendClient(url, anonKey),
    organizationId,
    siteAddress: organization ? siteAddress(organization) : new URL(req.url).origin,
    siteName: organization?.name ?? '',
    timeZone: organization?.queue?.time_zone ?? DEFAULT_TIME_ZONE,
    client: clientInfoFrom(req.headers, ip),
  };
}
