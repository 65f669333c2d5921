/**
 * Storing one writing-tool delivery for an organization: sanitize the article, upsert the post with its
 * delivery record (`upsert_webhook_post`, one transaction) and request a rebuild when it is published.
 * Shared by the public webhook (token in the URL) and the back office's test form (admin verified), so a
 * test delivery takes exactly the path a real one takes.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { marked } from 'marked';
import { readingTimeMinutes } from '../../../src/lib/reading-time.ts';
import { sanitizeArticleHtml } from '../../../src/lib/sanitize-html.ts';
import { postSlug, slugify } from '../../../src/lib/slug.ts';
import type { WebhookPayload } from '../../../src/schemas/webhook.ts';
import { HttpError } from './http.ts';
import { requestRebuild } from './rebuilds.ts';

/** The organization a delivery is for. */
export type DeliveryOrganization = { id: string; slug: string; domain: string | null };

/** The stored post: `created` is false when an earlier delivery with the same slug was updated. */
export type DeliveredPost = { post_id: string; status: string; url: string; created: boolean };

/** A refused delivery: an HttpError that also lists what was wrong (the 422 field problems). */
export class DeliveryProblem extends HttpError {
  readonly details: unknown;
  constructor(status: number, text: string, details?: unknown) {
    super(status, text);
    this.details = details;
  }
}

type UpsertedPost = { post_id: string; post_status: string; post_slug: string; created: boolean };

/**
 * Stores a validated payload as the organization's post. Throws DeliveryProblem for content refused, and
 * records every failure in webhook_deliveries (the success is recorded by the upsert itself).
 */
export async function deliverWebhookPost(client: SupabaseClient, org: DeliveryOrganization, payload: WebhookPayload): Promise<DeliveredPost> {
  const slug = postSlug(payload.title, payload.slug);
  try {
    const post = await upsertPost(client, org, slug, payload);
    if (post.post_status === 'published') await requestRebuildLogged(client, org, post.created ? 'post published by webhook' : 'post updated by webhook');
    return { post_id: post.post_id, status: post.post_status, url: postUrl(org, post.post_slug), created: post.created };
  } catch (error) {
    const failure = asDeliveryProblem(error);
    if (failure.status === 500) console.error(`webhook delivery (${org.slug}):`, error);
    await recordFailedDelivery(client, org, failure, slug);
    throw failure;
  }
}

/** Any error as a DeliveryProblem (unexpected ones become 500 'Could not store the post: ...'). */
export function asDeliveryProblem(error: unknown): DeliveryProblem {
  if (error instanceof DeliveryProblem) return error;
  if (error instanceof HttpError) return new DeliveryProblem(error.status, error.message);
  return new DeliveryProblem(500, `Could not store the post: ${(error as Error).message}`);
}

/** Writes a refused or failed delivery into the organization's delivery log. */
export async function recordFailedDelivery(client: SupabaseClient, org: DeliveryOrganization, failure: DeliveryProblem, slug?: string): Promise<void> {
  const detail = failure.details === undefined ? '' : ` ${JSON.stringify(failure.details)}`;
  const { error } = await client.from('webhook_deliveries').insert({
    organization_id: org.id,
    status_code: failure.status,
    slug: slug ?? null,
    error: `${failure.message}${detail}`.slice(0, 2000),
  });
  if (error) console.error(`webhook delivery (${org.slug}): could not record the failed delivery: ${error.message}`);
}

/** The sanitized article HTML: the html field, else the rendered markdown. */
function articleHtml(payload: WebhookPayload): string {
  const html = payload.html?.trim() ? payload.html : (marked.parse(payload.markdown ?? '', { async: false }) as string);
  const clean = sanitizeArticleHtml(html);
  if (!clean) throw new DeliveryProblem(422, 'Invalid payload', [{ path: 'html', message: 'No content is left after removing unsafe markup' }]);
  return clean;
}

async function upsertPost(client: SupabaseClient, org: DeliveryOrganization, slug: string, payload: WebhookPayload): Promise<UpsertedPost> {
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
async function requestRebuildLogged(client: SupabaseClient, org: DeliveryOrganization, reason: string): Promise<void> {
  try {
    await requestRebuild(client, org, reason);
  } catch (error) {
    console.error(`webhook delivery (${org.slug}): ${(error as Error).message}`);
  }
}

/** The public URL of a post: on the organization's domain when it has one, else site-relative. */
function postUrl(org: DeliveryOrganization, slug: string): string {
  return org.domain ? `https://${org.domain}/blog/${slug}` : `/blog/${slug}`;
}
