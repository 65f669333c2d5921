/**
 * The one path a post from outside takes, whoever sends it: the ZimmWriter webhook (webhook-delivery.ts) and
 * the WordPress publishing API (wordpress-posts.ts) each translate their request into an ArrivingPost and
 * their answer from a StoredArrival; the steps between are here, the same for both:
 * 1. `arrivalFields`: the body shaped by post-content.ts (the author's Markdown or HTML kept, the sanitized HTML
 *    and reading time derived; nothing left after sanitizing is refused with the field named), the category name
 *    mapped to the organization's category it means (category-match.ts), the category's slug.
 * 2. `storeArrival`: ONE call to Postgres, `receive_webhook_delivery` (migration 20261202000100), which in one
 *    transaction checks the sender again (the webhook's token, or an application password whose member may
 *    publish), applies the duplicate gate and the organization's choice for arrivals (publish, draft, queue),
 *    stores the post (revision and audit entry by trigger, naming the password's member and name), records the
 *    arrival in the delivery log and requests the rebuild; then the rebuilds already due are sent.
 * The featured image is each surface's own step before (a delivery's image is fetched or decoded into the Media
 * Library; the API names a file its tool uploaded).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { z } from 'zod';
import { matchCategory } from './category-match.ts';
import { shapePostContent } from '../post-content.ts';
import { type ContentFormat, POST_LIMITS } from '../../schemas/post.ts';
import { slugify } from '../slug.ts';
import { HttpError, InternalError } from './http.ts';
import { buildAtOnce, quietWindowMs, sendRebuildBatches, type RequestedRebuild } from './rebuilds.ts';

/** A field a sender's request is refused for, and why: `{ path: 'title', message: 'Title is required' }`. */
export type FieldProblem = { path: string; message: string };

/** A refused arrival: an HttpError that also lists what was wrong (the 422 field problems). */
export class DeliveryProblem extends HttpError {
  readonly details: unknown;
  constructor(status: number, text: string, details?: unknown) {
    super(status, text);
    this.details = details;
  }
}

/**
 * The 422 of a request refused for its fields. Its text names each field and its problem ("Invalid payload:
 * title: Title is required"), so a person reading only the message (the test form, the tool's log) knows what
 * to fix; `details` lists them for programs. The problems are the schema's own messages about the sent fields,
 * never anything of the server.
 */
export function invalidPayload(problems: FieldProblem[]): DeliveryProblem {
  return new DeliveryProblem(422, `Invalid payload: ${problems.map(({ path, message }) => `${path}: ${message}`).join('; ')}`, problems);
}

/** Zod's issues with a request as field problems (the body itself is `(body)`). */
export function payloadProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message }));
}

/** A post as a surface hands it over: what the sender wrote and asked for, before any shaping. */
export interface ArrivingPost {
  title: string;
  /** The article as its author wrote it, and the request field it came in (named when nothing is left of it). */
  body: { text: string; format: ContentFormat; field: string };
  excerpt: string | null;
  /** The post's slug, already normalized (slug.ts). */
  slug: string;
  /** A category name, mapped to the organization's category it means; null for the default category. */
  category: string | null;
  tags: string[] | null;
  /** A file of the organization's Media Library (null: none; a delivery without one keeps the post's). */
  featuredMediaId: string | null;
  /** SEO title and description (null: none; a delivery without them keeps the post's). */
  metaTitle: string | null;
  metaDescription: string | null;
  /** What the sender asks: publish (the organization's choice decides), draft, or future at `publishAt`. */
  status?: 'publish' | 'draft' | 'future';
  publishAt?: string;
  /** An update of one post by id, or a new post whatever its slug. Neither: the post with the slug, else a new one. */
  target?: { postId: string } | { newPost: true };
}

/**
 * Who sends: the webhook's token (checked again in the storing transaction, so a token rotated meanwhile is
 * refused), an organization the caller has already authorized (the back office's test), or an application
 * password of the organization (checked again in the transaction: live, its member an active editor or admin).
 */
export type ArrivalSource =
  | { token: string; organizationId?: string }
  | { organizationId: string; applicationPasswordId?: string };

/** The post columns `receive_webhook_delivery` takes. */
export type PostFields = Record<`p_${string}`, string | number | boolean | string[] | null> & {
  p_slug: string;
  p_title: string;
  p_content: string;
  p_category_name: string | null;
  p_category_slug: string | null;
};

/** The category a post landed in, as the database says (`created`: the arrival made it; it then needs review). */
export type StoredCategory = { name: string; created: boolean; needs_review: boolean };

/** The duplicate gate's answer (private.likely_duplicate): the post a new one likely repeats, and why. */
export type FoundDuplicate = { id: string; title: string; slug: string; reason: string };

/** What the arrival stored, for each surface's answer. */
export interface StoredArrival {
  organization: { slug: string; domain: string | null };
  /** True when this was the same delivery again: the first one's outcome, nothing written this time. */
  replayed?: true;
  post: { id: string; status: string; slug: string; created: boolean; duplicate_of: FoundDuplicate | null; category: StoredCategory };
}

/**
 * A post the database would not store: `code` is Postgres's SQLSTATE (42501 a sender who may not publish,
 * P0002 an unknown post, 22023 a bad status or time, 23514 a check), its text is for the log only.
 */
export class ArrivalFailed extends InternalError {
  readonly code: string | undefined;
  constructor(detail: string, code: string | undefined, reference?: string) {
    super(detail, reference);
    this.code = code;
  }
}

/**
 * Step 1: the columns of an arriving post. The body shaped and sanitized (DeliveryProblem 422 naming its
 * field when nothing is left), the category mapped to the organization's when one is known. Throws
 * InternalError when the categories cannot be read.
 */
export async function arrivalFields(client: SupabaseClient, organizationId: string | null, post: ArrivingPost): Promise<PostFields> {
  const body = await shapePostContent(post.body.text, post.body.format);
  if (!body.content) throw invalidPayload([{ path: post.body.field, message: 'No content is left after removing unsafe markup' }]);
  // Markdown grows when rendered: the page's HTML has the same bound as the source.
  if (body.content.length > POST_LIMITS.content) {
    throw invalidPayload([{ path: post.body.field, message: `Too long once rendered as HTML (at most ${POST_LIMITS.content.toLocaleString('en-US')} characters)` }]);
  }
  const category = post.category && organizationId ? await mappedCategory(client, organizationId, post.category) : post.category;
  return {
    p_slug: post.slug,
    p_title: post.title,
    p_content: body.content,
    p_content_source: body.content_source,
    p_content_format: body.content_format,
    p_excerpt: post.excerpt,
    p_category_name: category,
    p_category_slug: category ? slugify(category) || `category-${post.slug}` : null,
    p_tags: post.tags?.length ? post.tags : null,
    p_reading_time: body.reading_time,
    p_featured_media_id: post.featuredMediaId,
    p_meta_title: post.metaTitle,
    p_meta_description: post.metaDescription,
    p_status: post.status ?? null,
    p_published_at: post.status === 'future' ? (post.publishAt ?? null) : null,
    p_post_id: post.target && 'postId' in post.target ? post.target.postId : null,
    p_new_post: post.target !== undefined && 'newPost' in post.target,
  };
}

/**
 * The organization's category a name means (category-match.ts: case, spacing, punctuation, a small typo), else
 * the name as sent (the database creates it, flagged for review).
 */
async function mappedCategory(client: SupabaseClient, organizationId: string, name: string): Promise<string> {
  const { data, error } = await client.from('blog_categories').select('id, name').eq('organization_id', organizationId);
  if (error) throw new InternalError(`reading the categories of ${organizationId} failed: ${error.message}`);
  return matchCategory(name, (data ?? []) as { id: string; name: string }[])?.category.name ?? name;
}

/** What a surface records with an arrival besides the post: the delivery log's name and note, the image, the retry key. */
export interface ArrivalRecord {
  /** The webhook's name (an application password's name is the database's to fill in). */
  webhookName?: string | null;
  note?: string | null;
  image?: 'stored' | 'none' | 'failed';
  idempotencyKey?: string | null;
}

/** `receive_webhook_delivery`'s answer (see its migrations). */
type Received =
  | { found: false }
  | {
      found: true;
      organization: StoredArrival['organization'];
      post?: StoredArrival['post'];
      error?: string;
      code?: string;
      reference?: string;
      rebuild?: RequestedRebuild | null;
      replayed?: true;
    };

/**
 * Step 2: stores the arrival (or records its refusal) in one call, then sends the rebuilds already due. Null
 * when the token or organization is unknown: nothing is written then. Throws the refusal given (after recording
 * it), and ArrivalFailed for a post that could not be stored (recorded with the error's reference).
 */
export async function storeArrival(
  client: SupabaseClient,
  source: ArrivalSource,
  arrival: { fields: PostFields } | { refused: DeliveryProblem | InternalError; slug: string | null },
  record: ArrivalRecord = {},
  env: Record<string, string | undefined> = process.env,
): Promise<StoredArrival | null> {
  const { data, error } = await client.rpc('receive_webhook_delivery', {
    ...('token' in source ? { p_token: source.token } : { p_organization_id: source.organizationId }),
    ...('applicationPasswordId' in source ? { p_application_password_id: source.applicationPasswordId } : {}),
    ...('fields' in arrival
      ? arrival.fields
      : {
          p_slug: arrival.slug,
          p_refused_status: arrival.refused instanceof DeliveryProblem ? arrival.refused.status : 500,
          p_refused_error: describe(arrival.refused),
        }),
    ...(record.note ? { p_note: record.note } : {}),
    ...(record.image ? { p_image: record.image } : {}),
    p_quiet_window_ms: quietWindowMs(env),
    p_at_once: buildAtOnce(env),
    p_webhook_name: record.webhookName ?? null,
    p_idempotency_key: 'fields' in arrival ? (record.idempotencyKey ?? null) : null,
  });
  if (error) throw new InternalError(`receive_webhook_delivery failed: ${error.message}`);
  const received = data as Received;
  if (!received.found) return null;
  const org = received.organization;
  if ('refused' in arrival) throw arrival.refused;
  if (received.error !== undefined || !received.post) {
    throw new ArrivalFailed(`arrival (${org.slug}): ${received.error ?? 'no post in the answer'}`, received.code, received.reference);
  }
  // The post is stored whatever happens to the rebuild: a failed send is logged (and recorded), not answered.
  if (received.rebuild?.batches.length) {
    await sendRebuildBatches(client, received.rebuild.batches, env).catch((cause: Error) =>
      console.error(`arrival (${org.slug}): rebuild: ${cause.message}`),
    );
  }
  return { organization: org, post: received.post, ...(received.replayed ? { replayed: true as const } : {}) };
}

/** A refusal as the delivery log shows it: the message and any field problems, or a failure with its reference. */
function describe(problem: DeliveryProblem | InternalError): string {
  if (problem instanceof InternalError) return `Could not store the post (reference ${problem.reference}): ${problem.message}`.slice(0, 2000);
  return `${problem.message}${problem.details === undefined ? '' : ` ${JSON.stringify(problem.details)}`}`.slice(0, 2000);
}
