/**
 * A request body whose Content-Type netlify-cli cannot parse reaches the function intact, as on Netlify.
 *
 * netlify-cli reads function bodies with Express's parsers (`type: '*\/*'`), which match only media types they
 * can parse: a body sent as `image/.png` (what Python's WordPress client sends for a file named `x.png`) or
 * `text` was dropped, and the function saw no body at all ("No data supplied"). The local servers' proxy
 * (body-limit-proxy.ts) sends such a body on as `application/octet-stream`, keeping the client's own type in
 * ORIGINAL_CONTENT_TYPE; the warm functions (warm-functions.ts) give the function its own type back before it
 * runs. Which types netlify-cli parses is asked of its own copy of `type-is`, so the two never disagree.
 * (With LOCAL_WARM_FUNCTIONS=off the function sees the octet-stream type and the extra header.)
 */
import type { IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';

/** The header that carries the client's Content-Type past netlify-cli; a client's own is dropped. */
export const ORIGINAL_CONTENT_TYPE = 'x-local-original-content-type';

const fromNetlifyCli = createRequire(createRequire(import.meta.url).resolve('netlify-cli/package.json'));
const typeIs = fromNetlifyCli('type-is') as { is: (mediaType: string, types: string[]) => string | false };

/** Would netlify-cli read a body of this Content-Type? */
export function netlifyCliReads(contentType: string): boolean {
  return typeIs.is(contentType, ['*/*']) !== false;
}

/** The headers to send netlify-cli: a Content-Type it cannot read becomes octet-stream, the original kept aside. */
export function passableHeaders(headers: IncomingHttpHeaders, hasBody: boolean): IncomingHttpHeaders {
  const rest = { ...headers };
  delete rest[ORIGINAL_CONTENT_TYPE];
  const type = rest['content-type'];
  if (!hasBody || type === undefined || netlifyCliReads(type)) return rest;
  return { ...rest, 'content-type': 'application/octet-stream', [ORIGINAL_CONTENT_TYPE]: type };
}

/** The function event netlify-cli built, with the client's own Content-Type back in place of octet-stream. */
export function restoreContentType(event: { headers?: Record<string, string>; multiValueHeaders?: Record<string, string[]> }): void {
  const original = event.headers?.[ORIGINAL_CONTENT_TYPE];
  if (original === undefined) return;
  event.headers!['content-type'] = original;
  delete event.headers![ORIGINAL_CONTENT_TYPE];
  if (event.multiValueHeaders) {
    event.multiValueHeaders['content-type'] = [original];
    delete event.multiValueHeaders[ORIGINAL_CONTENT_TYPE];
  }
}
