/**
 * Which built pages the sitemap lists: only pages search engines may index. Not the pages marked noindex
 * (legal pages, sign-in, the back office, the writing-tool guide, search, the newsletter's answer pages,
 * not-found and moved pages), nor tag
 * pages (thin lists that repeat the category pages). A build test holds every built page's robots meta
 * against this list; robots.txt (src/pages/robots.txt.ts) names the sitemap and keeps crawlers out of
 * /admin and /auth.
 */

/** Paths (no trailing slash) and path prefixes left out of the sitemap. */
const EXCLUDED_PATHS = new Set(['/privacy', '/terms', '/404', '/service-not-found', '/post-not-found', '/blog/search', '/auth', '/admin']);
const EXCLUDED_PREFIXES = ['/blog/tag/', '/admin/', '/docs/', '/newsletter/'];

/** Does the page at `url` belong in the sitemap? `movedPaths` are the old addresses of moved posts. */
export function inSitemap(url: string, movedPaths: ReadonlySet<string> = new Set()): boolean {
  const path = new URL(url).pathname.replace(/(.)\/$/, '$1');
  if (EXCLUDED_PATHS.has(path) || movedPaths.has(path)) return false;
  return !EXCLUDED_PREFIXES.some((prefix) => `${path}/`.startsWith(prefix));
}

/** A page URL as the site links it and names it canonical: no trailing slash except for the home page. */
export function withoutTrailingSlash(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = parsed.pathname.replace(/(.)\/$/, '$1');
  return parsed.href;
}
