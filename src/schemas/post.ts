import { z } from './zod.ts';
import { blankAsUndefined, ImageUrlSchema, SlugSchema, storableString } from './common.ts';

/**
 * The limits of a post and its terms: the database's CHECK constraints (blog_posts, blog_tags,
 * blog_categories), in characters. Every surface that writes a post (the editor, the webhook, the WordPress API)
 * validates with these, so nothing reaches the database for it to refuse; tests/integration/db-catalog.test.ts
 * reads the constraints back and fails when the two differ.
 */
export const POST_LIMITS = {
  title: 200,
  slug: 200,
  excerpt: 500,
  /** The source as written and the sanitized HTML derived from it, each. */
  content: 2_000_000,
  tags: 20,
  tagName: 50,
  categoryName: 80,
  metaTitle: 200,
  metaDescription: 500,
} as const;

/** Post lifecycle: drafts are private, scheduled posts go live at published_at, published posts are public. */
export const POST_STATUSES = ['draft', 'published', 'scheduled'] as const;
export const PostStatusSchema = z.enum(POST_STATUSES);
export type PostStatus = z.infer<typeof PostStatusSchema>;

/** The languages a post's source can be written in (src/lib/post-content.ts derives the HTML). */
export const CONTENT_FORMATS = ['markdown', 'html'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

/** The tags without case-insensitive repeats, each kept in its first spelling ("SEO", "seo" → "SEO"). */
export function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => !seen.has(tag.toLowerCase()) && seen.add(tag.toLowerCase()));
}

/** Tags: trimmed, 1 to 50 characters each, case-insensitive duplicates dropped, at most 20. */
export const PostTagsSchema = z
  .array(storableString().trim().min(1).max(POST_LIMITS.tagName))
  .transform(uniqueTags)
  .pipe(z.array(z.string()).max(POST_LIMITS.tags, `At most ${POST_LIMITS.tags} tags`));

/**
 * A post as the editor and the webhook save it. Empty optional fields become null;
 * published and scheduled posts need published_at.
 */
export const PostInputSchema = z
  .object({
    title: storableString().trim().min(1, 'Title is required').max(POST_LIMITS.title),
    slug: SlugSchema,
    excerpt: blankAsUndefined(storableString().trim().max(POST_LIMITS.excerpt)).transform((v) => v ?? null),
    /** What the author wrote, kept as written (see post-content.ts); the HTML is derived from it when the post is shaped. */
    content_source: storableString().max(POST_LIMITS.content).refine((source) => source.trim() !== '', 'Content is required'),
    content_format: z.enum(CONTENT_FORMATS),
    status: PostStatusSchema.default('draft'),
    category_id: blankAsUndefined(z.uuid()).transform((v) => v ?? null),
    tags: PostTagsSchema.optional().transform((v) => (v && v.length > 0 ? v : null)),
    /** A featured image address saved before the Media Library; a chosen library image replaces it. */
    featured_image_url: blankAsUndefined(ImageUrlSchema).transform((v) => v ?? null),
    /** The featured image from the organization's Media Library (the database checks it is the same organization's). */
    featured_media_id: z.uuid().nullable().optional().transform((v) => v ?? null),
    meta_title: blankAsUndefined(storableString().trim().max(POST_LIMITS.metaTitle)).transform((v) => v ?? null),
    meta_description: blankAsUndefined(storableString().trim().max(POST_LIMITS.metaDescription)).transform((v) => v ?? null),
    published_at: z.iso.datetime({ offset: true }).nullable().optional(),
    /** In the publishing queue: the database gives the post its slot (published_at) and keeps it scheduled. */
    queued: z.boolean().optional(),
    /** Shown first on the blog's first page (WordPress's sticky posts). */
    sticky: z.boolean().optional(),
  })
  .refine((post) => post.status === 'draft' || post.published_at || post.queued, {
    message: 'Published and scheduled posts need a publication date',
    path: ['published_at'],
  })
  // One featured image: choosing one from the library retires the legacy address.
  .transform((post) => (post.featured_media_id ? { ...post, featured_image_url: null } : post));
export type PostInput = z.infer<typeof PostInputSchema>;

