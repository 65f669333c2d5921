/**
 * Which built pages the sitemap lists: only pages search engines may index. Not the pages marked noindex
 * (legal pages, sign-in, the back office, the writing-tool guide, search, the newsletter's answer pages,
 * a client's calendar, not-found and moved pages), nor tag
 * pages (thin lists that repeat the category pages). A build test holds every built page's robots meta
 * against this list; robots.txt (src/pages/robots.txt.ts) names the sitemap and keeps crawlers out of
 * /admin and /auth. Blog pages carry their true `lastmod` (sitemapLastmods); the sitemap files are split at
 * 45,000 addresses, and the index dates each file by its newest page.
 */

import { blogListPath, categoryPath, postPath } from '../blog-urls.ts';
import { PAGE_SIZE, pageSlice } from './pagination.ts';

/** Paths (no trailing slash) and path prefixes left out of the sitemap. */
const EXCLUDED_PATHS = new Set(['/privacy', '/terms', '/404', '/service-not-found', '/post-not-found', '/blog/search', '/auth', '/admin', '/client-calendar']);
const EXCLUDED_PREFIXES = ['/blog/tag/', '/admin/', '/docs/', '/newsletter/'];

/** Does the page at `url` belong in the sitemap? `movedPaths` are the old addresses of moved posts. */
export function inSitemap(url: string, movedPaths: ReadonlySet<string> = new Set()): boolean {
  const path = new URL(url).pathname.replace(/(.)\/$/, '$1');
  if (EXCLUDED_PATHS.has(path) || movedPaths.has(path)) return false;
  return !EXCLUDED_PREFIXES.some((prefix) => `${path}/`.startsWith(prefix));
}

/** A page URL as the site links it and names it canonical: no trailing slash except for the home page. */
export function withoutTrailingSlash(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = parsed.pathname.replace(/(.)\/$/, '$1');
  return parsed.href;
}

/** What the sitemap's dates are read from: the blog's posts (newest first) and the categories it offers. */
export interface SitemapBlog {
  posts: readonly { slug: string; date: string; updatedAt: string; category: { slug: string } | null }[];
  categories: readonly { slug: string }[];
}

/**
 * Each blog page's `lastmod` by path, true to the database: a post's is its last change (its publication, or a
 * later edit), a list page's (the blog's pages, each category's pages) the newest of the posts it lists. Pages
 * not listed here (the marketing pages) carry no date rather than a made-up one.
 */
export function sitemapLastmods(blog: SitemapBlog, pageSize: number = PAGE_SIZE): Map<string, string> {
  const lastmod = (post: SitemapBlog['posts'][number]) => (post.updatedAt > post.date ? post.updatedAt : post.date);
  const dates = new Map<string, string>();
  for (const post of blog.posts) dates.set(postPath(post.slug), lastmod(post));
  const listed = (posts: SitemapBlog['posts'], pathOf: (page: number) => string) => {
    for (let page = 1; (page - 1) * pageSize < posts.length; page++) {
      const newest = pageSlice(posts, page, pageSize).map(lastmod).sort().at(-1);
      if (newest) dates.set(pathOf(page), newest);
    }
  };
  listed(blog.posts, blogListPath);
  for (const { slug } of blog.categories) {
    listed(blog.posts.filter((post) => post.category?.slug === slug), (page) => categoryPath(slug, page));
  }
  return dates;
}
