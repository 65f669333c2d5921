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
    rules: {
      ...reactHooks.configs.recommended.rules,
      // useLoad (src/admin/use-load.ts) takes dependencies as useEffect does: checked the same way.
      'react-hooks/exhaustive-deps': ['error', { additionalHooks: '^useLoad$' }],
    },
  },
  // The trust boundary: code that runs in the browser or the static build (everything in src/ but
  // src/lib/server/) never imports server-only modules, which hold the service-role key and privileged work.
  // It takes Zod from src/schemas/zod.ts, configured so the browser's CSP sees no eval probe.
  fence(['src/**/*.{ts,tsx,astro}'], []),
  // The site (what the build reads) and the back office (what the signed-in browser uses) stay out of each
  // other's folders; what both need lives at the top of src/lib/.
  fence(['src/lib/site/**', 'src/components/**', 'src/integrations/**', 'src/layouts/**'], [
    { regex: '^\\.{1,2}/(.*/)?back-office/', message: 'Site code must not import the back office (src/lib/back-office/); move what both need to the top of src/lib/.' },
  ]),
  fence(['src/lib/back-office/**', 'src/admin/**'], [
    { regex: '^\\.{1,2}/(.*/)?lib/site/|^\\.\\./site/', message: 'Back-office code must not import the site (src/lib/site/); move what both need to the top of src/lib/.' },
  ]),
);

/** `no-restricted-imports` for `files` (server code excepted): Zod only through src/schemas/zod.ts, no server-only modules, and `more`. */
function fence(files, more) {
  return {
    files,
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
            ...more,
          ],
        },
      ],
    },
  };
}
