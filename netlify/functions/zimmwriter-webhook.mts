import type { Config } from '@netlify/functions';
import type { SupabaseClient } from '@supabase/supabase-js';
import { marked } from 'marked';
import { z } from 'zod';
import { readingTimeMinutes } from '../../src/lib/reading-time.ts';
import { sanitizeArticleHtml } from '../../src/lib/sanitize-html.ts';
import { postSlug, slugify } from '../../src/lib/slug.ts';
import { WebhookPayloadSchema, type WebhookPayload } from '../../src/schemas/webhook.ts';
import { HttpError, readJson } from './_shared/http.ts';
import { requestRebuild } from './_shared/rebuilds.ts';
import { serviceClient } from './_shared/supabase.ts';

/** Netlify's own limit for a synchronous function's request body. */
export const MAX_BODY_BYTES = 6_000_000;

type Organization = { id: string; slug: string; domain: string | null };

/** A refused delivery: an HttpError that also lists what was wrong (the 422 field problems). */
class DeliveryProblem extends HttpError {
  readonly details: unknown;
  constructor(status: number, text: string, details?: unknown) {
    super(status, text);
    this.details = details;
  }
}

/** The functions' JSON answer `{ message }`, with `details` when there are any. */
function answer(status: number, text: string, details?: unknown, headers?: HeadersInit): Response {
  return Response.json(details === undefined ? { message: text } : { message: text, details }, { status, headers });
}
type UpsertedPost = { post_id: string; post_status: string; post_slug: string; created: boolean };

/**
 * POST /api/webhooks/zimmwriter/{token}: the writing tool delivers a finished article. The token names the
 * organization; the post is created or, for a slug seen before, updated (201 / 200 with
 * `{ post_id, status, url }`); a published post requests a rebuild of the site. Every delivery of a known
 * organization is recorded in webhook_deliveries, failures included.
 */
export default async (req: Request): Promise<Response> => {
  if (req.method !== 'POST') return answer(405, `Method ${req.method} not allowed: deliveries are POSTed`, undefined, { Allow: 'POST' });
  const client = webhookClient();
  const org = await organizationForToken(client, tokenFrom(req));
  if (!org) return answer(404, 'Unknown webhook token');
  let slug: string | undefined;
  try {
    const payload = WebhookPayloadSchema.safeParse(await readJson(req, { maxBytes: MAX_BODY_BYTES }));
    if (!payload.success) throw new DeliveryProblem(422, 'Invalid payload', problemsOf(payload.error));
    slug = postSlug(payload.data.title, payload.data.slug);
    const post = await upsertPost(client, org, slug, payload.data);
    if (post.post_status === 'published') await requestRebuildLogged(client, org, post.created ? 'post published by webhook' : 'post updated by webhook');
    return Response.json(
      { post_id: post.post_id, status: post.post_status, url: postUrl(org, post.post_slug) },
      { status: post.created ? 201 : 200 },
    );
  } catch (error) {
    const failure =
      error instanceof DeliveryProblem ? error
      : error instanceof HttpError ? new DeliveryProblem(error.status, error.message)
      : new DeliveryProblem(500, `Could not store the post: ${(error as Error).message}`);
    if (failure.status === 500) console.error(`zimmwriter-webhook (${org.slug}):`, error);
    await recordFailedDelivery(client, org, failure, slug);
    return answer(failure.status, failure.message, failure.details);
  }
};

export const config: Config = { path: '/api/webhooks/zimmwriter/:token' };

// One client per warm function instance: supabase-js keeps no session, so deliveries can share it.
let cachedClient: SupabaseClient | undefined;
function webhookClient(): SupabaseClient {
  cachedClient ??= serviceClient();
  return cachedClient;
}

/** The token is the last path segment; its hash is looked up (so no comparison leaks how close a guess was). */
function tokenFrom(req: Request): string {
  return decodeURIComponent(new URL(req.url).pathname.split('/').filter(Boolean).at(-1) ?? '');
}

/**
 * The organization of a token (current, or previous within its 24 h grace). Known and unknown tokens take
 * the same path: one SHA-256 in Postgres and a unique-index lookup of the hash.
 */
async function organizationForToken(client: SupabaseClient, token: string): Promise<Organization | null> {
  if (token.length < 16 || token.length > 200) return null;
  const { data: id, error } = await client.rpc('organization_for_webhook_token', { p_token: token });
  if (error) throw new Error(`Token lookup failed: ${error.message}`);
  if (!id) return null;
  const { data, error: orgError } = await client.from('organizations').select('id, slug, domain').eq('id', id).single();
  if (orgError) throw new Error(`Organization ${id} lookup failed: ${orgError.message}`);
  return data as Organization;
}

/** The sanitized article HTML: the html field, else the rendered markdown. */
function articleHtml(payload: WebhookPayload): string {
  const html = payload.html?.trim() ? payload.html : (marked.parse(payload.markdown ?? '', { async: false }) as string);
  const clean = sanitizeArticleHtml(html);
  if (!clean) throw new DeliveryProblem(422, 'Invalid payload', [{ path: 'html', message: 'No content is left after removing unsafe markup' }]);
  return clean;
}

async function upsertPost(client: SupabaseClient, org: Organization, slug: string, payload: WebhookPayload): Promise<UpsertedPost> {
  const content = articleHtml(payload);
  const { data, error } = await client
    .rpc('upsert_webhook_post', {
      p_organization_id: org.id,
      p_slug: slug,
      p_title: payload.title,
      p_content: content,
      p_excerpt: payload.excerpt ?? null,
      p_category_name: payload.category ?? null,
      p_category_slug: payload.category ? slugify(payload.category) || `category-${slug}` : null,
      p_tags: payload.tags?.length ? payload.tags : null,
      p_featured_image_url: payload.image_url ?? null,
      p_reading_time: readingTimeMinutes(content),
      p_note: payload.image_base64 ? 'image_base64 ignored: inline images are not stored, send image_url' : null,
    })
    .single();
  if (error) throw new Error(error.message);
  return data as UpsertedPost;
}

/** The post is stored whatever happens to the rebuild request: its failure is logged, not answered. */
async function requestRebuildLogged(client: SupabaseClient, org: Organization, reason: string): Promise<void> {
  try {
    await requestRebuild(client, org, reason);
  } catch (error) {
    console.error(`zimmwriter-webhook (${org.slug}): ${(error as Error).message}`);
  }
}

async function recordFailedDelivery(client: SupabaseClient, org: Organization, failure: DeliveryProblem, slug?: string): Promise<void> {
  const detail = failure.details === undefined ? '' : ` ${JSON.stringify(failure.details)}`;
  const { error } = await client.from('webhook_deliveries').insert({
    organization_id: org.id,
    status_code: failure.status,
    slug: slug ?? null,
    error: `${failure.message}${detail}`.slice(0, 2000),
  });
  if (error) console.error(`zimmwriter-webhook (${org.slug}): could not record the failed delivery: ${error.message}`);
}

/** Zod issues as `{ path, message }` pairs, e.g. `{ path: 'title', message: 'Title is required' }`. */
function problemsOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message }));
}

/** The public URL of a post: on the organization's domain when it has one, else site-relative. */
function postUrl(org: Organization, slug: string): string {
  return org.domain ? `https://${org.domain}/blog/${slug}` : `/blog/${slug}`;
}
