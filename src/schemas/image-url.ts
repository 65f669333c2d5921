/**
 * Which image addresses a post or an author may keep (`blog_posts.featured_image_url`, `profiles.avatar_url`):
 * the build downloads them, so only what a public web server would serve. Either a file of the Media Library
 * (`…/storage/v1/object/public/media/<organization id>/<file>`; the build fetches it only from its own
 * backend), or an https address of a public host name: no IP address, no local name (`localhost`, `.local`,
 * `.internal`, `.lan`, `.home.arpa`, a name without a dot), no port, no user name or password. The build
 * checks again when it downloads (src/lib/site/post-images.ts, through src/lib/server/public-fetch.ts), where every
 * address the name resolves to must be public. The database holds the same rule
 * (`private.image_url_problem`, migration 20261125000400_image_addresses.sql).
 */

/** The path of a Media Library file in a Storage URL. */
export const LIBRARY_FILE_PATH = /^\/storage\/v1\/object\/public\/media\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[^/]+$/;

const LOCAL_NAME = /(^|\.)(localhost|local|internal|lan|home\.arpa)$/;

/** Why an image address cannot be kept, in words for the person who typed it; null when it can. */
export function imageUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'Enter a full URL starting with https://';
  }
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || value.length > 2048) return 'Enter a full URL starting with https://';
  if ((url.protocol === 'https:' || url.protocol === 'http:') && LIBRARY_FILE_PATH.test(url.pathname) && !url.username && !url.password && !url.search) return null;
  if (url.protocol !== 'https:') return 'An image address must start with https:// (or be a file of the Media Library)';
  if (url.username || url.password) return 'An image address cannot contain a user name or password';
  const host = url.hostname.toLowerCase();
  if (host.startsWith('[') || /^[\d.]+$/.test(host) || /^0x/i.test(host)) return 'An image address must name a public host, not an IP address';
  if (url.port) return 'An image address cannot name a port';
  if (!host.includes('.') || LOCAL_NAME.test(host.replace(/\.$/, ''))) return 'An image address must name a public host';
  return null;
}
