// Lint rules for the whole repository (`npm run check`). Kept beside the tests so the top level
// stays as the product owner fixed it.
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['dist/', '.astro/', '.netlify/', '.data/', 'node_modules/', 'test-results/', 'playwright-report/', 'bench/.work/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  { languageOptions: { globals: { ...globals.node, ...globals.browser } } },
  {
    files: ['**/*.{ts,tsx,mts}'],
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The trust boundary: code that runs in the browser or the static build (everything in src/ but
    // src/lib/server/) never imports server-only modules, which hold the service-role key and privileged work.
    // It takes Zod from src/schemas/zod.ts, configured so the browser's CSP sees no eval probe.
    files: ['src/**/*.{ts,tsx,astro}'],
    ignores: ['src/lib/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: "Import `z` from src/schemas/zod.ts: it sets Zod up for the site's CSP." }],
          patterns: [
            {
              regex: '^\\.{1,2}/(.*/)?(server|netlify)/',
              message: 'Server-only code (src/lib/server/, netlify/) must not be imported by browser or build code.',
            },
          ],
        },
      ],
    },
  },
);
