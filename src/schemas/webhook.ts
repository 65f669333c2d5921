import { z } from './zod.ts';
import { HttpUrlSchema, storableString } from './common.ts';
import { POST_LIMITS, PostTagsSchema } from './post.ts';

/**
 * An optional payload field. The writing tool sends `false` (and sometimes null or '') for empty fields:
 * all of them mean "not given".
 */
const optional = <T extends z.ZodType>(schema: T) =>
  z
    .union([z.literal(false), z.null(), z.literal(''), schema])
    .optional()
    .transform((value) => (value === false || value === null || value === '' ? undefined : (value as z.output<T>)));

/** Tags as a list or as one comma-separated string; trimmed, blanks and duplicates dropped, at most 20. */
const TagsSchema = z
  .union([z.array(z.string()), z.string().transform((list) => list.split(','))])
  .transform((tags) => tags.map((tag) => tag.trim()).filter((tag) => tag !== ''))
  .pipe(PostTagsSchema);

/**
 * The token in a webhook URL, as far as its shape goes: rotate_webhook_token makes `whk_` and 64 hex digits
 * (the seed's development tokens are shorter). Only a string of this shape is looked up; the shape is
 * public, so refusing others at once tells nothing about which tokens exist.
 */
export const WebhookTokenSchema = z.string().min(16).max(200);

/**
 * The name the writing tool's user gave the webhook when saving it in ZimmWriter ("Identifier for the
 * webhook"), sent as `webhook_name`: any text of 1 to 100 characters (`webhook_deliveries.webhook_name`
 * checks the same). A label shown in the delivery log; it selects nothing.
 */
export const WebhookNameSchema = storableString().trim().min(1).max(100, 'webhook_name must be at most 100 characters');

/**
 * The JSON body ZimmWriter posts to /api/webhooks/zimmwriter/{token}. No organization field: the token in
 * the URL names the organization.
 */
export const WebhookPayloadSchema = z
  .object({
    /** The webhook's name as its user saved it in the writing tool (WebhookNameSchema). */
    webhook_name: optional(WebhookNameSchema),
    /** The article title (required). */
    title: storableString().trim().min(1, 'Title is required').max(POST_LIMITS.title),
    /** The article as HTML; kept as the post's source when no markdown is sent, sanitized for the page. */
    html: optional(storableString().max(POST_LIMITS.content)),
    /** The article as Markdown; kept as the post's source (and wins over html), rendered and sanitized for the page. */
    markdown: optional(storableString().max(POST_LIMITS.content)),
    /** Summary shown on blog cards. */
    excerpt: optional(storableString().trim().max(POST_LIMITS.excerpt)),
    /**
     * Category name: the organization's category it means (case, spacing, punctuation and small typos set aside,
     * src/lib/server/category-match.ts), else created and held for an editor's review before visitors see it.
     */
    category: optional(storableString().trim().min(1).max(POST_LIMITS.categoryName)),
    /** Tags, as a list or a comma-separated string. */
    tags: optional(TagsSchema),
    /** SEO title for the page's <title>, search results and shares; the post keeps its own when none is sent. */
    meta_title: optional(storableString().trim().max(POST_LIMITS.metaTitle)),
    /** SEO description for the meta description and shares; the post keeps its own when none is sent. */
    meta_description: optional(storableString().trim().max(POST_LIMITS.metaDescription)),
    /** Wanted URL slug; normalized, and derived from the title when absent. Same slug = same post. */
    slug: optional(storableString().trim().max(POST_LIMITS.slug)),
    /**
     * Featured image, an absolute http(s) URL: fetched once from a public host and stored in the
     * organization's Media Library (the site never links to it). Used when image_base64 is absent or refused.
     */
    image_url: optional(HttpUrlSchema),
    /**
     * The featured image itself, base64 or a `data:` URL (JPEG, PNG, WebP, AVIF or GIF, at most 5 MB):
     * stored in the organization's Media Library. A bad image is noted in the delivery log; the post is saved.
     */
    image_base64: optional(z.string().max(7_200_000)),
  })
  .refine((payload) => payload.html?.trim() || payload.markdown?.trim(), {
    message: 'Either html or markdown is required',
    path: ['html'],
  });
export type WebhookPayload = z.infer<typeof WebhookPayloadSchema>;

/**
 * `POST /api/admin/webhook-test`: a test delivery the back office sends for the admin's organization. The
 * payload is checked against WebhookPayloadSchema by the function, which answers its problems as the webhook does.
 */
export const WebhookTestRequestSchema = z
  .object({
    organization_id: z.uuid('organization_id must be a UUID'),
    /** The payload to try, any JSON object: a WebhookPayload for a test that passes. */
    payload: z.record(z.string(), z.unknown()),
  })
  .strict();
export type WebhookTestRequest = z.infer<typeof WebhookTestRequestSchema>;
/** A payload as sent (before the schema's defaults and transforms). */
export type WebhookPayloadInput = z.input<typeof WebhookPayloadSchema>;
