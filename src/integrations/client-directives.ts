/**
 * Registers our own client directives (src/client-directives/):
 * - `client:interaction`: fetch an island on the first pointerover, focusin, touchstart or click on it and hydrate
 *   it when the browser is next idle (its plain script answers until then);
 * - `client:query`: hydrate an island only when the address carries a search (`?q=`).
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

const entrypoint = (name: string) => fileURLToPath(new URL(`../client-directives/${name}.ts`, import.meta.url));

export function clientDirectives(): AstroIntegration {
  return {
    name: 'client-directives',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interaction', entrypoint: entrypoint('interaction') });
        addClientDirective({ name: 'query', entrypoint: entrypoint('query') });
      },
    },
  };
}

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when idle after the first pointerover, focusin, touchstart or click on the island (its plain script answers until then). */
    'client:interaction'?: boolean;
    /** Hydrate only when the address has a non-blank `q`; otherwise the page's `[data-blank-query]` shows. */
    'client:query'?: boolean;
  }
}
