/**
 * Real view counts: which requests count and the one call that counts them. The rule itself lives in SQL
 * (`count_post_view`, migration 20261123007100_post_views.sql), atomically:
 *
 * 1. The post must be a published post of the site's own organization (never one the request names).
 * 2. The visitor is sha256(today's random salt, address, user agent, organization); the salt lives one UTC
 *    day in the database and is then deleted, so no hash can be traced back or linked across days. No
 *    cookie is set and no address or user agent is stored.
 * 3. Over VISITOR_HOURLY_LIMIT requests of a visitor, or ADDRESS_HOURLY_LIMIT of an address, in the current
 *    hour: refused, nothing written.
 * 4. A visitor counts once per post per day: the day count and blog_posts.view_count go up by one together.
 *
 * Bots and prefetches are skipped here, before the database is asked (`skipReason`).
 */
import { isIP } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';

/** Requests of one visitor (address and user agent) per hour, across posts. */
export const VISITOR_HOURLY_LIMIT = 60;
/** Requests from one address per hour, whatever the user agents (an office behind one address reads a lot). */
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

/** The visitor as the hash sees it: an address the client cannot choose, and its user agent (trimmed). */
export interface Visitor {
  ip: string;
  userAgent: string;
}

/**
 * The request's visitor. The address is the function context's `ip` (Netlify's view of the connection),
 * else `x-nf-client-connection-ip`, which Netlify's edge sets; never `x-forwarded-for`, whose first entry the
 * client writes. Without one (a local server that gives none), all such requests share the address
 * `unknown` and are told apart by user agent only. The user agent is cut at 512 characters.
 */
export function visitorFrom(headers: Headers, contextIp?: string | null): Visitor {
  const ip = [contextIp, headers.get('x-nf-client-connection-ip')].map((value) => value?.trim() ?? '').find((value) => isIP(value) !== 0);
  return { ip: ip ?? 'unknown', userAgent: (headers.get('user-agent') ?? '').trim().slice(0, 512) };
}

/** What counting a view did. Only 'counted' changed a count. */
export type ViewOutcome = 'counted' | 'duplicate' | 'not_found' | 'rate_limited';

/** Counts one view of `postId` on the site of `organizationId` (service-role client). */
export async function countPostView(
  service: SupabaseClient,
  organizationId: string,
  postId: string,
  visitor: Visitor,
): Promise<ViewOutcome> {
  const { data, error } = await service.rpc('count_post_view', {
    p_organization_id: organizationId,
    p_post_id: postId,
    p_ip: visitor.ip,
    p_user_agent: visitor.userAgent,
    p_visitor_limit: VISITOR_HOURLY_LIMIT,
    p_address_limit: ADDRESS_HOURLY_LIMIT,
  });
  if (error) throw new Error(`Counting a view of post ${postId} failed: ${error.message}`);
  return data as ViewOutcome;
}
