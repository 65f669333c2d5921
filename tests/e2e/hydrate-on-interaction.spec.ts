/**
 * A visitor who only reads pays for no React: a public page requests no island JavaScript (the React runtime
 * included) until an island is touched. The theme toggle and the newsletter work on the first click, key
 * press or tap (their plain scripts answer until the islands hydrate: islands-before-react.spec.ts), and the mobile menu (plain HTML) works throughout. Without scripts, the newsletter form posts to
 * its function and lands on the outcome page, and the address never appears in a URL.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { serviceClient } from '../../src/lib/server/service-client';
import { expect, test } from './fixtures';

const db = serviceClient();

/** Island code: the React runtime, a renderer or an island component (Astro names chunks after their modules). */
const ISLAND_CODE = /react|client\.[\w-]+\.js|ThemeToggle|NewsletterForm|ShareButton|Toaster/i;

/** Records the island scripts a page requests, from the first request on. */
function watchIslandRequests(page: Page): string[] {
  const requested: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.resourceType() === 'script' && ISLAND_CODE.test(path)) requested.push(path);
  });
  return requested;
}

const toggle = (page: Page) => page.getByRole('banner').getByRole('button', { name: /Switch to .* theme/ });
const footerForm = (page: Page) => page.getByRole('form', { name: 'Newsletter', exact: true });
const formStatus = (page: Page) => footerForm(page).locator('[aria-live="polite"]');

async function removeSubscriber(email: string) {
  await db.from('newsletter_subscribers').delete().eq('email', email);
}

test('no island JavaScript until a touch; hovering the toggle loads it and one click switches the theme', async ({ page }) => {
  const requested = watchIslandRequests(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/blog');
  await page.waitForLoadState('networkidle');
  await footerForm(page).scrollIntoViewIfNeeded();
  await page.waitForTimeout(500); // a client:visible or client:idle island would have asked by now
  expect(requested).toEqual([]);

  await page.mouse.move(0, 0);
  await toggle(page).hover();
  await expect.poll(() => requested.length).toBeGreaterThan(0);
  await toggle(page).click();
  await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');
  await expect(page.locator('html')).toHaveAttribute('data-theme-choice', 'light');
});

test('the toggle names the stored choice before its island loads, and a click before loading switches it', async ({ page }) => {
  const requested = watchIslandRequests(page);
  await page.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(toggle(page)).toHaveAccessibleName('Switch to system theme');
  expect(requested).toEqual([]);

  // A click event with no hover first (a screen reader's activation): answered at once, before the island loads.
  await toggle(page).dispatchEvent('click');
  await expect(page.locator('html')).toHaveAttribute('data-theme-choice', 'system');
  await expect(toggle(page)).toHaveAccessibleName('Switch to light theme');
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('system');
});

test('every click before the island is live counts: two quick clicks on a slow connection switch the theme twice', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  // The island's code arrives a second late, as on a slow phone: both clicks land before it is live.
  await page.route(/\/_astro\/ThemeToggle[\w.-]*\.js/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await route.continue();
  });
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  await toggle(page).click(); // system → light
  await toggle(page).click(); // light → dark
  await expect(page.locator('html')).toHaveAttribute('data-theme-choice', 'dark');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  await expect(toggle(page)).toHaveAccessibleName('Switch to system theme');
});

test('the keyboard: Tab reaches the toggle, Enter switches the theme; the newsletter subscribes by keyboard', async ({ page }) => {
  const email = `keys.${Date.now()}@example.com`;
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/about');
  await page.keyboard.press('Tab'); // skip link
  while (!(await toggle(page).evaluate((button) => button === document.activeElement))) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');

  const form = footerForm(page);
  await form.getByLabel('Email address').focus();
  await page.keyboard.type(email);
  await page.keyboard.press('Enter');
  await expect(formStatus(page)).toHaveText('Almost done: we sent a link to that address. Open it to confirm your subscription.');
  await expect(page).toHaveURL(/\/about$/);
  await removeSubscriber(email);
});

test.describe('touch', () => {
  let context: BrowserContext;
  let page: Page;
  test.beforeEach(async ({ browser, baseURL }) => {
    context = await browser.newContext({ baseURL, hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 }, colorScheme: 'light' });
    page = await context.newPage();
  });
  test.afterEach(() => context.close());

  test('one tap switches the theme, the menu opens on a tap and marks the current page, the newsletter subscribes', async () => {
    const email = `tap.${Date.now()}@example.com`;
    const requested = watchIslandRequests(page);
    await page.goto('/services');
    await page.waitForLoadState('networkidle');
    expect(requested).toEqual([]);

    await toggle(page).tap();
    await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');

    await page.getByLabel('Toggle menu').tap();
    const menu = page.locator('#mobile-menu');
    await expect(menu.getByRole('link', { name: 'Services' })).toHaveAttribute('aria-current', 'page');
    const look = (name: string) => menu.getByRole('link', { name }).evaluate((a) => `${getComputedStyle(a).color} ${getComputedStyle(a).borderLeftColor}`);
    expect(await look('Services'), 'the current page stands out in the menu').not.toBe(await look('About'));
    await menu.getByRole('link', { name: 'About' }).tap();
    await expect(page).toHaveURL(/\/about$/);
    // The page's scripts run before DOMContentLoaded; a tap before that is the form's no-script post (tested apart).
    await page.waitForLoadState('domcontentloaded');

    const form = footerForm(page);
    await form.getByLabel('Email address').tap();
    await form.getByLabel('Email address').fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).tap();
    await expect(formStatus(page)).toHaveText('Almost done: we sent a link to that address. Open it to confirm your subscription.');
    await removeSubscriber(email);
  });
});

test.describe('without scripts', () => {
  test('the newsletter posts to its function and lands on the outcome page; the address is never in a URL', async ({ browser, baseURL }) => {
    const email = `noscript.${Date.now()}@example.com`;
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    const page = await context.newPage();
    const urls: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    try {
      await page.goto('/privacy');
      await footerForm(page).getByLabel('Email address').fill(email);
      await footerForm(page).getByRole('button', { name: 'Subscribe' }).click();
      await expect(page).toHaveURL(/\/newsletter\/check-inbox$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Check your inbox');
      await expect(page.getByRole('status').filter({ hasText: 'Almost done: we sent a link to that address. Open it to confirm your subscription.' })).toBeVisible();
      const { data } = await db.from('newsletter_subscribers').select('email, organizations!inner(slug)').eq('email', email);
      expect(data).toEqual([{ email, organizations: { slug: 'scale-pro' } }]);

      await footerForm(page).getByLabel('Email address').fill('not-an-email');
      await footerForm(page).getByRole('button', { name: 'Subscribe' }).click();
      await expect(page).toHaveURL(/\/newsletter\/email-invalid$/);
      await expect(page.getByRole('alert')).toHaveText('Please enter a valid email address.');
      await expect(page.getByRole('form', { name: 'Try the newsletter again' })).toBeVisible();

      expect(urls.filter((url) => url.includes('noscript.') || url.includes('not-an-email') || url.includes('%40'))).toEqual([]);
    } finally {
      await context.close();
      await removeSubscriber(email);
    }
  });
});
