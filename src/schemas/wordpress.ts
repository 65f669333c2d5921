/**
 * What WordPress publishing tools send to the WordPress-compatible API (src/lib/server/wordpress-api.ts), as
 * WordPress accepts it: JSON or form fields; `title`, `content` and `excerpt` as text or `{ raw }`; term ids
 * as a list, one number or a comma-separated string. Fields WordPress has and this site does not use (author,
 * format, comment_status, ping_status, sticky, template, password) are accepted and ignored.
 */
import { z } from './zod.ts';

/** `"text"` or `{ raw: "text" }` (what WordPress answers in the edit context, which some tools send back). */
const rawText = (schema: z.ZodString) => z.union([z.string(), z.object({ raw: z.string() }).transform((value) => value.raw)]).pipe(schema);

/** Term or media ids: `[1, 2]`, `"1,2"`, `3`. */
const IdListSchema = z
  .union([z.array(z.union([z.number(), z.string()])), z.string().transform((list) => list.split(',').filter((id) => id.trim() !== '')), z.number().transform((id) => [id])])
  .pipe(z.array(z.coerce.number<string | number>().int('must be a list of term ids').positive('must be a list of term ids')).max(100));

/**
 * A date as WordPress sends one: `2026-12-01T09:30:00` (the site's time zone, which the API declares as UTC),
 * or with `Z` or an offset. Answers the instant in ISO form.
 */
const WpDateSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/, 'must be a date like 2026-12-01T09:30:00')
  .transform((text, context) => {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
    const at = new Date(zoned.replace(' ', 'T'));
    if (Number.isNaN(at.getTime())) {
      context.addIssue({ code: 'custom', message: 'must be a real date' });
      return z.NEVER;
    }
    return at.toISOString();
  });

/** The statuses a post may be asked for; `pending` (awaiting review) is kept as a draft, `private` is not offered. */
export const WP_STATUSES = ['publish', 'future', 'draft', 'pending'] as const;

/** The SEO fields tools write in `meta`: Yoast's and Rank Math's names for one title and one description. */
export const SEO_META_KEYS = {
  title: ['_yoast_wpseo_title', 'rank_math_title'],
  description: ['_yoast_wpseo_metadesc', 'rank_math_description'],
} as const;

const SeoMetaSchema = z
  .object({
    _yoast_wpseo_title: z.string().trim().max(200).optional(),
    rank_math_title: z.string().trim().max(200).optional(),
    _yoast_wpseo_metadesc: z.string().trim().max(500).optional(),
    rank_math_description: z.string().trim().max(500).optional(),
  })
  .loose();

/** A post's fields as a tool creates or updates it (every field optional here; create requires title and content). */
export const WpPostInputSchema = z.object({
  title: rawText(z.string().trim().max(200, 'must be at most 200 characters')).optional(),
  content: rawText(z.string().max(5_000_000, 'is too long')).optional(),
  excerpt: rawText(z.string().trim().max(500, 'must be at most 500 characters')).optional(),
  slug: z.string().trim().max(200, 'must be at most 200 characters').optional(),
  status: z.enum(WP_STATUSES, { message: `is not one of ${WP_STATUSES.join(', ')}` }).optional(),
  date: WpDateSchema.nullable().optional(),
  date_gmt: WpDateSchema.nullable().optional(),
  categories: IdListSchema.optional(),
  tags: IdListSchema.optional(),
  featured_media: z.coerce.number<unknown>().int('must be a media id').min(0, 'must be a media id').optional(),
  meta: SeoMetaSchema.optional(),
});
export type WpPostInput = z.infer<typeof WpPostInputSchema>;

/** A category or tag a tool creates: its name (WordPress's `description` and `parent` are not kept). */
export const WpTermInputSchema = z.object({
  name: z.string().trim().min(1, 'is required').max(50, 'must be at most 50 characters'),
  slug: z.string().trim().max(200).optional(),
});

/** The list parameters every collection takes: page and per_page as WordPress bounds them. */
export const WpPagingSchema = z.object({
  page: z.coerce.number<unknown>().int('must be a whole number').min(1, 'must be 1 or more').default(1),
  per_page: z.coerce.number<unknown>().int('must be a whole number').min(1, 'must be between 1 (inclusive) and 100 (inclusive)').max(100, 'must be between 1 (inclusive) and 100 (inclusive)').default(10),
  search: z.string().trim().max(200).optional(),
  slug: z.string().trim().max(2000).optional(),
});
