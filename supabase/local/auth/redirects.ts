/**
 * Where Auth may send a browser after a link (`redirect_to`): the verify link carries a fresh session in the
 * redirect's URL fragment, so an open redirect here hands an account to whoever chose the target.
 *
 * A target is allowed when it parses as an http(s) URL whose origin (scheme, host, port) is the origin of
 * SITE_URL or of an entry in additional_redirect_urls, compared as parsed origins and never as string
 * prefixes: `http://localhost:8888.evil.test/` and `http://localhost:8888@evil.test` both start with
 * `http://localhost:8888` but lead elsewhere. Anything else, unparseable and non-http(s) targets included,
 * falls back to SITE_URL, as GoTrue does with a target it refuses.
 *
 * GoTrue itself also accepts glob patterns in additional_redirect_urls (`https://*.example.com/**`) and
 * lets any port through on loopback hosts. The local backend needs only origins: entries with glob
 * characters (meant for a hosted project's preview deploys) are skipped, and the rule here is the stricter one.
 */

/** The origins of the allowed redirect entries (SITE_URL first), skipping globs and unparseable entries. */
export function redirectOrigins(siteUrl: string, additionalRedirectUrls: string[]): Set<string> {
  const origins = new Set<string>();
  for (const entry of [siteUrl, ...additionalRedirectUrls]) {
    if (/[*?[\]{}]/.test(entry)) continue;
    const origin = httpOrigin(entry);
    if (origin) origins.add(origin);
  }
  return origins;
}

/** The requested target when its origin is allowed, else SITE_URL. */
export function redirectTarget(requested: string | undefined, siteUrl: string, origins: Set<string>): string {
  if (!requested) return siteUrl;
  const origin = httpOrigin(requested);
  return origin !== undefined && origins.has(origin) ? requested : siteUrl;
}

/** The origin of an absolute http(s) URL, or undefined. */
function httpOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
}
