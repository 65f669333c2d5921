/**
 * Receiving one writing-tool delivery for an organization: the webhook's side of the one arrival path
 * (post-arrival.ts). The public webhook first asks who the token belongs to (`webhookOrganizationId`: one
 * lookup, nothing written) and reads the body only for a known token. A delivery is then translated into an
 * ArrivingPost (`deliveryPost`: the Markdown wins over the HTML, the slug normalized or derived from the
 * title), its featured image (image_base64, else image_url) is stored in the organization's Media Library
 * (webhook-images.ts; a bad one is only noted), and it takes the arrival's two steps; the stored post is
 * translated back (its address, the category as sent and as landed, when a scheduled post goes out). The back
 * office's test (`previewDelivery`) takes the same first step, then asks `preview_webhook_delivery` what the
 * store would do, and writes nothing: a test refuses exactly what a real delivery refuses.
 */
import { createHash } from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import type { SupabaseClient } from '@supabase/supabase-js';
import { postPath } from '../blog-urls.ts';
import { postSlug } from '../slug.ts';
import type { WebhookPayload } from '../../schemas/webhook.ts';
import { InternalError } from './http.ts';
import { organizationSiteAddress } from './site-address.ts';
import type { FetchPolicy } from '../public-fetch.ts';
import {
  arrivalFields,
  type WholePost,
  DeliveryProblem,
  type FoundDuplicate,
  type PostFields,
  storeArrival,
  type StoredCategory,
} from './post-arrival.ts';
import { deliveryImage, ImageNotSaved } from './webhook-images.ts';

/**
 * Whose delivery it is: the webhook's token (with the organization it was found to belong to, when the caller
 * looked it up already), or an organization the caller has already authorized (the back office's test).
 */
export type DeliverySource = { token: string; organizationId?: string } | { organizationId: string };

/**
 * What arrived: a validated payload, or the reason the function refused the request (400, 413, 422) with the
 * webhook's name when the refused body still carried a valid one (the delivery log shows which webhook sent it).
 */
export type Delivery = { payload: WebhookPayload } | { refused: DeliveryProblem; webhookName?: string };

/**
 * The stored post: `created` is false when an earlier delivery with the same slug was updated;
 * `duplicate_of` names the post a new article likely repeats (it was then saved as a draft, marked).
 */
export type DeliveredPost = {
  /** True when this was the same delivery again: the first one's outcome, nothing written this time. */
  replayed?: true;
  post_id: string;
  status: string;
  url: string;
  created: boolean;
  duplicate_of?: DuplicateOf;
  category: DeliveredCategory;
  /** For a post stored as scheduled (the queue's slot, or a scheduled post updated): when it goes out. */
  scheduled_for?: ScheduledFor;
};

/**
 * When a scheduled post goes out: the instant in UTC, the same instant as a wall time of the organization's
 * zone (its publishing queue's, with the offset), that zone, and whether the publishing queue chose the slot.
 */
export type ScheduledFor = { utc: string; local: string; time_zone: string; queued: boolean };

/**
 * The category a delivery's post landed in: `sent` is the name the tool sent (null: none, the default
 * category); `mapped` when that name was taken to mean an existing category spelled otherwise; `created` when
 * no category matched and the delivery created it; `needs_review` while the category waits for an editor's
 * approval (visitors do not see it until then).
 */
export type DeliveredCategory = { name: string; sent: string | null; mapped: boolean; created: boolean; needs_review: boolean };

/** The post a delivery likely repeats, and why the gate thinks so ('same title', 'similar text, 87%'). */
export type DuplicateOf = { post_id: string; title: string; url: string; reason: string };

/**
 * The organization a webhook token belongs to (its current token, or the previous one within the grace
 * period), or null. One lookup of the token's hash in Postgres, the same for every unknown token; nothing
 * is written. Throws InternalError when the database cannot answer.
 */
export async function webhookOrganizationId(client: SupabaseClient, token: string): Promise<string | null> {
  const { data, error } = await client.rpc('organization_for_webhook_token', { p_token: token });
  if (error) throw new InternalError(`organization_for_webhook_token failed: ${error.message}`);
  return (data as string | null) ?? null;
}

/**
 * Stores a delivery and records it in the organization's delivery log. Returns null when the token (or
 * organization) is unknown: nothing is written then. Throws DeliveryProblem for a refused delivery (after
 * recording it), and InternalError for a post that could not be stored (recorded with the error's
 * reference when the database got that far): its text is for the log, never for the caller.
 */
export async function receiveDelivery(
  client: SupabaseClient,
  source: DeliverySource,
  delivery: Delivery,
  env: Record<string, string | undefined> = process.env,
  imagePolicy?: FetchPolicy,
): Promise<DeliveredPost | null> {
  if ('refused' in delivery) {
    return storeArrival(client, source, { refused: delivery.refused, slug: null }, { webhookName: delivery.webhookName }, env).then(() => null);
  }
  const { payload } = delivery;
  const post = deliveryPost(payload);
  let fields: PostFields;
  let image: FeaturedImage = { image: 'none' };
  let organizationId: string | null;
  try {
    organizationId = source.organizationId ?? ('token' in source ? await webhookOrganizationId(client, source.token) : null);
    if (organizationId) image = await featuredImage(client, organizationId, payload, post.slug, imagePolicy);
    // A delivery without an image keeps the post's.
    fields = await arrivalFields(client, organizationId, { ...post, featuredMediaId: image.mediaId ?? undefined });
  } catch (error) {
    // An image that could not be saved stores nothing, not even the delivery record: the tool sends it again.
    if (error instanceof ImageNotSaved) throw new InternalError(error.message);
    const refused = error instanceof DeliveryProblem ? error : new InternalError(`preparing the post failed: ${(error as Error).message}`);
    return storeArrival(client, source, { refused, slug: post.slug }, { webhookName: payload.webhook_name }, env).then(() => null);
  }
  const record = { webhookName: payload.webhook_name, note: image.note, image: image.image, idempotencyKey: deliveryKey(payload) };
  const stored = await storeArrival(client, source, { fields }, record, env);
  if (!stored) return null;
  const { post: saved } = stored;
  // The site's address as every link to it is made (the WordPress API's too): a stored post has its organization.
  const address = await organizationSiteAddress(client, organizationId!, env);
  return {
    ...(stored.replayed ? { replayed: true as const } : {}),
    post_id: saved.id,
    status: saved.status,
    url: postUrl(address, saved.slug),
    created: saved.created,
    ...(saved.duplicate_of ? { duplicate_of: duplicateOf(address, saved.duplicate_of) } : {}),
    category: deliveredCategory(payload.category ?? null, saved.category),
    ...(saved.status === 'scheduled' ? { scheduled_for: await scheduledFor(client, saved.id) } : {}),
  };
}

/** When a stored scheduled post goes out (one read, only for scheduled posts: the queue's slot as it stands now). */
async function scheduledFor(client: SupabaseClient, postId: string): Promise<ScheduledFor> {
  const { data, error } = await client
    .from('blog_posts')
    .select('published_at, queued, organization:organizations(queue:publishing_queues(time_zone))')
    .eq('id', postId)
    .single();
  if (error) throw new InternalError(`reading when post ${postId} goes out failed: ${error.message}`);
  const row = data as unknown as { published_at: string; queued: boolean; organization: { queue: { time_zone: string } | null } };
  const timeZone = row.organization.queue?.time_zone ?? 'UTC';
  const at = new Date(row.published_at);
  return { utc: at.toISOString(), local: new TZDate(at, timeZone).toISOString(), time_zone: timeZone, queued: row.queued };
}

/**
 * A payload's idempotency key: the SHA-256 of its canonical JSON (object keys sorted), so the same delivery
 * sent again (the tool retrying after a timeout, a 503 or a dropped connection) is recognised whatever the
 * order or spacing of its fields, and any changed field makes it a new delivery.
 */
export function deliveryKey(payload: WebhookPayload): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, item]) => [key, canonical(item)]))
        : value;
  return createHash('sha256').update(JSON.stringify(canonical(payload))).digest('hex');
}

/** The stored category with what was sent: mapped when the tool's name differs from the category's. */
function deliveredCategory(sent: string | null, { name, created, needs_review }: StoredCategory): DeliveredCategory {
  return { name, sent, mapped: sent !== null && !created && name !== sent, created, needs_review };
}

function duplicateOf(address: string, found: FoundDuplicate): DuplicateOf {
  return { post_id: found.id, title: found.title, url: postUrl(address, found.slug), reason: found.reason };
}

/** A delivery's featured image: the media it was stored as, the delivery log's note, the outcome. */
type FeaturedImage = { mediaId?: string | null; note?: string | null; image: 'stored' | 'none' | 'failed' };

/**
 * The delivery's featured image, stored in the organization's media (webhook-images.ts): its media id, and
 * the delivery log's note about an image that was not taken.
 */
async function featuredImage(
  client: SupabaseClient,
  organizationId: string,
  payload: WebhookPayload,
  slug: string,
  policy: FetchPolicy | undefined,
): Promise<FeaturedImage> {
  if (!payload.image_base64 && !payload.image_url) return { image: 'none' };
  const stored = await deliveryImage(client, organizationId, payload, { slug, title: payload.title }, policy);
  return { mediaId: stored.mediaId, note: stored.note, image: stored.mediaId ? 'stored' : 'failed' };
}

/**
 * A delivery as an arriving post: the Markdown when it was sent (it is what the author wrote; the HTML is
 * derived from it), else the HTML; the slug normalized, else derived from the title (same slug = same post).
 */
export function deliveryPost(payload: WebhookPayload): WholePost {
  const markdown = payload.markdown?.trim() ? payload.markdown : undefined;
  return {
    title: payload.title,
    body: markdown !== undefined ? { text: markdown, format: 'markdown', field: 'markdown' } : { text: payload.html ?? '', format: 'html', field: 'html' },
    excerpt: payload.excerpt ?? null,
    slug: postSlug(payload.title, payload.slug),
    category: payload.category ?? null,
    tags: payload.tags ?? null,
    // A delivery without them keeps the post's SEO title and description (and image: deliver() adds a stored one).
    metaTitle: payload.meta_title,
    metaDescription: payload.meta_description,
  };
}

/**
 * What a delivery of `payload` would do for the organization, written nowhere: the payload takes the real
 * delivery's first step (arrivalFields: throws DeliveryProblem for what a delivery refuses), then
 * `preview_webhook_delivery` answers by the rules `private.store_arrived_post` follows. Null for an unknown
 * organization. Throws InternalError when the database cannot answer.
 */
export async function previewDelivery(client: SupabaseClient, organizationId: string, payload: WebhookPayload): Promise<DeliveryPreview | null> {
  const fields = await arrivalFields(client, organizationId, deliveryPost(payload));
  const slug = fields.slug!;
  const { data, error } = await client.rpc('preview_webhook_delivery', {
    p_organization_id: organizationId,
    p_slug: slug,
    p_title: fields.title,
    p_content: fields.content,
    p_category_name: fields.category_name ?? null,
    p_category_slug: fields.category_slug ?? null,
  });
  if (error) throw new InternalError(`preview_webhook_delivery failed: ${error.message}`);
  const preview = data as Previewed;
  if (!preview.found) return null;
  const address = await organizationSiteAddress(client, organizationId);
  const existing = preview.post;
  return {
    action: preview.action,
    title: existing?.title ?? payload.title,
    slug,
    status: preview.status,
    path: `/blog/${slug}`,
    url: postUrl(address, slug),
    category: deliveredCategory(payload.category ?? null, preview.category),
    queued: preview.queued,
    ...(preview.slot ? { slot: preview.slot } : {}),
    ...(preview.duplicate_of ? { duplicate_of: duplicateOf(address, preview.duplicate_of) } : {}),
    ...(existing ? { post_id: existing.id } : {}),
  };
}

/** What a test delivery would do: `title` is the post it would update, else the one it would create. */
export interface DeliveryPreview {
  action: 'create' | 'update';
  title: string;
  slug: string;
  /**
   * The status the post would have: the publish mode's for a new post (draft when the duplicate gate would
   * mark it), the post's own for an update.
   */
  status: string;
  /** True when the post would wait in the publishing queue; `slot` is the time it would take. */
  queued: boolean;
  slot?: string;
  /** The post a new one would likely repeat: it would be saved as a draft marked as a possible duplicate. */
  duplicate_of?: DuplicateOf;
  /** The post's path on the site (/blog/{slug}) and its full address when the organization has a domain. */
  path: string;
  url: string;
  /** The category it would land in, as a delivery's answer says it. */
  category: DeliveredCategory;
  /** The post an update would overwrite. */
  post_id?: string;
}

/** `preview_webhook_delivery`'s answer (see its migration). */
type Previewed =
  | { found: false }
  | {
      found: true;
      organization: { slug: string; domain: string | null };
      action: 'create' | 'update';
      post: { id: string; title: string; slug: string; status: string } | null;
      status: string;
      queued: boolean;
      slot: string | null;
      duplicate_of: FoundDuplicate | null;
      category: StoredCategory;
    };

/** Where a post is read: its page at the site's address (siteAddress, the one rule for links to a site). */
function postUrl(address: string, slug: string): string {
  return `${address}${postPath(slug)}`;
}
