/**
 * Registers `client:interaction` (src/client-directives/interaction.ts): hydrate an island on the first
 * pointerover, focusin or touchstart on it, replaying a click that came first.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export function clientInteraction(): AstroIntegration {
  return {
    name: 'client-interaction',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({ name: 'interaction', entrypoint: fileURLToPath(new URL('../client-directives/interaction.ts', import.meta.url)) });
      },
    },
  };
}

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate on the first pointerover, focusin or touchstart on the island (a click before that is replayed). */
    'client:interaction'?: boolean;
  }
}
