// @ts-check
import { defineConfig } from 'astro/config';
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import tailwindcss from '@tailwindcss/vite';
import { blogRedirects } from './src/integrations/blog-redirects.ts';
import { inSitemap, withoutTrailingSlash } from './src/lib/sitemap.ts';

const movedPosts = blogRedirects();

// Every public page is prerendered (DESIGN.md decision 1); the Netlify adapter
// only adds redirects and headers to the static output.
export default defineConfig({
  site: process.env.SITE_URL ?? process.env.URL ?? 'http://localhost:8888',
  output: 'static',
  adapter: netlify(),
  integrations: [
    react(),
    movedPosts.integration,
    sitemap({
      filter: (page) => inSitemap(page, movedPosts.movedPaths),
      serialize: (item) => ({ ...item, url: withoutTrailingSlash(item.url) }),
    }),
  ],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
});
