import { z } from './zod.ts';
import { OrganizationSchema } from './organization.ts';
import { DEFAULT_TIME_ZONE } from './publishing-queue.ts';

/**
 * The blog rows the public site reads with the anon key, as PostgREST returns them (snake_case, nulls
 * for empty columns). The build validates what it read, so a schema change fails the build with a clear
 * message instead of publishing broken pages, and the last good snapshot is checked the same way.
 */

/** `blog_categories` columns the site shows. */
export const CategoryRowSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  description: z.string().nullable(),
});
export type CategoryRow = z.infer<typeof CategoryRowSchema>;

/**
 * The featured image from the Media Library (its `media` row, readable by anon for published posts' featured
 * images), with `url`, its public address in the storage bucket, added by the reader.
 */
export const FeaturedMediaRowSchema = z.object({
  url: z.url(),
  alt_text: z.string(),
  width: z.number().int().positive().nullable(),
  height: z.number().int().positive().nullable(),
});
export type FeaturedMediaRow = z.infer<typeof FeaturedMediaRowSchema>;

/** `blog_posts` columns the site shows (published posts only; `content` is sanitized HTML). */
export const PostRowSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  title: z.string(),
  excerpt: z.string().nullable(),
  content: z.string(),
  category_id: z.uuid().nullable(),
  author_id: z.uuid().nullable(),
  tags: z.array(z.string()).nullable(),
  /** A hand-typed image address saved before the Media Library; featured_media wins over it. */
  featured_image_url: z.string().nullable(),
  /** Absent from snapshots written before the Media Library: none then. */
  featured_media: FeaturedMediaRowSchema.nullable().default(null),
  meta_title: z.string().nullable(),
  meta_description: z.string().nullable(),
  /** Publication time; null only for drafts, which the site never reads. */
  published_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** First on the blog's own list. Absent from snapshots written before sticky posts: not sticky. */
  sticky: z.boolean().default(false),
});
export type PostRow = z.infer<typeof PostRowSchema>;

/** The `profiles` columns granted to anon: the public author card. */
export const AuthorRowSchema = z.object({
  id: z.uuid(),
  full_name: z.string().nullable(),
  bio: z.string().nullable(),
  avatar_url: z.string().nullable(),
  author_title: z.string().nullable(),
  author_website: z.string().nullable(),
});
export type AuthorRow = z.infer<typeof AuthorRowSchema>;

/** `blog_post_redirects`: an old slug that now points at a post. */
export const RedirectRowSchema = z.object({
  old_slug: z.string(),
  post_id: z.uuid(),
});
export type RedirectRow = z.infer<typeof RedirectRowSchema>;

/** `blog_category_redirects`: the old slug of a renamed or merged category and the category it now is. */
export const CategoryRedirectRowSchema = z.object({
  old_slug: z.string(),
  category_id: z.uuid(),
});
export type CategoryRedirectRow = z.infer<typeof CategoryRedirectRowSchema>;

/** Everything the build reads for one organization's blog: what a snapshot stores. */
export const BlogRowsSchema = z.object({
  organization: OrganizationSchema,
  categories: z.array(CategoryRowSchema),
  posts: z.array(PostRowSchema),
  authors: z.array(AuthorRowSchema),
  redirects: z.array(RedirectRowSchema),
  /** Absent from snapshots written before categories could be renamed: none then. */
  category_redirects: z.array(CategoryRedirectRowSchema).default([]),
  /** The organization's time zone, which dates are shown in; absent from older snapshots: the queue's default. */
  time_zone: z.string().min(1).default(DEFAULT_TIME_ZONE),
});
export type BlogRows = z.infer<typeof BlogRowsSchema>;
