/**
 * /rss.xml: the organization's newest published posts (with `@astrojs/rss`). A feed reader polls the feed
 * again and again and only needs what is new, so the feed carries the newest FEED_SIZE posts, not the whole
 * blog (at 10,000 posts every post made 5 MB per poll); the sitemap still lists every public post.
 */
import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { postPath } from '../lib/blog-urls';
import { getBlog } from '../lib/site/posts';

/** Posts in the feed: the newest 50, as WordPress's default of 10 is too few for a writing tool's batches. */
const FEED_SIZE = 50;

export const GET: APIRoute = async ({ site }) => {
  const { organization, posts } = await getBlog();
  return rss({
    title: organization.settings.blog_title ?? `${organization.name} Blog`,
    description: organization.settings.blog_description ?? `Articles from ${organization.name}.`,
    site: site!,
    // What a reader reads: the post's own title and excerpt (the SEO title and description are for search
    // engines, written with the site's name and for a results page).
    items: posts.slice(0, FEED_SIZE).map((post) => ({
      title: post.title,
      link: postPath(post.slug),
      pubDate: new Date(post.date),
      description: post.excerpt,
      author: post.author.name,
      categories: [...(post.categoryName ? [post.categoryName] : []), ...post.tags],
    })),
    customData: '<language>en-us</language>',
    // Links as the site writes them (no trailing slash), matching canonical URLs and the sitemap.
    trailingSlash: false,
  });
};
