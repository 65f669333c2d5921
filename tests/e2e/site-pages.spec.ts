import { expect, expectNoSeriousAxeViolationsOnce, test, trackRequests } from './fixtures';

const routes = ['/', '/about', '/services', '/services/seo', '/services/social-media-advertising', '/booking', '/contact', '/privacy', '/terms', '/case-studies', '/no-such-page', '/services/no-such-service'];

test('the services FAQ keeps one item open at a time and can close it', async ({ page }) => {
  await page.goto('/services');
  const items = page.locator('details[name="faq-services"]');
  await expect(items).toHaveCount(5);
  await items.nth(0).locator('summary').click();
  await expect(items.nth(0)).toHaveAttribute('open', '');
  await items.nth(2).locator('summary').click();
  await expect(items.nth(2)).toHaveAttribute('open', '');
  await expect(items.nth(0)).not.toHaveAttribute('open');
  await expect(page.locator('details[name="faq-services"][open]')).toHaveCount(1);
  await items.nth(2).locator('summary').click();
  await expect(page.locator('details[name="faq-services"][open]')).toHaveCount(0);
});

test('an unknown path shows the not-found page and logs the path (a warning: not an error of the page)', async ({ page }) => {
  const logged: string[] = [];
  page.on('console', (message) => logged.push(`${message.type()}: ${message.text()}`));
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404' })).toBeVisible();
  await expect(page.getByText('Oops! Page not found')).toBeVisible();
  await expect.poll(() => logged).toContain('warning: 404 Error: User attempted to access non-existent route: /no-such-page');
  expect(logged.filter((line) => line.startsWith('error:') && line.includes('non-existent'))).toEqual([]);
  // The same help as the article and service pages: the ways on.
  const help = page.locator('[data-not-found="page"]');
  for (const [name, href] of [['All Services', '/services'], ['Go to the Blog', '/blog'], ['Contact Us', '/contact']]) {
    await expect(help.getByRole('link', { name })).toHaveAttribute('href', href!);
  }
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('an unknown service shows Service Not Found with a link home', async ({ page }) => {
  const response = await page.goto('/services/no-such-service');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Service Not Found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
});

test('the booking page embeds the calendar once it scrolls into view', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 300 });
  await page.goto('/booking');
  const embed = page.locator('#booking-embed');
  await expect(embed.getByText('Loading booking calendar...')).toBeVisible();
  await expect(embed.locator('iframe')).toHaveCount(0);
  await embed.scrollIntoViewIfNeeded();
  await expect(embed.locator('iframe[title="Booking calendar"]')).toHaveCount(1);
});

test('service pages link to real case studies', async ({ page }) => {
  await page.goto('/services/ppc');
  await page.getByRole('link', { name: 'View Case Studies' }).click();
  await expect(page).toHaveURL(/\/case-studies\/?$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Case Studies' })).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`every route has no serious axe violations in the ${theme} theme`, async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ baseURL, colorScheme: theme });
    await context.addInitScript((choice) => localStorage.setItem('theme', choice), theme);
    const page = await context.newPage();
    trackRequests(page);
    for (const route of routes) {
      await page.goto(route);
      await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
      // Once per run: another test may have checked the page in this theme already.
      await expectNoSeriousAxeViolationsOnce(page);
    }
    await context.close();
  });
}
