import type { APIRoute } from 'astro';

/**
 * /robots.txt: crawlers may read the public site, not the back office or the sign-in page (both are noindex
 * too), and find every indexable page in the sitemap (@astrojs/sitemap's index, see src/lib/site/sitemap.ts).
 */
export const GET: APIRoute = ({ site }) =>
  new Response(['User-agent: *', 'Disallow: /admin', 'Disallow: /auth', '', `Sitemap: ${new URL('/sitemap-index.xml', site).href}`, ''].join('\n'), {
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
