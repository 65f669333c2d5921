/**
 * Real 301s for the old addresses of posts whose slug changed (table `blog_post_redirects`). The build
 * also leaves a meta-refresh page at each old address (src/pages/blog/[slug].astro); on Netlify a static
 * file wins over a plain redirect rule, so these rules are forced (`301!`) to answer with the 301 first.
 * The moved paths are kept for the sitemap, which must not list them.
 */
import { appendFile } from 'node:fs/promises';
import type { AstroIntegration } from 'astro';
import { postPath } from '../lib/blog-urls.ts';
import { getBlog, type BlogRedirect } from '../lib/posts.ts';

/** `_redirects` lines for moved posts. */
export function netlifyRedirectRules(redirects: readonly BlogRedirect[]): string {
  return redirects.map(({ oldSlug, slug }) => `${postPath(oldSlug)} ${postPath(slug)} 301!\n`).join('');
}

/** The integration, and the old paths it found (filled during `astro build`). */
export function blogRedirects(): { integration: AstroIntegration; movedPaths: Set<string> } {
  const movedPaths = new Set<string>();
  let redirects: BlogRedirect[] = [];
  const integration: AstroIntegration = {
    name: 'blog-redirects',
    hooks: {
      'astro:config:setup': async ({ command }) => {
        if (command !== 'build') return;
        redirects = (await getBlog()).redirects;
        for (const { oldSlug } of redirects) movedPaths.add(postPath(oldSlug));
      },
      'astro:build:done': async ({ dir, logger }) => {
        if (redirects.length === 0) return;
        await appendFile(new URL('_redirects', dir), `\n# Moved blog posts\n${netlifyRedirectRules(redirects)}`);
        logger.info(`Wrote ${redirects.length} moved-post redirect(s) to _redirects`);
      },
    },
  };
  return { integration, movedPaths };
}
