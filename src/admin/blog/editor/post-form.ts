import type { Publication } from '../../../lib/back-office/post-actions';
import type { AdminPost, FeaturedMedia, PostDraft } from '../../../lib/back-office/posts';
import { toZonedInput } from '../../../lib/back-office/zoned-time';
import { slugify } from '../../../lib/slug';
import type { ContentFormat } from '../../../schemas/post';

/** The editor's form: the post's fields as the inputs hold them. */
export interface PostForm {
  title: string;
  slug: string;
  excerpt: string;
  source: string;
  format: ContentFormat;
  category_id: string;
  tags: string[];
  /** A legacy featured image address: shown with Remove until an image from the library replaces it. */
  featured_image_url: string;
  featured_media: FeaturedMedia | null;
  meta_title: string;
  meta_description: string;
  sticky: boolean;
  scheduleAt: string;
}

/** The form of a saved post (or of a new one), times in the organization's time zone. */
export function formOf(post: AdminPost | null, timeZone: string): PostForm {
  return {
    title: post?.title ?? '',
    slug: post?.slug ?? '',
    excerpt: post?.excerpt ?? '',
    source: post?.content_source ?? '',
    format: post?.content_format ?? 'markdown',
    category_id: post?.category_id ?? '',
    tags: post?.tags ?? [],
    featured_image_url: post?.featured_image_url ?? '',
    featured_media: post?.featured_media ?? null,
    meta_title: post?.meta_title ?? '',
    meta_description: post?.meta_description ?? '',
    sticky: post?.sticky ?? false,
    scheduleAt: post?.status === 'scheduled' && post.published_at ? toZonedInput(post.published_at, timeZone) : '',
  };
}

/**
 * The fields of `form` that differ from `initial`: what this editor changed. Only these are kept in the browser
 * and come back over the post, so a newer version loaded meanwhile (another tab's save) keeps every field this
 * editor did not touch.
 */
export function changedFields(form: PostForm, initial: PostForm): Partial<PostForm> {
  return Object.fromEntries(Object.entries(form).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(initial[key as keyof PostForm])));
}

/** What is saved from the form, with the publication the chosen action decided (status and time). */
export function draftOf(form: PostForm, publication: Publication): PostDraft {
  return {
    title: form.title,
    slug: form.slug || slugify(form.title),
    excerpt: form.excerpt,
    content_source: form.source,
    content_format: form.format,
    category_id: form.category_id,
    tags: form.tags,
    featured_image_url: form.featured_image_url,
    featured_media_id: form.featured_media?.id ?? null,
    meta_title: form.meta_title,
    meta_description: form.meta_description,
    sticky: form.sticky,
    ...publication,
  };
}
