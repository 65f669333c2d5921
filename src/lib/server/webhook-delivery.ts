/**
 * Receiving one writing-tool delivery for an organization. The public webhook first asks who the token
 * belongs to (`webhookOrganizationId`: one lookup, nothing written) and reads the body only for a known
 * token. Then two steps:
 * 1. `prepareDelivery`, the JavaScript part: shape the body with post-content.ts (the author's Markdown or
 *    HTML kept, the sanitized HTML and reading time derived) and derive the slug. A payload with nothing
 *    left after sanitizing is refused here. The category name is mapped to the organization's category it
 *    means (category-match.ts: case, spacing, punctuation, a small typo), so only a really new name creates
 *    a category, which then waits for an editor's review. A real delivery's featured image (image_base64,
 *    else image_url) is stored in the organization's Media Library (webhook-images.ts); a bad one is only noted.
 * 2. Postgres. A real delivery (`receiveDelivery`) makes ONE call, `receive_webhook_delivery`, which checks
 *    the token again, upserts the post, records the delivery and requests the rebuild in one transaction
 *    (one round trip keeps a delivery fast). The back office's test (`previewDelivery`) asks
 *    `preview_webhook_delivery` instead what that call would do (create or update which post, with which
 *    status, in which category) and writes nothing: no post, revision, delivery record or rebuild request.
 * Both take the same first step, so a test refuses exactly what a real delivery refuses.
 */
import { createHash } from 'node:crypto';
import { TZDate } from '@date-fns/tz';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { z } from 'zod';
import { matchCategory } from '../category-match.ts';
import { shapePostContent, type PostContent } from '../post-content.ts';
import { postSlug, slugify } from '../slug.ts';
import type { WebhookPayload } from '../../schemas/webhook.ts';
import { HttpError, InternalError } from './http.ts';
import { buildAtOnce, quietWindowMs, sendRebuildBatches, type RequestedRebuild } from './rebuilds.ts';
import type { FetchPolicy } from '../public-fetch.ts';
import { deliveryImage, ImageNotSaved } from './webhook-images.ts';

/** A payload field a delivery refuses, and why: `{ path: 'title', message: 'Title is required' }`. */
export type FieldProblem = { path: string; message: string };

/**
 * The 422 of a payload a delivery refuses. Its text names each field and its problem ("Invalid payload: title:
 * Title is required"), so a person reading only the message (the test form, the tool's log) knows what to fix;
 * `details` lists them for programs. The problems are the schema's own messages about the sent fields, never
 * anything of the server.
 */
export function invalidPayload(problems: FieldProblem[]): DeliveryProblem {
  return new DeliveryProblem(422, `Invalid payload: ${problems.map(({ path, message }) => `${path}: ${message}`).join('; ')}`, problems);
}

/** Zod's issues with a payload as field problems (the body itself is `(body)`). */
export function payloadProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message }));
}

/**
 * Whose delivery it is: the webhook's token (checked again in the storing transaction, so a token rotated
 * meanwhile is refused; with the organization it was found to belong to, when the caller looked it up
 * already), or an organization the caller has already authorized.
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

/** The database's part of DeliveredCategory. */
type StoredCategory = { name: string; created: boolean; needs_review: boolean };

/** The post a delivery likely repeats, and why the gate thinks so ('same title', 'similar text, 87%'). */
export type DuplicateOf = { post_id: string; title: string; url: string; reason: string };

/** The duplicate gate's answer from Postgres (private.likely_duplicate). */
type FoundDuplicate = { id: string; title: string; slug: string; reason: string };

/** A refused delivery: an HttpError that also lists what was wrong (the 422 field problems). */
export class DeliveryProblem extends HttpError {
  readonly details: unknown;
  constructor(status: number, text: string, details?: unknown) {
    super(status, text);
    this.details = details;
  }
}

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

/** `receive_webhook_delivery`'s answer (see its migrations). */
type Received =
  | { found: false }
  | {
      found: true;
      organization: { slug: string; domain: string | null };
      post?: { id: string; status: string; slug: string; created: boolean; duplicate_of: FoundDuplicate | null; category: StoredCategory };
      error?: string;
      reference?: string;
      rebuild?: RequestedRebuild | null;
      replayed?: true;
    };

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
  let slug: string | null = null;
  let problem: DeliveryProblem | InternalError | undefined = 'refused' in delivery ? delivery.refused : undefined;
  let post: PostFields | undefined;
  if ('payload' in delivery) {
    slug = deliverySlug(delivery.payload);
    try {
      const organizationId = source.organizationId ?? ('token' in source ? await webhookOrganizationId(client, source.token) : null);
      post = (await prepareDelivery(delivery.payload)).fields;
      if (organizationId) {
        post = await withMappedCategory(client, organizationId, post);
        post = { ...post, ...(await featuredImage(client, organizationId, delivery.payload, slug, imagePolicy)) };
      }
    } catch (error) {
      // An image that could not be saved stores nothing, not even the delivery record: the tool sends it again.
      if (error instanceof ImageNotSaved) throw new InternalError(error.message);
      problem = error instanceof DeliveryProblem ? error : new InternalError(`preparing the post failed: ${(error as Error).message}`);
    }
  }
  const { data, error } = await client.rpc('receive_webhook_delivery', {
    ...('token' in source ? { p_token: source.token } : { p_organization_id: source.organizationId }),
    p_slug: slug,
    ...(problem ? { p_refused_status: problem instanceof DeliveryProblem ? problem.status : 500, p_refused_error: describe(problem) } : post),
    p_quiet_window_ms: quietWindowMs(env),
    p_at_once: buildAtOnce(env),
    p_webhook_name: ('payload' in delivery ? delivery.payload.webhook_name : delivery.webhookName) ?? null,
    p_idempotency_key: 'payload' in delivery && !problem ? deliveryKey(delivery.payload) : null,
  });
  if (error) throw new InternalError(`receive_webhook_delivery failed: ${error.message}`);
  const received = data as Received;
  if (!received.found) return null;
  const org = received.organization;
  if (problem) throw problem;
  if (received.error !== undefined || !received.post) {
    throw new InternalError(`webhook delivery (${org.slug}): ${received.error ?? 'no post in the answer'}`, received.reference);
  }
  // The post is stored whatever happens to the rebuild: a failed send is logged (and recorded), not answered.
  if (received.rebuild?.batches.length) {
    await sendRebuildBatches(client, received.rebuild.batches, env).catch((cause: Error) =>
      console.error(`webhook delivery (${org.slug}): rebuild: ${cause.message}`),
    );
  }
  const { id, status, slug: storedSlug, created, duplicate_of: duplicate, category } = received.post;
  return {
    ...(received.replayed ? { replayed: true as const } : {}),
    post_id: id,
    status,
    url: postUrl(org, storedSlug),
    created,
    ...(duplicate ? { duplicate_of: duplicateOf(org, duplicate) } : {}),
    category: deliveredCategory(('payload' in delivery && delivery.payload.category) || null, category),
    ...(status === 'scheduled' ? { scheduled_for: await scheduledFor(client, id) } : {}),
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

/**
 * The fields with the category name replaced by the name of the organization's category it means
 * (category-match.ts), so the database files the post there; a name that means none is kept as sent (the
 * database creates it, flagged for review). Throws InternalError when the categories cannot be read.
 */
async function withMappedCategory(client: SupabaseClient, organizationId: string, fields: PostFields): Promise<PostFields> {
  if (!fields.p_category_name) return fields;
  const { data, error } = await client.from('blog_categories').select('id, name').eq('organization_id', organizationId);
  if (error) throw new InternalError(`reading the categories of ${organizationId} failed: ${error.message}`);
  const match = matchCategory(fields.p_category_name, (data ?? []) as { id: string; name: string }[]);
  return match ? { ...fields, p_category_name: match.category.name } : fields;
}

function duplicateOf(org: { domain: string | null }, found: FoundDuplicate): DuplicateOf {
  return { post_id: found.id, title: found.title, url: postUrl(org, found.slug), reason: found.reason };
}

/**
 * The delivery's featured image, stored in the organization's media (webhook-images.ts): its media id, and
 * the delivery log's note about an image that was not taken. Nothing for a delivery without an image.
 */
async function featuredImage(
  client: SupabaseClient,
  organizationId: string,
  payload: WebhookPayload,
  slug: string,
  policy: FetchPolicy | undefined,
): Promise<Partial<Record<'p_featured_media_id' | 'p_note' | 'p_image', string | null>>> {
  if (!payload.image_base64 && !payload.image_url) return { p_image: 'none' };
  const image = await deliveryImage(client, organizationId, payload, { slug, title: payload.title }, policy);
  return { p_featured_media_id: image.mediaId, p_note: image.note, p_image: image.mediaId ? 'stored' : 'failed' };
}

/**
 * What a delivery of `payload` would do for the organization, written nowhere: the payload takes the real
 * delivery's first step (prepareDelivery: throws DeliveryProblem for what a delivery refuses), then
 * `preview_webhook_delivery` answers by the rules `upsert_webhook_post` follows. Null for an unknown
 * organization. Throws InternalError when the database cannot answer.
 */
export async function previewDelivery(client: SupabaseClient, organizationId: string, payload: WebhookPayload): Promise<DeliveryPreview | null> {
  const { slug, fields: prepared } = await prepareDelivery(payload);
  const fields = await withMappedCategory(client, organizationId, prepared);
  const { data, error } = await client.rpc('preview_webhook_delivery', {
    p_organization_id: organizationId,
    p_slug: slug,
    p_title: fields.p_title,
    p_content: fields.p_content,
    p_category_name: fields.p_category_name,
    p_category_slug: fields.p_category_slug,
  });
  if (error) throw new InternalError(`preview_webhook_delivery failed: ${error.message}`);
  const preview = data as Previewed;
  if (!preview.found) return null;
  const existing = preview.post;
  return {
    action: preview.action,
    title: existing?.title ?? payload.title,
    slug,
    status: preview.status,
    path: `/blog/${slug}`,
    url: postUrl(preview.organization, slug),
    category: deliveredCategory(payload.category ?? null, preview.category),
    queued: preview.queued,
    ...(preview.slot ? { slot: preview.slot } : {}),
    ...(preview.duplicate_of ? { duplicate_of: duplicateOf(preview.organization, preview.duplicate_of) } : {}),
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

/** Where a post is read: on the organization's domain when it has one, else the site-relative path. */
function postUrl(org: { domain: string | null }, slug: string): string {
  return org.domain ? `https://${org.domain}/blog/${slug}` : `/blog/${slug}`;
}

/** A validated payload made ready to store: its slug (same slug = same post) and the post columns. */
export interface PreparedDelivery {
  slug: string;
  fields: PostFields;
}

/**
 * The step every delivery takes before Postgres, real or test: the slug, the body rendered and sanitized,
 * the category's slug. Throws DeliveryProblem (422) when no content is left after sanitizing.
 */
export async function prepareDelivery(payload: WebhookPayload): Promise<PreparedDelivery> {
  const slug = deliverySlug(payload);
  return { slug, fields: await postFields(payload, slug) };
}

/** The post's slug: the payload's, normalized, else derived from the title. */
function deliverySlug(payload: WebhookPayload): string {
  return postSlug(payload.title, payload.slug);
}

/** The post columns `receive_webhook_delivery` takes, from a validated payload. */
export type PostFields = Record<`p_${string}`, string | number | string[] | null> & {
  p_title: string;
  p_category_name: string | null;
  p_category_slug: string | null;
};

async function postFields(payload: WebhookPayload, slug: string): Promise<PostFields> {
  const body = await articleContent(payload);
  return {
    p_title: payload.title,
    p_content: body.content,
    p_content_source: body.content_source,
    p_content_format: body.content_format,
    p_excerpt: payload.excerpt ?? null,
    p_category_name: payload.category ?? null,
    p_category_slug: payload.category ? slugify(payload.category) || `category-${slug}` : null,
    p_tags: payload.tags?.length ? payload.tags : null,
    p_reading_time: body.reading_time,
  };
}

/**
 * The post body from the delivery: the Markdown when it was sent (it is what the author wrote; the HTML is
 * derived from it), else the HTML, kept as the post's HTML source.
 */
async function articleContent(payload: WebhookPayload): Promise<PostContent> {
  const markdown = payload.markdown?.trim() ? payload.markdown : undefined;
  const body = await shapePostContent(markdown ?? payload.html ?? '', markdown !== undefined ? 'markdown' : 'html');
  const field = markdown !== undefined ? 'markdown' : 'html';
  if (!body.content) throw invalidPayload([{ path: field, message: 'No content is left after removing unsafe markup' }]);
  return body;
}

/** A refusal as the delivery log shows it: the message and any field problems, or a failure with its reference. */
function describe(problem: DeliveryProblem | InternalError): string {
  if (problem instanceof InternalError) return `Could not store the post (reference ${problem.reference}): ${problem.message}`.slice(0, 2000);
  return `${problem.message}${problem.details === undefined ? '' : ` ${JSON.stringify(problem.details)}`}`.slice(0, 2000);
}
