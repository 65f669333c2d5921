// Lint rules for the whole repository (`npm run check`). Kept beside the tests so the top level
// stays as the product owner fixed it.
import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The site's folders: the build's reads, its pages and components, and the code visitors' browsers run. */
const SITE = [
  'src/lib/site/**', 'src/components/**', 'src/integrations/**', 'src/layouts/**', 'src/pages/**', 'src/islands/**',
  'src/scripts/**', 'src/client-directives/**', 'src/stores/**',
];
/** The back office's folders. */
const BACK_OFFICE = ['src/lib/back-office/**', 'src/admin/**'];
/** The pages that open the back office: they may import from both sides. */
const DOORS = ['src/pages/admin/**', 'src/pages/auth.astro'];
const BACK_OFFICE_IMPORT = { regex: '^\\.{1,2}/(.*/)?back-office/', message: 'Site code must not import the back office (src/lib/back-office/); move what both need to the top of src/lib/.' };
const ADMIN_IMPORT = { regex: '^\\.{1,2}/(.*/)?admin/', message: 'Site code must not import the back office (src/admin/); only its pages (src/pages/admin/, src/pages/auth.astro) open it.' };
const SITE_IMPORT = { regex: '^\\.{1,2}/(.*/)?lib/site/|^\\.\\./site/', message: 'Back-office code must not import the site (src/lib/site/); move what both need to the top of src/lib/.' };

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
  // The site (what the build reads and what visitors' browsers run) and the back office (what the signed-in
  // browser uses) stay out of each other's folders; what both need lives at the top of src/lib/ (or src/stores/
  // for the browser state both share: the theme, the toast). Every browser folder is on one side or the other.
  // The doors between them are the pages that open the back office: /admin/* and the sign-in page /auth.
  fence(SITE, [BACK_OFFICE_IMPORT, ADMIN_IMPORT], DOORS),
  fence(BACK_OFFICE, [SITE_IMPORT], DOORS),
  // Server code serves the functions: it never imports the build's or the browser's code.
  {
    files: ['src/lib/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^\\.\\./(site|back-office)/|^\\.\\./\\.\\./(admin|islands|stores|scripts|components|layouts|pages|client-directives|integrations)/', message: 'Server code must not import the build\'s or the browser\'s code (src/lib/site/, src/lib/back-office/, src/admin/, ...); move what both need to the top of src/lib/.' },
          ],
        },
      ],
    },
  },
);

/** `no-restricted-imports` for `files` (server code and `ignores` excepted): Zod only through src/schemas/zod.ts, no server-only modules, and `more`. */
function fence(files, more, ignores = []) {
  return {
    files,
    ignores: ['src/lib/server/**', ...ignores],
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
