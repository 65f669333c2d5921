/**
 * What Netlify's CDN does for a site's built assets, in front of `netlify serve`: Astro names every file of
 * `_astro/` by a hash of its content, so the answer netlify-cli gave for one (status, headers and bytes) is kept
 * and given again to the next request for it, while that same file is still the one served. netlify-cli spends
 * about 7 ms of CPU on each static file it serves (its routing, header rules and static server); a page of the
 * back office loads some forty such files, so on the two cores the browser suite shares with the browser, the
 * functions and Postgres, that was the served site's largest cost.
 *
 * A kept answer is given only while the file on disk is the one it was read from (same inode, size and mtime):
 * a build swaps in a new `dist/` (netlify/local/site-build.ts), and from then on every asset goes to
 * netlify-cli again, as a new deploy is served afresh. Only GETs of `/_astro/` are kept, per Accept-Encoding; a
 * browser revalidating one it has (If-None-Match naming the kept ETag) is told 304 Not Modified, as a CDN tells it.
 * Anything else, and every answer but a 200, goes through untouched.
 */
import { statSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';

/** An answer netlify-cli gave, kept with the identity of the file it was read from. */
interface Kept { file: string; status: number; message: string | undefined; headers: IncomingHttpHeaders; body: Buffer }

/** Kept answers stop being added past this many bytes (the built assets are a few megabytes). */
const MAX_BYTES = 64 * 1024 * 1024;

export interface AssetCache {
  /** Answers the request from a kept answer; false when it must go upstream. */
  answer(req: IncomingMessage, res: ServerResponse): boolean;
  /** Keeps what upstream answered to this request (chunks as they were sent on), when it may be kept. */
  keep(req: IncomingMessage, status: number, message: string | undefined, headers: IncomingHttpHeaders, body: Buffer): void;
  /** Whether the answer to this request should be collected for `keep`. */
  wants(req: IncomingMessage): boolean;
}

/** A cache of the `_astro/` answers of the site served from `dist`. */
export function createAssetCache(dist: string): AssetCache {
  const kept = new Map<string, Kept>();
  let bytes = 0;
  const pathOf = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://local').pathname;
  const keyOf = (req: IncomingMessage) => `${req.url}\n${req.headers['accept-encoding'] ?? ''}`;
  /** The served file's identity, or null when there is none (then nothing is kept or given). */
  const fileIdentity = (req: IncomingMessage): string | null => {
    try {
      const stats = statSync(join(dist, decodeURIComponent(pathOf(req))));
      return stats.isFile() ? `${stats.ino}:${stats.size}:${stats.mtimeMs}` : null;
    } catch {
      return null;
    }
  };
  const wants = (req: IncomingMessage) => req.method === 'GET' && pathOf(req).startsWith('/_astro/') && !req.headers['if-modified-since'] && !req.headers.range;
  /** Whether the request's If-None-Match names the kept answer's ETag (compared weakly, RFC 9110 13.1.2). */
  const notModified = (req: IncomingMessage, entry: Kept) => {
    const etag = entry.headers.etag?.replace(/^W\//, '');
    const asked = req.headers['if-none-match'];
    return etag !== undefined && asked !== undefined && asked.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  };
  return {
    wants,
    answer(req, res) {
      if (!wants(req)) return false;
      const key = keyOf(req);
      const entry = kept.get(key);
      if (!entry || (req.headers['if-none-match'] && !notModified(req, entry))) return false;
      if (entry.file !== fileIdentity(req)) {
        kept.delete(key);
        bytes -= entry.body.length;
        return false;
      }
      if (req.headers['if-none-match']) {
        const headers = Object.fromEntries(Object.entries(entry.headers).filter(([name]) => name !== 'content-length' && name !== 'content-type'));
        res.writeHead(304, 'Not Modified', headers).end();
      } else {
        res.writeHead(entry.status, entry.message, entry.headers).end(entry.body);
      }
      return true;
    },
    keep(req, status, message, headers, body) {
      const file = fileIdentity(req);
      if (req.headers['if-none-match'] || status !== 200 || !file || bytes + body.length > MAX_BYTES) return;
      const key = keyOf(req);
      bytes += body.length - (kept.get(key)?.body.length ?? 0);
      kept.set(key, { file, status, message, headers, body });
    },
  };
}
