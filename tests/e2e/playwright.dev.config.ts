import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run test:e2e:dev`: the spec of a new user's `npm run dev` (local-dev-publish.spec.ts), which starts
 * that server itself. It runs on its own, after the main suite: netlify dev and netlify serve both write the
 * project's .netlify/ folder (the functions they serve), so the two servers cannot run side by side.
 */
export default defineConfig({
  ...base,
  testMatch: '**/local-dev-publish.spec.ts',
  testIgnore: undefined,
  workers: 1,
  projects: [{ name: 'dev-server', use: base.projects![0]!.use }],
  webServer: undefined,
});
