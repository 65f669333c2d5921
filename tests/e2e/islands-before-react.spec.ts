/**
 * The first interaction answers before React arrives, under Lighthouse's mobile conditions (150 ms round trip,
 * 1.6 Mbps down, CPU slowed 4×). No timing is asserted here (the benchmark times it, bench/first-interaction.ts;
 * a busy machine would make a timed test flaky): instead the island code (React, its renderer, the island
 * components) is held back at the network until the first interaction's visible result has been checked, so
 * that result can only come from the server's markup and its plain script. Then the code is let through, the
 * island hydrates, and it behaves the same from the state the plain script left: the theme's cycle order,
 * storage key and labels, one toggle per click even when the click lands during hydration, the copied link,
 * the booking dialog, the newsletter's answer in place. (The search box's is in blog-search.spec.ts, whose lane
 * no rebuild runs beside: a rebuild swapped under a search replaces the index it reads.)
 */
import type { Page } from '@playwright/test';
import { serviceClient } from '../../src/lib/server/service-client';
import { emulateMobileConditions } from '../fixtures/mobile-conditions';
import { expect, test } from './fixtures';
import { holdIslandCode } from './support/held-island-code';

/**
 * Errors the page's scripts reported (a hydration mismatch is one): none may occur. The browser's own line for
 * an answer with an error status (the newsletter's 400 for a missing address) is not one.
 */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && !message.text().startsWith('Failed to load resource') && errors.push(message.text())));
  return errors;
}

const toggle = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Switch to .* theme$/ });
/** The `astro-island` around `selector`; `ssr` is on it until it has hydrated. */
const islandOf = (page: Page, selector: string) => page.locator('astro-island').filter({ has: page.locator(selector) });
const choice = (page: Page) => page.evaluate(() => [document.documentElement.dataset.themeChoice, localStorage.getItem('theme'), document.documentElement.classList.contains('dark')]);

test.beforeEach(async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await emulateMobileConditions(page);
});

test('the theme toggle cycles before React arrives, and the hydrated island carries on from there', async ({ page }) => {
  const errors = pageErrors(page);
  const code = await holdIslandCode(page);
  await page.goto('/about');

  await toggle(page).click();
  expect(await choice(page)).toEqual(['light', 'light', false]);
  await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');
  await toggle(page).click();
  expect(await choice(page)).toEqual(['dark', 'dark', true]);
  await expect(toggle(page)).toHaveAccessibleName('Switch to system theme');
  // Answered by the server's markup: the island's code was asked for (the first touch) and is still held.
  expect(code.held()).toBeGreaterThan(0);
  await expect(islandOf(page, '[data-theme-toggle]')).toHaveAttribute('ssr');

  await code.release();
  await expect(islandOf(page, '[data-theme-toggle]')).not.toHaveAttribute('ssr');
  await toggle(page).click();
  expect(await choice(page)).toEqual(['system', 'system', false]);
  await expect(toggle(page)).toHaveAccessibleName('Switch to light theme');
  await toggle(page).click();
  expect(await choice(page)).toEqual(['light', 'light', false]);
  await expect(toggle(page)).toHaveAccessibleName('Switch to dark theme');
  expect(errors).toEqual([]);
});

test('a click that lands while the toggle hydrates switches the theme once', async ({ page }) => {
  const errors = pageErrors(page);
  const code = await holdIslandCode(page);
  await page.goto('/');
  await toggle(page).hover();
  await expect.poll(code.held).toBeGreaterThan(0);
  // Clicked in the task where Astro starts React's hydration, before React has hydrated the button.
  const clickedWhileHydrating = page.evaluate(() => new Promise<string | undefined>((resolve) => {
    const button = document.querySelector<HTMLButtonElement>('[data-theme-toggle]')!;
    button.closest('astro-island')!.addEventListener('astro:hydrate', () => {
      button.click();
      resolve(document.documentElement.dataset.themeChoice);
    }, { once: true });
  }));
  await code.release();
  expect(await clickedWhileHydrating).toBe('light');
  expect(await choice(page)).toEqual(['light', 'light', false]);

  // Clicks in quick succession once hydrated: one step each.
  for (const expected of ['dark', 'system', 'light'] as const) {
    await toggle(page).click();
    expect((await choice(page))[0]).toBe(expected);
  }
  expect(errors).toEqual([]);
});

test('clicks while the code of the toggle arrives each switch the theme once', async ({ page }) => {
  const code = await holdIslandCode(page);
  await page.goto('/blog');
  await toggle(page).hover();
  await expect.poll(code.held).toBeGreaterThan(0);
  const released = code.release();
  // Whether each click lands before, during or after hydration, it is one step of the cycle.
  for (const expected of ['light', 'dark', 'system', 'light', 'dark', 'system'] as const) {
    await toggle(page).click();
    expect((await choice(page))[0]).toBe(expected);
  }
  await released;
  await expect(islandOf(page, '[data-theme-toggle]')).not.toHaveAttribute('ssr');
  await toggle(page).click();
  expect(await choice(page)).toEqual(['light', 'light', false]);
});

test('share copies the link before React arrives; hydrated during the message, it copies again', async ({ page }) => {
  const errors = pageErrors(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  // Headless Chromium's share sheet never opens: without one the button copies, as on most desktops.
  await page.addInitScript(() => Object.defineProperty(navigator, 'share', { value: undefined }));
  const code = await holdIslandCode(page);
  await page.goto('/blog/seo-strategies-that-actually-work-in-2026');
  const share = page.getByRole('button', { name: 'Share' });
  const copied = page.getByRole('status').filter({ hasText: 'Link copied' });

  await share.click();
  await expect(copied).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/blog\/seo-strategies-that-actually-work-in-2026$/);
  expect(code.held()).toBeGreaterThan(0);
  await expect(islandOf(page, '[data-share-url]')).toHaveAttribute('ssr');

  // Hydrates while the plain script's message shows: the message stays, then clears, with no hydration error.
  await code.release();
  await expect(islandOf(page, '[data-share-url]')).not.toHaveAttribute('ssr');
  await expect(copied).toHaveCount(0);

  await page.evaluate(() => navigator.clipboard.writeText('something else'));
  await share.click();
  await expect(copied).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/blog\/seo-strategies-that-actually-work-in-2026$/);
  expect(errors).toEqual([]);
});

test('the booking dialog opens on the first tap, with no React at all', async ({ page }) => {
  await page.route(/leadconnectorhq\.com/, () => {});
  const code = await holdIslandCode(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Schedule Free Consultation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule Your Free Consultation' });
  await expect(dialog).toBeVisible();
  // The calendar's frame follows inside the open dialog.
  await expect(dialog.locator('iframe[title="Booking calendar"]')).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(code.held()).toBe(0);
});

test('the newsletter answers in place before React arrives, and the same once hydrated', async ({ page }) => {
  const errors = pageErrors(page);
  const stamp = Date.now();
  const emails = [`before.${stamp}@example.com`, `after.${stamp}@example.com`];
  const code = await holdIslandCode(page);
  await page.goto('/privacy');
  const form = page.getByRole('form', { name: 'Newsletter', exact: true });
  const status = form.locator('[aria-live="polite"]');
  const island = islandOf(page, 'form[aria-label="Newsletter"]');
  const answer = 'Almost done: we sent a link to that address. Open it to confirm your subscription.';
  try {
    await form.getByRole('button', { name: 'Subscribe' }).click(); // no address yet
    await expect(status).toHaveText('Please enter your email address.');
    await expect(form.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
    await form.getByLabel('Email address').fill(emails[0]!);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(status).toHaveText(answer);
    await expect(form.getByLabel('Email address')).toHaveValue('');
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(island).toHaveAttribute('ssr');

    await code.release();
    await expect(island).not.toHaveAttribute('ssr');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(status).toHaveText('Please enter your email address.');
    await form.getByLabel('Email address').fill(emails[1]!);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(status).toHaveText(answer);
    await expect(page).toHaveURL(/\/privacy$/);
    const { data } = await serviceClient().from('newsletter_subscribers').select('email').in('email', emails);
    expect(data?.map((row) => row.email).sort()).toEqual([...emails].sort());
    expect(errors).toEqual([]);
  } finally {
    await serviceClient().from('newsletter_subscribers').delete().in('email', emails);
  }
});
