import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';
import { E2E_DEPLOY_NOTIFICATION_SECRET } from './support/deploy-secret';

/** Debian's Chromium (Playwright cannot download its own browser here); CHROME_PATH overrides. */
const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  throw new Error(
    `Chromium not found at ${chromium}. Install it with \`sudo apt-get update && sudo apt-get install -y chromium fonts-liberation\`, ` +
      'or point CHROME_PATH at a Chromium or Chrome binary.',
  );
}

export const BASE_URL = process.env.E2E_BASE_URL ?? 'http://localhost:8888';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // Starts `npm run dev` itself, which must not run beside this suite's `npm run serve` (both use the
  // project's .netlify/ folder): playwright.dev.config.ts runs it afterwards (`npm run test:e2e:dev`).
  testIgnore: '**/local-dev-publish.spec.ts',
  outputDir: '../../test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // Two cores run the browser, the functions, the backend and Postgres at once: server round trips
  // (sign-in refusals wait at least 400 ms on purpose) need more than the default 5 s under load.
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.TEST_REPORT_FILE
    ? [['list'], ['json', { outputFile: process.env.TEST_REPORT_FILE }]]
    : [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  // The production-like server: the built site with its functions, as `npm run serve` gives it.
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'npm run serve',
        // Publishing in a test records a rebuild request; a real site build in the middle of the run
        // would rewrite dist/ under the server, so the quiet window outlasts the suite and no lone change
        // builds at once.
        // Deploy notifications are signed with this secret; admin-deploy-status.spec.ts signs its own.
        env: { REBUILD_QUIET_WINDOW_MS: '3600000', REBUILD_AT_ONCE: 'off', DEPLOY_NOTIFICATION_SECRET: E2E_DEPLOY_NOTIFICATION_SECRET },
        url: BASE_URL,
        reuseExistingServer: !process.env.CI,
        timeout: 300_000,
        stdout: 'pipe',
        stderr: 'pipe',
        // SIGTERM, not Playwright's default SIGKILL: the server stops netlify-cli's own process group on it
        // (netlify/local/cli.ts); a SIGKILL would leave that group serving, holding the output open.
        gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      },
});
