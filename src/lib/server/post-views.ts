/**
 * Real view counts: which requests count and the one call that counts them. The rule itself lives in SQL
 * (`count_post_view`, migrations 20261123007100_post_views.sql and 20261125000200_one_view_per_address.sql),
 * atomically:
 *
 * 1. The post must be a published post of the site's own organization (never one the request names).
 * 2. The visitor is its address: sha256(today's random salt, address, organization). The user agent plays no
 *    part, so a client that changes its browser name is still one visitor. An IPv6 address counts by its /64
 *    network (the block one subscriber gets, and can rotate through at will). The salt lives one UTC day in
 *    the database and is then deleted, so no hash can be traced back or linked across days. No cookie is set
 *    and no address is stored.
 * 3. Over ADDRESS_HOURLY_LIMIT requests of an address in the current hour: refused, nothing written.
 * 4. An address counts once per post per day: the day count and blog_posts.view_count go up by one together.
 *    (Readers behind one shared address, an office or a mobile carrier's NAT, count as one: the price of a
 *    count nobody can inflate.)
 *
 * Bots and prefetches are skipped here, before the database is asked (`skipReason`).
 */
import { isIP } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import ipaddr from 'ipaddr.js';

/** Requests from one address per hour, across posts (each post still counts once a day per address). */
export const ADDRESS_HOURLY_LIMIT = 600;

/**
 * User agents that are not people reading, as a short list of fragments (case-insensitive):
 * - crawlers and spiders: `bot` (Googlebot, bingbot, AhrefsBot; not the Cubot phones), `crawl`, `spider`,
 *   `slurp` (Yahoo);
 * - headless and audit browsers: `headless` (HeadlessChrome), `lighthouse`, `pagespeed`, `ptst` (WebPageTest);
 * - link-preview fetchers of chat and social apps: `preview`, `facebookexternalhit`, `embedly`, `whatsapp`;
 * - HTTP libraries: curl, wget, python-requests / urllib, Go, node-fetch, axios, okhttp, Java.
 * A missing user agent counts as a bot too.
 */
export const BOT_USER_AGENT =
  /(?<!cu)bot|crawl|spider|slurp|headless|lighthouse|pagespeed|ptst|preview|facebookexternalhit|embedly|whatsapp|curl\/|wget\/|python-requests|python-urllib|go-http-client|node-fetch|axios\/|okhttp|java\//i;

/** Why a request is not counted at all: a bot, or a page loaded ahead of a visit (prefetch or prerender). */
export type SkipReason = 'bot' | 'prefetch';

/**
 * Prefetch and prerender requests say so: `Sec-Purpose: prefetch` or `prefetch;prerender` (Chromium's
 * speculation rules), `Purpose: prefetch` (older Chromium, Safari) and `X-Moz: prefetch` (Firefox). The page
 * script also waits for a prerendered page to be shown (`document.prerendering`).
 */
export function skipReason(headers: Headers): SkipReason | null {
  const purpose = `${headers.get('sec-purpose') ?? ''} ${headers.get('purpose') ?? ''} ${headers.get('x-moz') ?? ''}`;
  if (/prefetch|prerender/i.test(purpose)) return 'prefetch';
  const userAgent = headers.get('user-agent')?.trim() ?? '';
  if (!userAgent || BOT_USER_AGENT.test(userAgent)) return 'bot';
  return null;
}

/**
 * The request's visitor address, as the count keys it. The address is the function context's `ip`
 * (Netlify's view of the connection), else `x-nf-client-connection-ip`, which Netlify's edge sets; never
 * `x-forwarded-for`, whose first entry the client writes. An IPv4-mapped IPv6 address is its IPv4 address;
 * another IPv6 address is cut to its /64 network (`2001:db8:1:2::/64`). Without an address (a local server
 * that gives none), all such requests share the address `unknown`.
 */
export function visitorAddress(headers: Headers, contextIp?: string | null): string {
  const ip = [contextIp, headers.get('x-nf-client-connection-ip')].map((value) => value?.trim() ?? '').find((value) => isIP(value) !== 0);
  return ip ? addressKey(ip) : 'unknown';
}

/** An IPv4 address as it is; an IPv6 one as its /64 network (or the IPv4 address it maps). */
export function addressKey(ip: string): string {
  const parsed = ipaddr.process(ip);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const groups = (parsed as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${groups.join(':')}::/64`;
}

/** What counting a view did. Only 'counted' changed a count. */
export type ViewOutcome = 'counted' | 'duplicate' | 'not_found' | 'rate_limited';

/** Counts one view of `postId` on the site of `organizationId` from `address` (service-role client). */
export async function countPostView(service: SupabaseClient, organizationId: string, postId: string, address: string): Promise<ViewOutcome> {
  const { data, error } = await service.rpc('count_post_view', {
    p_organization_id: organizationId,
    p_post_id: postId,
    p_address: address,
    p_address_limit: ADDRESS_HOURLY_LIMIT,
  });
  if (error) throw new Error(`Counting a view of post ${postId} failed: ${error.message}`);
  return data as ViewOutcome;
}
