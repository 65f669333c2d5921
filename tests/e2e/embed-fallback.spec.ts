/**
 * The form provider's frames (contact form, booking calendar) never leave a broken frame or an empty box: while
 * the contact form loads a skeleton of a form stands in; when the provider cannot be reached, or is slow, the
 * frame's box offers its page in a new tab, and the booking calendar's also the phone, the email and the office
 * hours (the contact form's places show those beside it, so its fallback does not repeat them); when it
 * answers, the frame shows alone. The provider is stubbed (there is no network here).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const FORM_URL = 'https://api.leadconnectorhq.com/widget/form/scale-pro-contact';
const BOOKING_URL = 'https://api.leadconnectorhq.com/widget/booking/scale-pro-consultation';
const PROVIDER = /leadconnectorhq\.com|msgsndr\.com/;

/** The provider answering: its frames are a small page, its script an empty one. */
async function providerAnswers(page: Page) {
  await page.route(PROVIDER, (route) =>
    route.request().resourceType() === 'script'
      ? route.fulfill({ contentType: 'text/javascript', body: '' })
      : route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Form</title><p>The provider form</p>' }),
  );
}

/** The provider unreachable: every request to it fails as a lost connection does. */
const providerUnreachable = (page: Page) => page.route(PROVIDER, (route) => route.abort('internetdisconnected'));

/** The provider slow: its script comes, its frames never answer. */
const providerSlow = (page: Page) =>
  page.route(PROVIDER, (route) => (route.request().resourceType() === 'script' ? route.fulfill({ contentType: 'text/javascript', body: '' }) : undefined));

async function expectFallback(page: Page, box: ReturnType<Page['locator']>, what: string, url: string) {
  const fallback = box.locator('[data-embed-fallback]');
  await expect(fallback).toBeVisible();
  // In place of the frame (whose error page is white in either theme), and the box fits it: no tall empty box.
  await expect(box.locator('iframe')).toBeHidden();
  const frameBox = box.locator('[data-fallback]').or(box.and(page.locator('[data-fallback]')));
  const { height: boxHeight } = (await frameBox.boundingBox())!;
  const { height: fallbackHeight } = (await fallback.boundingBox())!;
  expect(boxHeight).toBeLessThan(fallbackHeight + 60);
  await expect(fallback).toContainText(`The ${what} is taking longer than usual to load.`);
  await expect(fallback.getByRole('link', { name: `Open the ${what}` })).toHaveAttribute('href', url);
  if (what === 'contact form') {
    // The phone, email and hours stand beside the form: the fallback points at them instead of repeating them.
    await expect(fallback).toContainText('our details are on this page');
    await expect(fallback.getByRole('link', { name: 'hello@scalepromarketing.com' })).toHaveCount(0);
    await expect(fallback.getByRole('link', { name: '(404) 555-0142' })).toHaveCount(0);
    await expect(fallback).not.toContainText('Office Hours');
    await expect(page.getByRole('link', { name: 'hello@scalepromarketing.com' }).first()).toBeVisible();
    return;
  }
  await expect(fallback.getByRole('link', { name: 'hello@scalepromarketing.com' })).toHaveAttribute('href', 'mailto:hello@scalepromarketing.com');
  await expect(fallback.getByRole('link', { name: '(404) 555-0142' })).toHaveAttribute('href', 'tel:4045550142');
  await expect(fallback).toContainText('Office Hours');
}

test('contact form: an unreachable provider gets the fallback over the frame, not a broken frame', async ({ page }) => {
  await providerUnreachable(page);
  await page.goto('/contact');
  const box = page.locator('#contact-form');
  await box.scrollIntoViewIfNeeded();
  await expectFallback(page, box, 'contact form', FORM_URL);
});

test('contact form: a slow provider gets the fallback after the wait; an answering one shows the frame alone', async ({ page }) => {
  await page.clock.install();
  await providerSlow(page);
  // The page's load event waits for a frame in view, and this one never answers.
  await page.goto('/contact', { waitUntil: 'domcontentloaded' });
  const box = page.locator('#contact-form');
  await box.scrollIntoViewIfNeeded();
  const skeleton = box.getByRole('status').filter({ hasText: 'Loading the contact form...' });
  await expect(skeleton).toBeVisible();
  await expect(skeleton.locator('[aria-hidden="true"]')).toHaveCount(5);
  await expect(box.locator('[data-embed-fallback]')).toBeHidden();
  await page.clock.runFor(8_000);
  await expectFallback(page, box, 'contact form', FORM_URL);

  await page.unroute(PROVIDER);
  await providerAnswers(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  await box.scrollIntoViewIfNeeded();
  await expect(box.frameLocator('iframe').getByText('The provider form')).toBeVisible();
  await expect(box.getByText('Loading the contact form...')).toHaveCount(0);
  await page.clock.runFor(10_000);
  await expect(box.locator('[data-embed-fallback]')).toBeHidden();
});

test('booking dialog and booking page: an unreachable provider gets the fallback; closing the dialog clears it', async ({ page }) => {
  await providerUnreachable(page);
  await page.goto('/');
  await page.getByRole('button', { name: 'Schedule Free Consultation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule Your Free Consultation' });
  await expectFallback(page, dialog, 'booking calendar', BOOKING_URL);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(dialog.locator('[data-embed-fallback]')).toBeHidden();

  await page.goto('/booking');
  await expectFallback(page, page.locator('#booking-embed'), 'booking calendar', BOOKING_URL);
});

test('booking page: an answering provider shows the calendar alone', async ({ page }) => {
  await providerAnswers(page);
  await page.goto('/booking');
  const box = page.locator('#booking-embed');
  await expect(box.frameLocator('iframe').getByText('The provider form')).toBeVisible();
  await expect(box.getByText('Loading booking calendar...')).toHaveCount(0);
  await expect(box.locator('[data-embed-fallback]')).toBeHidden();
});

test('without scripts the consultation button is a link to the booking page', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto('/');
    await page.getByRole('link', { name: 'Schedule Free Consultation' }).click();
    await expect(page).toHaveURL(/\/booking$/);
    await expect(page.locator('#booking-embed iframe[title="Booking calendar"]')).toHaveAttribute('src', BOOKING_URL);
  } finally {
    await context.close();
  }
});
