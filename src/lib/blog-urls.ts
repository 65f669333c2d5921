/**
 * Addresses of the blog's pages: the one place that knows the URL scheme, so pages, cards, the sitemap,
 * the RSS feed and the search island link the same way. Tags are free text ("Google Ads"); their
 * addresses use the shared `slugify`, so tags that differ only in case or punctuation share one page.
 */
import { slugify } from './slug.ts';

/** The blog's home, page 1 of the latest articles. */
export const BLOG_PATH = '/blog';
/** The search page; the query goes in `q`. */
export const SEARCH_PATH = '/blog/search';

/** Appends `/page/{n}` for pages after the first: page 1 of every list lives at the list's own address. */
function paged(base: string, page: number): string {
  return page > 1 ? `${base}/page/${page}` : base;
}

/** `/blog` or `/blog/page/{n}`. */
export function blogListPath(page = 1): string {
  return paged(BLOG_PATH, page);
}

/** `/blog/category/{slug}` (+ `/page/{n}`). */
export function categoryPath(categorySlug: string, page = 1): string {
  return paged(`${BLOG_PATH}/category/${categorySlug}`, page);
}

/** The URL segment of a tag; empty when the tag has no letters or digits (such a tag gets no page). */
export function tagSlug(tag: string): string {
  return slugify(tag);
}

/** `/blog/tag/{tag-slug}` (+ `/page/{n}`). */
export function tagPath(tag: string, page = 1): string {
  return paged(`${BLOG_PATH}/tag/${tagSlug(tag)}`, page);
}

/** `/blog/{slug}`. */
export function postPath(postSlug: string): string {
  return `${BLOG_PATH}/${postSlug}`;
}

/**
 * Where the search box goes: the search page with the trimmed, encoded query, or null for a blank or
 * whitespace-only query (which does nothing).
 */
export function searchPath(query: string): string | null {
  const trimmed = query.trim();
  return trimmed ? `${SEARCH_PATH}?q=${encodeURIComponent(trimmed)}` : null;
}

/** The search text of a search page URL: `q`, trimmed; empty when absent or blank. */
export function searchQuery(search: string): string {
  return (new URLSearchParams(search).get('q') ?? '').trim();
}

/**
 * The back-office path /auth may return to after sign-in (`?next=`): /admin, a blog management page, the
 * Media Library, one's profile, the sites board, or the login-approval page with its query (a tool's request, which must survive
 * the sign-in); null for anything else (another site, another query string), so the link cannot send anyone
 * elsewhere.
 */
export function backOfficeReturnPath(next: string | null): string | null {
  return next && /^\/admin(?:\/blog(?:\/[\w\-/]*)?|\/media|\/profile|\/sites|\/authorize-application(?:\?[^#\s]*)?)?$/.test(next) ? next : null;
}
