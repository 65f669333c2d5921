import { expect, test, waitForIslands } from './fixtures';

test('the header turns opaque past 50 px and shows a scroll-to-top button', async ({ page }) => {
  await page.goto('/services');
  const header = page.locator('#site-header');
  const toTop = page.getByRole('button', { name: 'Scroll to top' });
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await expect(toTop).toBeHidden();

  await page.evaluate(() => window.scrollTo(0, 40));
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await page.evaluate(() => window.scrollTo(0, 400));
  await expect(header).toHaveAttribute('data-scrolled', 'true');
  await expect(header).toHaveCSS('box-shadow', /rgba?\(/);
  expect(await header.evaluate((el) => getComputedStyle(el).backdropFilter)).toContain('blur');

  await toTop.click();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  await expect(header).toHaveAttribute('data-scrolled', 'false');
  await expect(toTop).toBeHidden();
});

test('the header shows the brand and the Web Templates open in new tabs', async ({ page }) => {
  await page.goto('/about');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'SCALEPRO MARKETING' })).toHaveAttribute('href', '/');
  await expect(nav.getByRole('link', { name: 'About' }).first()).toHaveAttribute('aria-current', 'page');
  await nav.getByText('Web Templates').first().click();
  const landscape = nav.getByRole('link', { name: /Landscape/ }).first();
  await expect(landscape).toBeVisible();
  await expect(landscape).toHaveAttribute('target', '_blank');
  await expect(nav.getByRole('link', { name: /Painters/ }).first()).toHaveAttribute('target', '_blank');
  await page.keyboard.press('Escape');
  await expect(landscape).toBeHidden();
});

test('the theme choice persists across pages and reloads', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await waitForIslands(page);
  const toggle = page.getByRole('button', { name: /Switch to .* theme/ });
  await toggle.click(); // system → light
  await toggle.click(); // light → dark
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.goto('/contact');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await waitForIslands(page);
  await expect(page.getByRole('button', { name: 'Switch to system theme' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the mobile menu opens with the links and an expandable templates group', async ({ page }) => {
    await page.goto('/');
    const desktopLinks = page.locator('nav[aria-label="Main"] > ul');
    await expect(desktopLinks).toBeHidden();
    const menu = page.locator('#mobile-menu');
    await page.getByLabel('Toggle menu').click();
    await expect(menu).toHaveAttribute('open', '');
    for (const name of ['Services', 'Book Now', 'About', 'Blog', 'Contact']) await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();

    const templates = menu.locator('#mobile-templates');
    const painters = templates.getByRole('link', { name: /Painters/ });
    await expect(painters).toBeHidden();
    await templates.getByText('Web Templates').click();
    await expect(painters).toBeVisible();
    await expect(painters).toHaveAttribute('target', '_blank');

    await menu.getByRole('link', { name: 'Services', exact: true }).click();
    await expect(page).toHaveURL(/\/services\/?$/);
  });
});
