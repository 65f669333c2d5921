/**
 * Every script is downloaded once. The served build pins scripts to their deploy (`?dpl=<id>`, Netlify's skew
 * protection); a modulepreload naming the bare file made the browser fetch lazily loaded chunks twice (the
 * back office's tabs and supabase-js, /auth's reset form), once per URL.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { signInAsAdmin } from './support/sign-in';

/** Paths of the scripts the page requests from now on, with their query, in order. */
function scriptsOf(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script' && new URL(request.url()).pathname.startsWith('/_astro/')) {
      const url = new URL(request.url());
      requested.push(url.pathname + url.search);
    }
  });
  return requested;
}

/** The files requested more than once under any URL. */
function fetchedTwice(requested: string[]): string[] {
  const files = requested.map((path) => path.split('?')[0]!);
  return [...new Set(files.filter((file, index) => files.indexOf(file) !== index))];
}

test('the back office and its lazy tabs fetch each script once', async ({ page }) => {
  await signInAsAdmin(page);
  // The signed-in page's own scripts (some load when the browser is idle) are all asked for before counting
  // starts: one still loading as the listener started was counted once for it and once for the reload.
  await page.waitForLoadState('networkidle');
  const requested = scriptsOf(page);
  await page.reload();
  await expect(page.getByTestId('system-overview')).toBeVisible();
  await page.getByRole('tab', { name: 'Users' }).click();
  await page.waitForLoadState('networkidle');
  expect(requested.some((path) => /supabase-browser/.test(path))).toBe(true);
  expect(fetchedTwice(requested)).toEqual([]);
});

test('/auth fetches each script once, the reset form loaded when opened included', async ({ page }) => {
  const requested = scriptsOf(page);
  await page.goto('/auth');
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('button', { name: 'Send Reset Email' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(requested.length).toBeGreaterThan(1);
  expect(fetchedTwice(requested)).toEqual([]);
});
