/**
 * The one path a post from outside takes, whoever sends it: the ZimmWriter webhook (webhook-delivery.ts) and
 * the WordPress publishing API (wordpress-posts.ts) each translate their request into an ArrivingPost and
 * their answer from a StoredArrival; the steps between are here, the same for both:
 * 1. `arrivalFields`: the body shaped by post-content.ts (the author's Markdown or HTML kept, the sanitized HTML
 *    and reading time derived; nothing left after sanitizing is refused with the field named), the category name
 *    mapped to the organization's category it means (category-match.ts), the category's slug.
 * 2. `storeArrival`: ONE call to Postgres, `receive_arrival` (migration 20261129001800) with one object, which in
 *    one transaction checks the sender again (the webhook's token, or an application password whose member may
 *    publish), applies the duplicate gate and the organization's choice for arrivals (publish, draft, queue),
 *    stores the post (revision and audit entry by trigger, naming the password's member and name), records the
 *    arrival in the delivery log and requests the rebuild; then the rebuilds already due are sent. An update
 *    sends only the fields its request sent: the database sets those and keeps every other as the post has it
 *    then, so an editor's save made meanwhile in another field stays.
 * The featured image is each surface's own step before (a delivery's image is fetched or decoded into the Media
 * Library; the API names a file its tool uploaded).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { z } from 'zod';
import { matchCategory } from './category-match.ts';
import { shapePostContent } from '../post-content.ts';
import { type ContentFormat, POST_LIMITS } from '../../schemas/post.ts';
import { categorySlug } from '../slug.ts';
import { HttpError, InternalError } from './http.ts';
import { buildAtOnce, quietWindowMs, sendAfterChange, type RequestedRebuild } from './rebuilds.ts';

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

/**
 * A post as a surface hands it over: what the sender wrote and asked for, before any shaping. A field left
 * undefined was not sent: an update keeps the post's, a new post has none (the default category). A new post
 * needs a title, a body and a slug.
 */
export interface ArrivingPost {
  title?: string;
  /** The article as its author wrote it, and the request field it came in (named when nothing is left of it). */
  body?: { text: string; format: ContentFormat; field: string };
  excerpt?: string | null;
  /** The post's slug, already normalized (slug.ts). */
  slug?: string;
  /** A category name, mapped to the organization's category it means; null for the default category. */
  category?: string | null;
  tags?: string[] | null;
  /** A file of the organization's Media Library (null: none). */
  featuredMediaId?: string | null;
  /** SEO title and description (null: none). */
  metaTitle?: string | null;
  metaDescription?: string | null;
  /** First on the blog's first page (WordPress's sticky posts). */
  sticky?: boolean;
  /**
   * What the sender asks: publish (the organization's choice decides), draft, or future at `publishAt`. A
   * publish with a past `publishAt` is dated then (a backdated import), where the post is published at once; a
   * draft keeps its `publishAt` for when it is published.
   */
  status?: 'publish' | 'draft' | 'future';
  publishAt?: string;
  /** An update of one post by id, or a new post whatever its slug. Neither: the post with the slug, else a new one. */
  target?: { postId: string } | { newPost: true };
}

/** A post sent whole (a new post, or the writing tool's delivery of its slug): title, body and slug given. */
export type WholePost = ArrivingPost & Required<Pick<ArrivingPost, 'title' | 'body' | 'slug'>>;

/**
 * Who sends: the webhook's token (checked again in the storing transaction, so a token rotated meanwhile is
 * refused), an organization the caller has already authorized (the back office's test), or an application
 * password of the organization (checked again in the transaction: live, its member an active editor or admin).
 */
export type ArrivalSource =
  | { token: string; organizationId?: string }
  | { organizationId: string; applicationPasswordId?: string };

/**
 * The arrival's `post` as `receive_arrival` takes it: a key present sets its column (null clears it), a key left
 * out keeps the post's (private.store_arrived_post).
 */
export type PostFields = {
  slug?: string;
  title?: string;
  content?: string;
  content_source?: string;
  content_format?: ContentFormat;
  reading_time?: number;
  excerpt?: string | null;
  category_name?: string | null;
  category_slug?: string | null;
  tags?: string[] | null;
  featured_media_id?: string | null;
  meta_title?: string | null;
  meta_description?: string | null;
  sticky?: boolean;
  status?: 'publish' | 'draft' | 'future';
  published_at?: string;
  post_id?: string;
  new_post?: true;
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
  const fields: PostFields = {};
  if (post.body) {
    const body = await shapePostContent(post.body.text, post.body.format);
    if (!body.content) throw invalidPayload([{ path: post.body.field, message: 'No content is left after removing unsafe markup' }]);
    // Markdown grows when rendered: the page's HTML has the same bound as the source.
    if (body.content.length > POST_LIMITS.content) {
      throw invalidPayload([{ path: post.body.field, message: `Too long once rendered as HTML (at most ${POST_LIMITS.content.toLocaleString('en-US')} characters)` }]);
    }
    Object.assign(fields, { content: body.content, content_source: body.content_source, content_format: body.content_format, reading_time: body.reading_time });
  }
  if (post.category !== undefined) {
    const category = post.category && organizationId ? await mappedCategory(client, organizationId, post.category) : post.category;
    fields.category_name = category;
    fields.category_slug = category ? categorySlug(category) : null;
  }
  const sent: PostFields = {
    slug: post.slug,
    title: post.title,
    excerpt: post.excerpt,
    tags: post.tags === undefined ? undefined : post.tags?.length ? post.tags : null,
    featured_media_id: post.featuredMediaId,
    meta_title: post.metaTitle,
    meta_description: post.metaDescription,
    sticky: post.sticky,
    status: post.status,
    published_at: post.status ? post.publishAt : undefined,
    post_id: post.target && 'postId' in post.target ? post.target.postId : undefined,
    new_post: post.target && 'newPost' in post.target ? true : undefined,
  };
  for (const [key, value] of Object.entries(sent)) if (value !== undefined) Object.assign(fields, { [key]: value });
  return fields;
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

/** `receive_arrival`'s answer (migration 20261129001800). */
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
  const { data, error } = await client.rpc('receive_arrival', {
    p_arrival: {
      ...('token' in source ? { token: source.token } : { organization_id: source.organizationId }),
      ...('applicationPasswordId' in source ? { application_password_id: source.applicationPasswordId } : {}),
      ...('fields' in arrival
        ? { post: arrival.fields, ...(record.idempotencyKey ? { idempotency_key: record.idempotencyKey } : {}) }
        : {
            refused: {
              slug: arrival.slug,
              status: arrival.refused instanceof DeliveryProblem ? arrival.refused.status : 500,
              error: describe(arrival.refused),
            },
          }),
      ...(record.note ? { note: record.note } : {}),
      ...(record.image ? { image: record.image } : {}),
      webhook_name: record.webhookName ?? null,
      quiet_window_ms: quietWindowMs(env),
      at_once: buildAtOnce(env),
    },
  });
  if (error) throw new InternalError(`receive_arrival failed: ${error.message}`);
  const received = data as Received;
  if (!received.found) return null;
  const org = received.organization;
  if ('refused' in arrival) throw arrival.refused;
  if (received.error !== undefined || !received.post) {
    throw new ArrivalFailed(`arrival (${org.slug}): ${received.error ?? 'no post in the answer'}`, received.code, received.reference);
  }
  await sendAfterChange(client, received.rebuild, `arrival (${org.slug})`, env);
  return { organization: org, post: received.post, ...(received.replayed ? { replayed: true as const } : {}) };
}

/** A refusal as the delivery log shows it: the message and any field problems, or a failure with its reference. */
function describe(problem: DeliveryProblem | InternalError): string {
  if (problem instanceof InternalError) return `Could not store the post (reference ${problem.reference}): ${problem.message}`.slice(0, 2000);
  return `${problem.message}${problem.details === undefined ? '' : ` ${JSON.stringify(problem.details)}`}`.slice(0, 2000);
}
