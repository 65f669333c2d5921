import type { Config, Context } from '@netlify/functions';
import { RETRY_AFTER_SECONDS, withBackend } from '../../src/lib/server/backend.ts';
import { SERVICE_UNAVAILABLE } from '../../src/lib/service-unavailable.ts';
import { discoveryLink } from '../../src/lib/wordpress-discovery.ts';
import { failureReference } from '../../src/lib/server/http.ts';
import { answerWordPressRequest } from '../../src/lib/server/wordpress-api.ts';
import { wordPressContext } from '../../src/lib/server/wordpress-context.ts';
import { wpError } from '../../src/lib/server/wordpress-rest.ts';

/**
 * `/wp-json/*` (and `/?rest_route=/…` or `/index.php?rest_route=/…`, rewritten here by netlify.toml): the WordPress REST API publishing tools
 * call, for the organization this site shows (src/lib/server/wordpress-api.ts). A failure on our side answers
 * WordPress's 500 with a reference, its details only in the log; while the backend is out of reach, WordPress's
 * 503 with Retry-After and the discovery link, as every answer of the API carries it.
 */
export default withBackend(async (req: Request, context?: Pick<Context, 'ip'>) => {
  try {
    return await answerWordPressRequest(req, await wordPressContext(req, context?.ip));
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
