/**
 * What a post card shows, and how: shared by the static list pages and the search island (which gets the
 * same data from the Pagefind index), so both render one card. Kept free of server-only imports, since
 * the island bundles it.
 */

/** Local image shown for posts without a featured image (and when a featured image fails to load). */
export const PLACEHOLDER_IMAGE = '/images/blog-placeholder.svg';

/**
 * Display default for a post without a category, shared by the public pages and the back office's previews.
 * The database files every post under a category (its default is "Uncategorized"); UNCATEGORIZED names posts of
 * snapshots read before that. A post whose category still waits for review shows no category at all.
 */
export const UNCATEGORIZED = 'Uncategorized';

/**
 * The name a post is credited to: its author's name, else the organization's. A post without an author (the
 * writing tool's "No author (the organization)", an author whose profile is gone or has no name) is the
 * organization's own post, so it is named as the organization, never as an unknown person. The one rule of
 * every place that names a post's author: the post page's byline and author card, its Article JSON-LD, the RSS
 * feed, search results, blog management's cards and the back office's previews.
 */
export function creditedName(authorName: string | null | undefined, organizationName: string): string {
  return authorName?.trim() || organizationName.trim();
}

/** At most this many tags on a card. */
export const CARD_TAG_LIMIT = 3;

import type { ProcessedPicture } from './images';

/** The fields of a post a card needs. */
export interface PostCardData {
  slug: string;
  title: string;
  excerpt: string;
  image: string;
  hasFeaturedImage: boolean;
  /**
   * The featured image processed at build (post-images.ts), which the card shows; absent or null shows the
   * placeholder (the card never loads `image` itself, so no page hotlinks it).
   */
  picture?: ProcessedPicture | null;
  /** The featured image's alt text (Media Library); empty: decorative, the card's title says it. */
  imageAlt?: string;
  /** Null while the post's category waits for review: no badge. */
  categoryName: string | null;
  /** Null for uncategorized posts (no category page to link). */
  categorySlug: string | null;
  /** ISO date. */
  date: string;
  /** The organization's time zone, which the date is shown in. */
  timeZone: string;
  readTime: number;
  authorName: string;
  tags: string[];
}

/** One formatter per time zone: `toLocaleDateString` makes a new one per call (at 10,000 posts, a tenth of the build). */
const POST_DATES = new Map<string, Intl.DateTimeFormat>();

/**
 * A date as the blog shows it ("October 28, 2026"), in the organization's time zone (a post published at 11:12 PM
 * in New York is dated that day, not the next), so the build, the search results and the editor's preview agree
 * whatever zone the reader's browser is in.
 */
export function formatPostDate(iso: string, timeZone: string): string {
  let format = POST_DATES.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone });
    POST_DATES.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

/**
 * A post page's title, for search engines and link previews: its SEO title, else its title, followed by the site's
 * name unless it already holds it (publishing tools often send an SEO title written with the site's name, which
 * the page must not repeat). The editor counts the same characters.
 */
export function postPageTitle(title: string, metaTitle: string | null | undefined, siteName: string): string {
  const base = metaTitle?.trim() || title;
  return base.toLowerCase().includes(siteName.trim().toLowerCase()) ? base : `${base} | ${siteName}`;
}
