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
  // The frame is made; there is no network here, so the provider's script fails and the fallback takes the
  // loading note's and the frame's place (the loading note of a slow provider: embed-fallback.spec.ts).
  await expect(dialog.locator('iframe[title="Booking calendar"]')).toHaveCount(1);
  await expect(dialog.locator('[data-embed-fallback]')).toBeVisible();
  await expect(dialog.getByText('Loading booking calendar...')).toHaveCount(0);
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

test('counters count up when they scroll into view and the hero shows our own picture', async ({ page }) => {
  await page.goto('/');
  const clients = page.locator('[data-counter="150"]');
  await clients.scrollIntoViewIfNeeded();
  await expect(clients).toHaveText('150+', { timeout: 5000 });
  const hero = page.locator('img[alt^="Marketing dashboard"]');
  await expect(hero).toHaveAttribute('src', /^\/_astro\//);
  await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test('the contact section has its anchors, contact links and office hours', async ({ page }) => {
  await page.goto('/#contact');
  const contact = page.locator('#contact');
  await expect(contact.locator('#contact-form')).toBeVisible();
  // Beside the form (the form's own box repeats them when the provider does not answer: embed-fallback.spec.ts).
  const details = contact.locator('#contact-form ~ div');
  await expect(details.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
  await expect(details.getByRole('link', { name: /\d{3}/ })).toHaveAttribute('href', /^tel:/);
  await expect(details.getByText('9:00 AM - 6:00 PM EST')).toBeVisible();
});

test('the cursor follower follows the mouse, grows over links, hides over the header', async ({ page }) => {
  await page.goto('/');
  const follower = page.locator('#cursor-follower');
  await expect(follower).toHaveAttribute('data-hide', 'true'); // until the mouse moves on the page

  const about = page.getByRole('heading', { name: 'About Scale Pro Marketing' });
  await about.scrollIntoViewIfNeeded();
  const heading = (await about.boundingBox())!;
  const [x, y] = [Math.round(heading.x + 5), Math.round(heading.y + heading.height / 2)];
  await page.mouse.move(x, y);
  await expect(follower).toHaveAttribute('data-hide', 'false');
  await expect(follower).toHaveAttribute('data-grow', 'false');
  expect(await follower.evaluate((el) => el.style.translate)).toBe(`${x}px ${y}px`);
  const small = (await follower.boundingBox())!.width;

  const link = page.getByRole('main').getByRole('link').first();
  await link.scrollIntoViewIfNeeded();
  const linkBox = (await link.boundingBox())!;
  await page.mouse.move(linkBox.x + linkBox.width / 2, linkBox.y + linkBox.height / 2);
  await expect(follower).toHaveAttribute('data-grow', 'true');
  await expect.poll(async () => (await follower.boundingBox())!.width).toBeGreaterThan(small);

  const brand = page.getByRole('banner').getByRole('link').first();
  const brandBox = (await brand.boundingBox())!;
  await page.mouse.move(brandBox.x + 2, brandBox.y + 2);
  await expect(follower).toHaveAttribute('data-hide', 'true');
});

test('the cursor follower is off for reduced motion and on touch devices', async ({ page, browser, baseURL }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  await page.mouse.move(200, 300);
  await expect(page.locator('#cursor-follower')).toBeHidden();
  await expect(page.locator('#cursor-follower')).not.toHaveAttribute('data-hide');

  const touch = await browser.newContext({ baseURL, hasTouch: true, isMobile: true, viewport: { width: 390, height: 844 } });
  const phone = await touch.newPage();
  await phone.goto('/');
  await phone.tap('main h1');
  await expect(phone.locator('#cursor-follower')).toBeHidden();
  await touch.close();
});

test('the scroll progress bar grows from empty at the top to full at the bottom', async ({ page }) => {
  await page.goto('/');
  const bar = page.locator('#scroll-progress');
  const scale = () => bar.evaluate((el) => new DOMMatrix(getComputedStyle(el).transform).a);
  expect(await scale()).toBe(0);
  await page.evaluate(() => window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) / 2));
  await expect.poll(scale).toBeCloseTo(0.5, 1);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(scale).toBe(1);
});

test('each testimonial shows as many filled stars as its rating, out of five', async ({ page }) => {
  await page.goto('/');
  const ratings = page.getByRole('img', { name: /^Rated \d out of 5$/ });
  await expect(ratings).toHaveCount(3);
  for (const rating of await ratings.all()) {
    const stars = Number((await rating.getAttribute('aria-label'))!.match(/Rated (\d)/)![1]);
    const fills = await rating.locator('svg').evaluateAll((svgs) => svgs.map((svg) => getComputedStyle(svg).fill));
    expect(fills).toHaveLength(5);
    expect(fills.filter((fill) => fill !== 'none')).toHaveLength(stars);
  }
});
