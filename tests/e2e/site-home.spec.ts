import { expect, test } from './fixtures';

test('the consultation button opens the booking dialog; Escape closes it', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  // A provider that has not answered yet (there is no network here, so an unanswered request stands in).
  await page.route(/leadconnectorhq\.com\/widget\/booking/, () => {});
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Grow Your Business With Proven Marketing');

  await page.getByRole('button', { name: 'Schedule Free Consultation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule Your Free Consultation' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Loading booking calendar...')).toBeVisible();
  await expect(dialog.locator('iframe[title="Booking calendar"]')).toHaveCount(1);
  // No network here: the provider's script fails, which is only logged.
  await expect.poll(() => errors.some((e) => e.includes('booking provider script'))).toBe(true);
  expect(await page.locator('script[src*="form_embed"]').count()).toBe(1);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.locator('iframe[title="Booking calendar"]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Schedule Free Consultation' }).click();
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  expect(await page.locator('script[src*="form_embed"]').count()).toBe(1); // loaded once, on first open
});

test('counters count up when they scroll into view and images fall back to local drawings', async ({ page }) => {
  await page.goto('/');
  const clients = page.locator('[data-counter="150"]');
  await clients.scrollIntoViewIfNeeded();
  await expect(clients).toHaveText('150+', { timeout: 5000 });
  const hero = page.locator('img[alt^="Marketing dashboard"]');
  await expect(hero).toHaveAttribute('src', '/images/hero-fallback.svg');
  await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test('the contact section has its anchors, contact links and office hours', async ({ page }) => {
  await page.goto('/#contact');
  const contact = page.locator('#contact');
  await expect(contact.locator('#contact-form')).toBeVisible();
  await expect(contact.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expect(contact.getByRole('link', { name: /\d{3}/ })).toHaveAttribute('href', /^tel:/);
  await expect(contact.getByText('9:00 AM - 6:00 PM EST')).toBeVisible();
});
