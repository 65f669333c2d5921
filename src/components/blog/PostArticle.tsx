import type { ReactNode } from 'react';
import { categoryPath, tagPath, tagSlug } from '../../lib/blog-urls';
import { IMAGE_SIZES, isRemoteImageUrl, type ProcessedPicture } from '../../lib/images';
import { formatPostDate, type PostCardData } from '../../lib/post-display';
import { sanitizeArticleHtml } from '../../lib/sanitize-html';
import PostPicture from './PostPicture';

/** What the article shows: the public page's post, the admin preview's and the editor's draft alike. */
export interface PostArticleData {
  title: string;
  /**
   * The lede shown under the title when not blank: a hand-written excerpt the body does not begin with
   * (excerpt.ts's ledeOf, which the page and the previews apply before they get here).
   */
  excerpt: string;
  /** Article HTML from anywhere: sanitized here, where it is rendered. */
  html: string;
  /**
   * The featured image's URL as saved, shown unprocessed: the back office's previews only. Null (or anything that
   * is not an http(s) URL) shows the placeholder.
   */
  featuredImageUrl: string | null;
  /** The featured image processed at build (the public page): wins over `featuredImageUrl`. */
  featuredPicture?: ProcessedPicture | null;
  /** The featured image's alt text from the Media Library; empty: decorative. */
  featuredImageAlt?: string;
  /** Null while the post's category waits for review: no badge. */
  categoryName: string | null;
  /** The category page's slug; null for an uncategorized post, or when the slug is not known (a preview). */
  categorySlug: string | null;
  /** Whether the post has a category: an uncategorized post's badge is grey, a category's is the primary colour. */
  hasCategory: boolean;
  /** ISO date shown on the post. */
  date: string;
  /** The organization's time zone, which the date is shown in. */
  timeZone: string;
  readTime: number;
  authorName: string;
  tags: string[];
}

interface Props {
  post: PostArticleData;
  /**
   * The post's card as Pagefind metadata: marks the article as the page's search body (the public page only,
   * so search results carry the card's data).
   */
  searchCard?: PostCardData;
  /** Shown at the end of the tags row (the public page's Share button). */
  actions?: ReactNode;
}

/**
 * A post as visitors read it: featured image, meta line (category, date, reading time, author), title,
 * excerpt, the sanitized body (typography in src/styles/article.css) and the tag chips. The one article of the
 * public post page, the admin preview and the editor's live preview, so a preview is the published result. A
 * React component without state or effects: the post page renders it to static HTML with no client directive
 * (no JavaScript), the back office renders it in the browser.
 */
export default function PostArticle({ post, searchCard, actions }: Props) {
  const tags = post.tags.filter((tag) => tagSlug(tag) !== '');
  const search = searchCard ? { 'data-pagefind-body': '', 'data-pagefind-meta': 'card[data-card]', 'data-card': JSON.stringify(searchCard) } : {};
  const categoryBadge = 'rounded-full px-3 py-1 font-semibold';
  return (
    <>
      <article {...search}>
        <div data-pagefind-ignore="">
          <PostPicture
            picture={post.featuredPicture}
            url={isRemoteImageUrl(post.featuredImageUrl) ? post.featuredImageUrl : null}
            alt={post.featuredImageAlt}
            sizes={IMAGE_SIZES.article}
            width={1200}
            height={675}
            eager
            className="aspect-video h-auto w-full rounded-2xl bg-muted object-cover"
          />
        </div>
        <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-muted-foreground" data-pagefind-ignore="">
          {post.categoryName === null ? null : post.categorySlug ? (
            <a href={categoryPath(post.categorySlug)} className={`${categoryBadge} bg-primary/10 text-primary hover:underline`}>
              {post.categoryName}
            </a>
          ) : (
            <span className={post.hasCategory ? `${categoryBadge} bg-primary/10 text-primary` : `${categoryBadge} bg-muted`}>{post.categoryName}</span>
          )}
          <time dateTime={post.date}>{formatPostDate(post.date, post.timeZone)}</time>
          <span>{post.readTime} min read</span>
          <span>By {post.authorName}</span>
        </div>
        <h1 className="mt-4 text-3xl font-extrabold tracking-tight md:text-5xl" data-pagefind-meta="title">
          {post.title}
        </h1>
        {post.excerpt.trim() && <p className="mt-4 text-xl text-muted-foreground">{post.excerpt}</p>}
        <div className="article-body mt-8" data-testid="post-body" data-post-content="" dangerouslySetInnerHTML={{ __html: sanitizeArticleHtml(post.html) }} />
      </article>
      {(tags.length > 0 || actions) && (
        <div className="mt-10 flex flex-wrap items-center justify-between gap-4 border-t border-border pt-6">
          {tags.length > 0 && (
            <ul className="flex flex-wrap gap-2" aria-label="Tags">
              {tags.map((tag) => (
                <li key={tag}>
                  <a href={tagPath(tag)} className="inline-block rounded-full border border-border px-3 py-1 text-sm hover:bg-muted">
                    {tag}
                  </a>
                </li>
              ))}
            </ul>
          )}
          {actions}
        </div>
      )}
    </>
  );
}
