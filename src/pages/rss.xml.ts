/** /rss.xml: the organization's published posts, newest first (with `@astrojs/rss`). */
import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { postPath } from '../lib/blog-urls';
import { getBlog } from '../lib/posts';

export const GET: APIRoute = async ({ site }) => {
  const { organization, posts } = await getBlog();
  return rss({
    title: organization.settings.blog_title ?? `${organization.name} Blog`,
    description: organization.settings.blog_description ?? `Articles from ${organization.name}.`,
    site: site!,
    items: posts.map((post) => ({
      title: post.title,
      link: postPath(post.slug),
      pubDate: new Date(post.date),
      description: post.excerpt,
      author: post.author.name,
      categories: [post.categoryName, ...post.tags],
    })),
    customData: '<language>en-us</language>',
    // Links as the site writes them (no trailing slash), matching canonical URLs and the sitemap.
    trailingSlash: false,
  });
};
