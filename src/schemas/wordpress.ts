/**
 * What WordPress publishing tools send to the WordPress-compatible API (src/lib/server/wordpress-api.ts), as
 * WordPress accepts it: JSON or form fields; `title`, `content` and `excerpt` as text or `{ raw }`; term ids
 * as a list, one number or a comma-separated string. Fields WordPress has and this site does not use (author,
 * format, comment_status, ping_status, template, password) are accepted and ignored.
 */
import { z } from './zod.ts';
import { storableString } from './common.ts';
import { POST_LIMITS } from './post.ts';

/** `"text"` or `{ raw: "text" }` (what WordPress answers in the edit context, which some tools send back). */
const rawText = (schema: z.ZodString) => z.union([z.string(), z.object({ raw: z.string() }).transform((value) => value.raw)]).pipe(schema);

/** At most `max` characters, worded as WordPress words it. */
const atMost = (max: number) => `must be at most ${max.toLocaleString('en-US')} characters`;

/** Ids (of terms, unless `what` says otherwise): `[1, 2]`, `"1,2"`, `3`; repeats dropped, at most `max`. */
const idList = (max: number, what = 'term ids') =>
  z
    .union([z.array(z.union([z.number(), z.string()])), z.string().transform((list) => list.split(',').filter((id) => id.trim() !== '')), z.number().transform((id) => [id])])
    .pipe(z.array(z.coerce.number<string | number>().int(`must be a list of ${what}`).positive(`must be a list of ${what}`)))
    .transform((ids) => [...new Set(ids)])
    .pipe(z.array(z.number()).max(max, `must list at most ${max} ids`));

/**
 * A date as WordPress sends one: `2026-12-01T09:30:00` (a wall time: in the site's time zone for `date`, `after`
 * and `before`, in UTC for the `_gmt` fields), or with `Z` or an offset (that instant). Answers the instant in ISO
 * form (`…Z`) when the text names its zone, else the wall time as `2026-12-01T09:30:00`, which the API reads in
 * the zone the field means (wpInstant in src/lib/server/wordpress-rest.ts).
 */
const WpDateSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/, 'must be a date like 2026-12-01T09:30:00')
  .transform((text, context) => {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text);
    const at = new Date((zoned ? text : `${text}Z`).replace(' ', 'T'));
    // Year 0 (1 BC in ISO's count) is a date JavaScript writes and Postgres refuses; a wall time that does not
    // exist (February 30) would roll over into another day.
    const wall = text.replace(' ', 'T').slice(0, 19).padEnd(19, ':00');
    if (Number.isNaN(at.getTime()) || at.getUTCFullYear() < 1 || (!zoned && at.toISOString().slice(0, 19) !== wall)) {
      context.addIssue({ code: 'custom', message: 'must be a real date' });
      return z.NEVER;
    }
    return zoned ? at.toISOString() : wall;
  });

/**
 * The statuses a post may be asked for; `pending` (awaiting review) is kept as a draft, `trash` moves an
 * existing post to the trash, `private` is not offered.
 */
export const WP_STATUSES = ['publish', 'future', 'draft', 'pending', 'trash'] as const;

/** A yes or no as JSON or form fields send it: `true`, `"true"`, `"1"`, `1` (and their noes). */
export const WpBooleanSchema = z.union(
  [
    z.boolean(),
    z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1'),
    z.union([z.literal(1), z.literal(0)]).transform((value) => value === 1),
  ],
  'must be true or false',
);

/** The SEO fields tools write in `meta`: Yoast's and Rank Math's names for one title and one description. */
export const SEO_META_KEYS = {
  title: ['_yoast_wpseo_title', 'rank_math_title'],
  description: ['_yoast_wpseo_metadesc', 'rank_math_description'],
} as const;

const SeoMetaSchema = z
  .object({
    _yoast_wpseo_title: storableString().trim().max(POST_LIMITS.metaTitle, atMost(POST_LIMITS.metaTitle)).optional(),
    rank_math_title: storableString().trim().max(POST_LIMITS.metaTitle, atMost(POST_LIMITS.metaTitle)).optional(),
    _yoast_wpseo_metadesc: storableString().trim().max(POST_LIMITS.metaDescription, atMost(POST_LIMITS.metaDescription)).optional(),
    rank_math_description: storableString().trim().max(POST_LIMITS.metaDescription, atMost(POST_LIMITS.metaDescription)).optional(),
  })
  .loose();

/**
 * A post's fields as a tool creates or updates it (every field optional here; create requires title and
 * content), within the database's limits (POST_LIMITS): the site files a post in one category (the first id)
 * and keeps at most 20 tags.
 */
export const WpPostInputSchema = z.object({
  title: rawText(storableString().trim().max(POST_LIMITS.title, atMost(POST_LIMITS.title))).optional(),
  content: rawText(storableString().max(POST_LIMITS.content, atMost(POST_LIMITS.content))).optional(),
  excerpt: rawText(storableString().trim().max(POST_LIMITS.excerpt, atMost(POST_LIMITS.excerpt))).optional(),
  slug: storableString().trim().max(POST_LIMITS.slug, atMost(POST_LIMITS.slug)).optional(),
  status: z.enum(WP_STATUSES, { message: `is not one of ${WP_STATUSES.join(', ')}` }).optional(),
  sticky: WpBooleanSchema.optional(),
  date: WpDateSchema.nullable().optional(),
  date_gmt: WpDateSchema.nullable().optional(),
  categories: idList(100).optional(),
  tags: idList(POST_LIMITS.tags).optional(),
  featured_media: z.coerce.number<unknown>().int('must be a media id').min(0, 'must be a media id').optional(),
  meta: SeoMetaSchema.optional(),
});
export type WpPostInput = z.infer<typeof WpPostInputSchema>;

/**
 * What a tool may change of a Media Library file (`POST`/`PUT`/`PATCH /media/{id}`): its alt text and caption
 * (plain text, as the library's editor bounds them) and its title (the file's name in the library, its extension
 * kept). WordPress's description is not kept by the library: sent with text, it is refused by name rather than
 * dropped (sent empty, as some tools send every field, it asks for nothing).
 */
export const WpMediaUpdateSchema = z
  .object({
    alt_text: storableString().trim().max(500, atMost(500)).optional(),
    title: rawText(storableString().trim().min(1, 'must not be empty').max(200, atMost(200))).optional(),
    caption: rawText(storableString().trim().max(500, atMost(500))).optional(),
    description: rawText(z.string().max(0, 'is not kept: the Media Library has alt text, a caption and a title only')).optional(),
  })
  .loose();

/**
 * A category or tag a tool creates: its name, within the taxonomy's limit (POST_LIMITS: 80 characters for a
 * category, 50 for a tag); WordPress's `description` and `parent` are not kept.
 */
export const wpTermInputSchema = (maxName: number) =>
  z.object({
    name: storableString().trim().min(1, 'is required').max(maxName, atMost(maxName)),
    slug: storableString().trim().max(POST_LIMITS.slug, atMost(POST_LIMITS.slug)).optional(),
  });

/** The list parameters every collection takes: page and per_page as WordPress bounds them. */
export const WpPagingSchema = z.object({
  page: z.coerce.number<unknown>().int('must be a whole number').min(1, 'must be 1 or more').default(1),
  per_page: z.coerce.number<unknown>().int('must be a whole number').min(1, 'must be between 1 (inclusive) and 100 (inclusive)').max(100, 'must be between 1 (inclusive) and 100 (inclusive)').default(10),
  search: storableString().trim().max(200, atMost(200)).optional(),
  slug: storableString().trim().max(2000, atMost(2000)).optional(),
});

/** How WordPress orders a list: ascending or descending. */
const WpOrderSchema = z.enum(['asc', 'desc'], 'must be one of asc, desc');

/**
 * `GET /posts`'s filters as WordPress names them: terms, authors and posts by their integer ids (`include` and
 * `exclude` are posts'), dates of publication (`after`, `before`) and of the last change (`modified_after`,
 * `modified_before`), and the order. `orderby=include` needs `include`, and `relevance` a `search`, as in
 * WordPress.
 */
export const WpPostListSchema = WpPagingSchema.extend({
  categories: idList(100).optional(),
  categories_exclude: idList(100).optional(),
  tags: idList(100).optional(),
  tags_exclude: idList(100).optional(),
  author: idList(100, 'user ids').optional(),
  author_exclude: idList(100, 'user ids').optional(),
  include: idList(100, 'post ids').optional(),
  exclude: idList(100, 'post ids').optional(),
  after: WpDateSchema.optional(),
  before: WpDateSchema.optional(),
  modified_after: WpDateSchema.optional(),
  modified_before: WpDateSchema.optional(),
  sticky: WpBooleanSchema.optional(),
  orderby: z.enum(['author', 'date', 'id', 'include', 'modified', 'relevance', 'slug', 'title'], 'must be one of author, date, id, include, modified, relevance, slug, title').default('date'),
  order: WpOrderSchema.default('desc'),
}).superRefine((query, context) => {
  if (query.orderby === 'include' && !query.include) context.addIssue({ code: 'custom', path: ['orderby'], message: 'You need to define an include parameter to order by include.' });
  if (query.orderby === 'relevance' && !query.search) context.addIssue({ code: 'custom', path: ['orderby'], message: 'You need to define a search term to order by relevance.' });
});
export type WpPostListQuery = z.infer<typeof WpPostListSchema>;

/**
 * `GET /users`'s parameters: `who=authors` (members who may write posts), a search of their names (never of
 * e-mail addresses), users by id (`include`, `exclude`), and the order (by name, as WordPress lists users).
 */
export const WpUserListSchema = WpPagingSchema.omit({ slug: true }).extend({
  who: z.literal('authors', 'must be authors').optional(),
  include: idList(100, 'user ids').optional(),
  exclude: idList(100, 'user ids').optional(),
  orderby: z.enum(['id', 'include', 'name', 'registered_date', 'slug'], 'must be one of id, include, name, registered_date, slug').default('name'),
  order: WpOrderSchema.default('asc'),
}).superRefine((query, context) => {
  if (query.orderby === 'include' && !query.include) context.addIssue({ code: 'custom', path: ['orderby'], message: 'You need to define an include parameter to order by include.' });
});
export type WpUserListQuery = z.infer<typeof WpUserListSchema>;
