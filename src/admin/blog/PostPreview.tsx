import { memo, useState } from 'react';
import PostArticle from '../../components/blog/PostArticle';
import { ledeOf } from '../../lib/excerpt';
import { creditedName, UNCATEGORIZED } from '../../lib/post-display';
import type { FeaturedMedia } from '../../lib/back-office/posts';
import { mediaPublicUrl } from '../../lib/media-library';
import { readingTimeMinutes } from '../../lib/reading-time';

/** A post as the back office has it: a stored row (the preview page) or the editor's unsaved form. */
export interface PostPreviewProps {
  title: string;
  excerpt: string | null;
  /** The article HTML (rendered from the author's source); sanitized where PostArticle renders it. */
  html: string;
  /** The featured image from the Media Library; it wins over featuredImageUrl, as on the public page. */
  featuredMedia?: Pick<FeaturedMedia, 'storage_path' | 'alt_text'> | null;
  /** A legacy featured image address (saved before the Media Library). */
  featuredImageUrl: string | null;
  /** Null for an uncategorized post. */
  categoryName: string | null;
  tags: readonly string[] | null;
  /** The author's name; null or blank credits the post to the organization, as the public page does. */
  authorName: string | null;
  /** The managed organization's name, which a post without a named author is credited to. */
  organizationName: string;
  /** Date visitors will see: the publication time, else the creation time; null (a post not saved yet) shows today. */
  date: string | null;
  /** The organization's time zone, which the site shows dates in. */
  timeZone: string;
}

/**
 * A post rendered exactly as its public page renders it (PostArticle, the article typography of article.css),
 * with the reading time the save will store (readingTimeMinutes, the one rule). The category badge is not a
 * link here: the back office knows the category's name, not its page's slug. Memoized: the editor re-renders
 * on every keystroke in any field (SEO, schedule, ...); this renders again only when one of its props changes.
 */
function PostPreview({ title, excerpt, html, featuredMedia, featuredImageUrl, categoryName, tags, authorName, organizationName, date, timeZone }: PostPreviewProps) {
  const [today] = useState(() => new Date().toISOString());
  return (
    <PostArticle
      post={{
        title: title.trim() || 'Untitled',
        excerpt: ledeOf(excerpt, html) ?? '',
        html,
        featuredImageUrl: featuredMedia ? mediaPublicUrl(featuredMedia.storage_path) : featuredImageUrl || null,
        categoryName: categoryName ?? UNCATEGORIZED,
        categorySlug: null,
        hasCategory: categoryName !== null,
        date: date ? new Date(date).toISOString() : today,
        timeZone,
        readTime: readingTimeMinutes(html),
        authorName: creditedName(authorName, organizationName),
        tags: [...(tags ?? [])],
      }}
    />
  );
}

export default memo(PostPreview);
