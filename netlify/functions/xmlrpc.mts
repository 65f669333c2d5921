import type { Config, Context } from '@netlify/functions';
import { RETRY_AFTER_SECONDS, withBackend } from '../../src/lib/server/backend.ts';
import { failureReference } from '../../src/lib/server/http.ts';
import { SERVICE_UNAVAILABLE } from '../../src/lib/service-unavailable.ts';
import { wordPressContext } from '../../src/lib/server/wordpress-context.ts';
import { answerXmlRpc } from '../../src/lib/server/wordpress-xmlrpc.ts';
import { faultResponse, XmlRpcFault } from '../../src/lib/server/xmlrpc.ts';

/**
 * `/xmlrpc.php`: WordPress's XML-RPC API for the writing apps that speak it, and its RSD document
 * (`/xmlrpc.php?rsd`), for the organization this site shows (src/lib/server/wordpress-xmlrpc.ts). A failure on our
 * side answers a fault with a reference, its details only in the log; while the backend is out of reach, a 503
 * fault with Retry-After.
 */
export default withBackend(async (req: Request, context?: Pick<Context, 'ip'>) => {
  try {
    return await answerXmlRpc(req, await wordPressContext(req, context?.ip));
  } catch (error) {
    const reference = failureReference();
    console.error(`xmlrpc failed (reference ${reference}):`, error instanceof Error ? error.message : String(error));
    return fault(500, `The request could not be completed (reference ${reference}).`);
  }
}, () => fault(503, SERVICE_UNAVAILABLE.message, { 'retry-after': String(RETRY_AFTER_SECONDS) }));

function fault(code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(faultResponse(new XmlRpcFault(code, message)), { status: code, headers: { 'content-type': 'text/xml; charset=UTF-8', ...headers } });
}

export const config: Config = { path: '/xmlrpc.php' };
