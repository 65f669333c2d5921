// @ts-check
import { defineConfig } from 'astro/config';
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { blogRedirects } from './src/integrations/blog-redirects.ts';
import { clientDirectives } from './src/integrations/client-directives.ts';
import { pinnedPreloads } from './src/integrations/pinned-preloads.ts';
import { securityHeaders } from './src/integrations/security-headers.ts';
import { wordpressDiscovery } from './src/integrations/wordpress-discovery.ts';
import { storageRemotePattern } from './src/lib/images.ts';
import { getBlog } from './src/lib/site/posts.ts';
import { inSitemap, sitemapLastmods, withoutTrailingSlash } from './src/lib/site/sitemap.ts';
import { LOCAL_SUPABASE_PUBLIC } from './src/lib/supabase-config.ts';

const movedPosts = blogRedirects();

/** @type {Promise<Map<string, string>> | undefined} */
let lastmods;
/** The blog pages' lastmod by path, read once per build (the blog itself is read once and shared, see getBlog). */
const blogLastmods = () => (lastmods ??= getBlog().then((blog) => sitemapLastmods(blog)));

/**
 * Every public page is prerendered (static HTML: fast, and nothing to attack at request time); the Netlify adapter only adds redirects,
 * headers and its cache rules to the static output. Astro 7 marks any build with an adapter as "server" unless the adapter says it
 * builds static output, and the Netlify adapter would then bundle a catch-all `/*` SSR function (seconds of every build, and Netlify
 * would route every path our own functions serve, `/api/...`, and every unknown path to it). So the adapter is told that it builds
 * static output: no function is bundled, Netlify serves `404.html` and our functions directly. A route made on-demand fails the build
 * with its name, as there would be no function to render it.
 * @param {import('astro').AstroIntegration} adapter
 * @returns {import('astro').AstroIntegration}
 */
function prerenderedOnly(adapter) {
  const configDone = adapter.hooks['astro:config:done'];
  return {
    ...adapter,
    hooks: {
      ...adapter.hooks,
      'astro:routes:resolved': async (params) => {
        const onDemand = params.routes.filter((r) => !r.isPrerendered && r.origin !== 'internal').map((r) => r.pattern);
        if (onDemand.length) throw new Error(`Every page is prerendered; these routes are on-demand: ${onDemand.join(', ')}`);
        await adapter.hooks['astro:routes:resolved']?.(params);
      },
      'astro:config:done': (params) =>
        configDone?.({
          ...params,
          get buildOutput() {
            return params.buildOutput;
          },
          setAdapter: (features) => params.setAdapter({ ...features, adapterFeatures: { ...features.adapterFeatures, buildOutput: 'static' } }),
        }),
    },
  };
}

export default defineConfig({
  site: process.env.SITE_URL ?? process.env.URL ?? 'http://localhost:8888',
  output: 'static',
  // The stylesheet (about 8 KB gzip) goes into each page's <head>: a separate file is a render-blocking request
  // that delays the first paint on a phone by more than it saves in caching (the CSP allows inline styles).
  build: { inlineStylesheets: 'always' },
  // imageCDN off: pictures are processed at build (sharp) into dist/_astro, not resized per request by Netlify.
  adapter: prerenderedOnly(netlify({ imageCDN: false })),
  image: {
    // The build downloads and processes post images and avatars, so no page hotlinks them: the project's Storage,
    // and any https host for image URLs saved before uploads went to Storage (one that fails shows the placeholder).
    remotePatterns: [storageRemotePattern(process.env.PUBLIC_SUPABASE_URL || LOCAL_SUPABASE_PUBLIC.url), { protocol: 'https' }],
    // AVIF at sharp's effort 3, not its default 4: the seed's pictures encode in a third of the CPU time (2.2 CPU
    // seconds against 7.3 for 12 encodes) for files 10% larger (66 KB against 61 KB; a few hundred bytes a
    // picture, still the smallest of the three formats). Every picture a post brings is encoded at its first build.
    service: { entrypoint: 'astro/assets/services/sharp', config: { avif: { effort: 3 } } },
  },
  integrations: [
    react(),
    clientDirectives(),
    pinnedPreloads(),
    movedPosts.integration,
    securityHeaders(),
    wordpressDiscovery(),
    sitemap({
      filter: (page) => inSitemap(page, movedPosts.movedPaths),
      entryLimit: 45_000,
      serialize: async (item) => {
        const url = withoutTrailingSlash(item.url);
        const lastmod = (await blogLastmods()).get(new URL(url).pathname);
        return lastmod ? { ...item, url, lastmod } : { ...item, url };
      },
    }),
  ],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
});
