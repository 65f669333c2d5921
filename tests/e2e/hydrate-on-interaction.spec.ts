/**
 * Issue 20: a visitor who only reads pays for no React. The public page loads no island JavaScript (React
 * runtime included) until an island is touched; then the theme toggle works on the first click, the first
 * key press and the first tap.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** Every script the page has fetched so far, by path. */
function scriptsFetched(page: Page): string[] {
  return page.evaluate(() => performance.getEntriesByType('resource').filter((e) => (e as PerformanceResourceTiming).initiatorType === 'script' || e.name.endsWith('.js')).map((e) => new URL(e.name).pathname));
}

const toggle = (page: Page) => page.getByRole('button', { name: /Switch to .* theme/ });
const reactRuntime = (paths: string[]) => paths.filter((p) => /react|client\.[\w-]+\.js|ThemeToggle/i.test(p));

test('no island JavaScript before a touch; hovering the toggle loads it and one click switches the theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(reactRuntime(await scriptsFetched(page))).toEqual([]);
  await toggle(page).hover();
  await expect.poll(async () => reactRuntime(await scriptsFetched(page)).length).toBeGreaterThan(0);
  await toggle(page).click();
  await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');
});

test('a click before anything loaded is replayed: the first click switches the theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await toggle(page).dispatchEvent('click');
  await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');
});

test('the keyboard: Tab to the toggle, Enter switches the theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await toggle(page).focus();
  await page.keyboard.press('Enter');
  await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');
});

test.describe('touch', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
  test('one tap switches the theme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await toggle(page).tap();
    await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');
  });
});
