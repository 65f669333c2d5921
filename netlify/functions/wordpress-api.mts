import type { Config, Context } from '@netlify/functions';
import { publicSupabaseConfig } from '../../src/lib/supabase-config.ts';
import { backendClient, RETRY_AFTER_SECONDS, withBackend } from '../../src/lib/server/backend.ts';
import { SERVICE_UNAVAILABLE } from '../../src/lib/service-unavailable.ts';
import { discoveryLink } from '../../src/lib/wordpress-discovery.ts';
import { failureReference } from '../../src/lib/server/http.ts';
import { clientInfoFrom } from '../../src/lib/server/login-attempts.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { siteAddress, type SiteAddressOrganization } from '../../src/lib/server/site-address.ts';
import { siteOrganizationId } from '../../src/lib/server/site-organization.ts';
import { answerWordPressRequest } from '../../src/lib/server/wordpress-api.ts';
import { wpError } from '../../src/lib/server/wordpress-rest.ts';

/**
 * `/wp-json/*` (and `/?rest_route=/…` or `/index.php?rest_route=/…`, rewritten here by netlify.toml): the WordPress REST API publishing tools
 * call, for the organization this site shows (src/lib/server/wordpress-api.ts). A failure on our side answers
 * WordPress's 500 with a reference, its details only in the log; while the backend is out of reach, WordPress's
 * 503 with Retry-After and the discovery link, as every answer of the API carries it.
 */
export default withBackend(async (req: Request, context?: Pick<Context, 'ip'>) => {
  try {
    const service = serviceClient();
    const organizationId = await siteOrganizationId();
    let organization: (SiteAddressOrganization & { name: string }) | null = null;
    if (organizationId) {
      const { data, error } = await service.from('organizations').select('name, slug, domain, domain_confirmed').eq('id', organizationId).single();
      if (error) throw new Error(`reading organization ${organizationId} failed: ${error.message}`);
      organization = data as SiteAddressOrganization & { name: string };
    }
    const { url, anonKey } = publicSupabaseConfig(process.env);
    return await answerWordPressRequest(req, {
      service,
      visitor: backendClient(url, anonKey),
      organizationId,
      siteAddress: organization ? siteAddress(organization) : new URL(req.url).origin,
      siteName: organization?.name ?? '',
      client: clientInfoFrom(req.headers, context?.ip),
    });
  } catch (error) {
    const reference = failureReference();
    console.error(`wordpress-api failed (reference ${reference}):`, error instanceof Error ? error.message : String(error));
    return wpError(500, 'internal_server_error', `The request could not be completed (reference ${reference}).`);
  }
}, unavailable);

/** The API's answer while the backend is out of reach: WordPress's error shape, when to try again, where the API is. */
function unavailable(req: Request): Response {
  const response = wpError(503, 'rest_service_unavailable', SERVICE_UNAVAILABLE.message, { 'retry-after': String(RETRY_AFTER_SECONDS) });
  response.headers.set('link', discoveryLink(new URL(req.url).origin));
  return response;
}

export const config: Config = { path: ['/wp-json', '/wp-json/*'] };
