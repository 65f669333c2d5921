/**
 * WordPress's API discovery on every page: `Link: <https://site/wp-json/>; rel="https://api.w.org/"`, the header a
 * publishing tool reads to find the REST API of the site address it was given (netlify/functions/wordpress-api.mts
 * answers there). The address is the build's `site`.
 */
import { appendFile } from 'node:fs/promises';
import type { AstroIntegration } from 'astro';
import { discoveryLink } from '../lib/wordpress-discovery.ts';

export function wordpressDiscovery(): AstroIntegration {
  let site = '';
  return {
    name: 'wordpress-discovery',
    hooks: {
      'astro:config:done': ({ config }) => {
        site = new URL(config.site ?? 'http://localhost:8888').origin;
      },
      'astro:build:done': async ({ dir }) => {
        await appendFile(new URL('_headers', dir), `\n# WordPress API discovery (src/integrations/wordpress-discovery.ts)\n/*\n  Link: ${discoveryLink(site)}\n`);
      },
    },
  };
}
