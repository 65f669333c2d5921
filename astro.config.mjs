// @ts-check
import { defineConfig } from 'astro/config';
import netlify from '@astrojs/netlify';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';

// Every public page is prerendered (DESIGN.md decision 1); the Netlify adapter
// only adds redirects and headers to the static output.
export default defineConfig({
  site: process.env.SITE_URL ?? process.env.URL ?? 'http://localhost:8888',
  output: 'static',
  adapter: netlify(),
  integrations: [react()],
  vite: { plugins: [tailwindcss()] },
  devToolbar: { enabled: false },
});
