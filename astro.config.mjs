// @ts-check
import { rm } from 'node:fs/promises';
import { defineConfig } from 'astro/config';
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { blogRedirects } from './src/integrations/blog-redirects.ts';
import { clientDirectives } from './src/integrations/client-directives.ts';
import { pinnedPreloads } from './src/integrations/pinned-preloads.ts';
import { securityHeaders } from './src/integrations/security-headers.ts';
import { storageRemotePattern } from './src/lib/images.ts';
import { inSitemap, withoutTrailingSlash } from './src/lib/site/sitemap.ts';
import { LOCAL_SUPABASE_PUBLIC } from './src/lib/supabase-config.ts';

const movedPosts = blogRedirects();

/**
 * Every public page is prerendered (static HTML: fast, and nothing to attack at request time); the Netlify adapter only adds redirects and
 * headers to the static output. Astro 7 marks any build with an adapter as "server", so the adapter also
 * emits a catch-all `/*` SSR function; Netlify then routes every path our own functions serve
 * (`/api/...`) and every unknown path to it. With no on-demand page there is nothing for it to render:
 * remove it, so Netlify serves `404.html` and our functions directly.
 */
function staticOnly() {
  /** @type {string[]} */
  let onDemand = [];
  return {
    name: 'static-only',
    hooks: {
      /** @param {{ routes: { isPrerendered: boolean; origin: string; pattern: string }[] }} params */
      'astro:routes:resolved': ({ routes }) => {
        onDemand = routes.filter((r) => !r.isPrerendered && r.origin !== 'internal').map((r) => r.pattern);
      },
      /** @param {{ logger: import('astro').AstroIntegrationLogger }} params */
      'astro:build:done': async ({ logger }) => {
        if (onDemand.length) throw new Error(`On-demand routes need the SSR function: ${onDemand.join(', ')}`);
        await rm(new URL('./.netlify/v1/functions/ssr', import.meta.url), { recursive: true, force: true });
        logger.info('Removed the SSR function: every page is prerendered');
      },
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
  adapter: netlify({ imageCDN: false }),
  image: {
    // The build downloads and processes post images and avatars, so no page hotlinks them: the project's Storage,
    // and any https host for image URLs saved before uploads went to Storage (one that fails shows the placeholder).
    remotePatterns: [storageRemotePattern(process.env.PUBLIC_SUPABASE_URL || LOCAL_SUPABASE_PUBLIC.url), { protocol: 'https' }],
  },
  integrations: [
    react(),
    clientDirectives(),
    pinnedPreloads(),
    staticOnly(),
    movedPosts.integration,
    securityHeaders(),
    sitemap({
      filter: (page) => inSitemap(page, movedPosts.movedPaths),
      serialize: (item) => ({ ...item, url: withoutTrailingSlash(item.url) }),
    }),
  ],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
});
