/**
 * On Netlify (DEPLOY_ID set at build) the adapter pins every script to its deploy with `?dpl=<id>` (skew
 * protection), imports included, but the modulepreload links Vite adds before a dynamic import (the admin's
 * tabs, /auth's lazy forms) name the bare file: the browser then downloaded each such chunk twice, once per
 * URL (about 70 KB more on /admin). This makes the preloads ask for the same pinned URL the import does.
 */
import type { AstroIntegration } from 'astro';

/** `files` with the deploy's query, as the adapter writes it; unchanged when the build has no deploy id. */
export function pinnedToDeploy(files: string[], deployId = process.env.DEPLOY_ID): string[] {
  return deployId ? files.map((file) => `${file}?${new URLSearchParams({ dpl: deployId })}`) : files;
}

export function pinnedPreloads(): AstroIntegration {
  return {
    name: 'pinned-preloads',
    hooks: {
      // Astro sets build.modulePreload itself; this hook's config is merged over it.
      'astro:build:setup': ({ updateConfig }) => {
        updateConfig({ build: { modulePreload: { resolveDependencies: (_file, deps) => pinnedToDeploy(deps) } } });
      },
    },
  };
}
