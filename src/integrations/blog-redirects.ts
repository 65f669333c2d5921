/**
 * Real 301s for the old addresses of posts whose slug changed (table `blog_post_redirects`) and of renamed or
 * merged categories (`blog_category_redirects`). The build also leaves a meta-refresh page at each old
 * address (src/pages/blog/[slug].astro, src/pages/blog/category/[category]/index.astro); on Netlify a static
 * file wins over a plain redirect rule, so these rules are forced (`301!`) to answer with the 301 first.
 * The moved paths are kept for the sitemap, which must not list them. `/blog/page/1` answers a 301 to `/blog`.
 */
import { appendFile } from 'node:fs/promises';
import type { AstroIntegration } from 'astro';
import { BLOG_PATH, categoryPath, postPath } from '../lib/blog-urls.ts';
import { getBlog } from '../lib/site/posts.ts';
import { type BlogRedirect } from '../lib/site/blog-model.ts';

/** `_redirects` lines for moved posts (or, with `categoryPath`, moved categories). */
export function netlifyRedirectRules(redirects: readonly BlogRedirect[], pathOf: (slug: string) => string = postPath): string {
  return redirects.map(({ oldSlug, slug }) => `${pathOf(oldSlug)} ${pathOf(slug)} 301!\n`).join('');
}

/** The integration, and the old paths it found (filled during `astro build`). */
export function blogRedirects(): { integration: AstroIntegration; movedPaths: Set<string> } {
  const movedPaths = new Set<string>();
  let redirects: BlogRedirect[] = [];
  let categoryRedirects: BlogRedirect[] = [];
  const integration: AstroIntegration = {
    name: 'blog-redirects',
    hooks: {
      'astro:config:setup': async ({ command }) => {
        if (command !== 'build') return;
        ({ redirects, categoryRedirects } = await getBlog());
        for (const { oldSlug } of redirects) movedPaths.add(postPath(oldSlug));
        for (const { oldSlug } of categoryRedirects) movedPaths.add(categoryPath(oldSlug));
      },
      'astro:build:done': async ({ dir, logger }) => {
        // The list's first page is the blog itself (pagination links never name page 1; people and old links may).
        await appendFile(new URL('_redirects', dir), `\n# The first page of the blog list\n${BLOG_PATH}/page/1 ${BLOG_PATH} 301!\n`);
        if (redirects.length > 0) {
          await appendFile(new URL('_redirects', dir), `\n# Moved blog posts\n${netlifyRedirectRules(redirects)}`);
          logger.info(`Wrote ${redirects.length} moved-post redirect(s) to _redirects`);
        }
        if (categoryRedirects.length > 0) {
          await appendFile(new URL('_redirects', dir), `\n# Moved blog categories\n${netlifyRedirectRules(categoryRedirects, categoryPath)}`);
          logger.info(`Wrote ${categoryRedirects.length} moved-category redirect(s) to _redirects`);
        }
      },
    },
  };
  return { integration, movedPaths };
}
