import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/**
 * `npm run test:e2e:dev`: the spec of a new user's `npm run dev` (local-dev-publish.spec.ts), which starts
 * that server itself, in a copy of the project and on a backend of its own (support/dev-server-world.ts), so
 * it runs beside the main suite.
 */
export default defineConfig({
  ...base,
  testMatch: '**/local-dev-publish.spec.ts',
  testIgnore: undefined,
  workers: 1,
  globalSetup: './support/dev-server-world.ts',
  // Not the main suite's folder: Playwright empties its output folder when a run starts, and the two run at once.
  outputDir: '../../test-results-dev',
  projects: [{ name: 'dev-server', use: base.projects![0]!.use }],
  webServer: undefined,
});
