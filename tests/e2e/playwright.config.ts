import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';
import { SERVED_SITE_ENV, SERVED_SITE_URL } from './support/served-site';

/**
 * Debian's Chromium headless shell (package chromium-headless-shell), else its full Chromium; CHROME_PATH
 * overrides. Playwright cannot download its own browser here. The shell is the browser without its window
 * system, as Playwright's own headless runs use: the same engine, renderer and DevTools protocol, at about two
 * thirds of the full browser's CPU for the same tests (48 tests on this machine: 145 CPU seconds against 214,
 * 122 s against 152 s), which is most of what the suite spends on two cores.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromium = process.env.CHROME_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
if (!existsSync(chromium)) {
  throw new Error(
    `Chromium not found at ${chromium}. Install it with \`apt-get update && apt-get install -y chromium-headless-shell fonts-liberation\`, ` +
      'or point CHROME_PATH at a Chromium or Chrome binary.',
  );
}

export const BASE_URL = process.env.E2E_BASE_URL ?? SERVED_SITE_URL;

/**
 * The suite runs in two lanes side by side, each one file after another (two cores: a browser per lane; a
 * third lane measured slower, 14.7 minutes against 13.1, every test slowed by the contention), each near half
 * the time. The publishing lane holds every spec that publishes to Scale Pro or reads what its publishing
 * changes: the tests that publish and rebuild the site (a build replaces the pages), the blog's lists, search
 * and posts, the deploy status, the writing tool's deliveries, the organization's settings and the audit log
 * they write to (counts and lists that a publish in the other lane would change). The other lane holds the
 * specs whose pages and data no publish changes: users, sessions, invitations, media, organizations of their
 * own, and the site's pages apart from the blog (the same in every build).
 */
const PUBLISHING_LANE = [
  '**/site-pages.spec.ts', '**/site-newsletter.spec.ts', '**/blog-*.spec.ts', '**/post-views.spec.ts', '**/webhook-*.spec.ts',
  '**/admin-blog.spec.ts', '**/admin-blog-editor.spec.ts', '**/admin-blog-taxonomy.spec.ts', '**/admin-deploy-status.spec.ts',
  '**/admin-settings.spec.ts', '**/admin-security.spec.ts', '**/admin-security-more.spec.ts',
  '**/admin-blog-preview-sanitized.spec.ts', '**/admin-publishing-queue.spec.ts',
  // Uploads through the WordPress API: a Media Library file and an entry in the audit log the settings read.
  '**/api-body-limit.spec.ts',
];
/** Starts `npm run dev` itself, in a world of its own (support/dev-server-world.ts): `npm run test:e2e:dev` runs it. */
const DEV_SERVER_SPEC = '**/local-dev-publish.spec.ts';

export default defineConfig({
  testDir: '.',
  testMatch: ['**/*.spec.ts', '**/*.setup.ts'],
  // playwright.dev.config.ts runs the dev server's spec (`npm run test:e2e:dev`).
  testIgnore: DEV_SERVER_SPEC,
  outputDir: '../../test-results',
  fullyParallel: false,
  workers: 2,
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
    // A failed test keeps a screenshot where it failed and its page's accessibility snapshot (error-context.md).
    // Traces are recorded only with E2E_TRACE=on (each action's DOM snapshot, the network and the console, kept
    // for failed tests): recording them for every test cost a tenth of the suite's time (a sample of 38 tests:
    // 184 s with them, 164 s without), and a failure is replayed with them by running its spec again.
    trace: process.env.E2E_TRACE === 'on' ? { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: true } : 'off',
    screenshot: 'only-on-failure',
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
  projects: [
    // The seed admin signs in once through /auth; tests that only need to be that admin start from it.
    { name: 'setup', testMatch: '**/*.setup.ts', use: { ...devices['Desktop Chrome'] } },
    { name: 'publishing', testMatch: PUBLISHING_LANE, dependencies: ['setup'], workers: 1, use: { ...devices['Desktop Chrome'] } },
    { name: 'other', testMatch: '**/*.spec.ts', testIgnore: [...PUBLISHING_LANE, DEV_SERVER_SPEC], dependencies: ['setup'], workers: 1, use: { ...devices['Desktop Chrome'] } },
  ],
  // The production-like server: the built site with its functions, as `npm run serve` gives it (support/served-site.ts).
  // `npm test` starts it ahead of the suite and passes E2E_BASE_URL.
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'npm run serve',
        env: SERVED_SITE_ENV,
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
