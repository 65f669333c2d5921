import { expect, test } from './fixtures';

const cards = (page: import('@playwright/test').Page) => page.locator('[data-post-grid] > li');

test('the blog pages through its posts 6 at a time', async ({ page }) => {
  await page.goto('/blog');
  await expect(page.getByRole('heading', { name: 'Latest Articles' })).toBeVisible();
  await expect(cards(page)).toHaveCount(6);
  const pagination = page.getByRole('navigation', { name: 'Pagination' });
  await expect(pagination.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  const firstTitle = await cards(page).first().getByRole('heading').textContent();

  await pagination.getByRole('link', { name: 'Next' }).click();
  await expect(page).toHaveURL(/\/blog\/page\/2$/);
  await expect(cards(page)).toHaveCount(6);
  await expect(page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
  await expect(cards(page).first().getByRole('heading')).not.toHaveText(firstTitle!);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);

  const last = page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: /^Page \d+$/ }).last();
  await last.click();
  await expect(page).toHaveURL(/\/blog\/page\/3$/);
  await expect(cards(page)).toHaveCount(4);
  await expect(page.getByRole('navigation', { name: 'Pagination' }).getByText('Next')).toHaveAttribute('aria-disabled', 'true');

  await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Previous' }).click();
  await expect(page).toHaveURL(/\/blog\/page\/2$/);
});

test('category pills filter the list and mark the active one', async ({ page }) => {
  await page.goto('/blog');
  const pills = page.getByRole('navigation', { name: 'Blog categories' });
  await expect(pills.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
  await pills.getByRole('link', { name: 'Local SEO' }).click();
  await expect(page).toHaveURL(/\/blog\/category\/local-seo$/);
  await expect(page.getByRole('heading', { name: 'Local SEO Articles' })).toBeVisible();
  await expect(cards(page)).toHaveCount(2);
  await expect(page.getByRole('navigation', { name: 'Blog categories' }).getByRole('link', { name: 'Local SEO' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('navigation', { name: 'Blog categories' }).getByRole('link', { name: 'All' })).not.toHaveAttribute('aria-current');
  await expect(page.getByRole('navigation', { name: 'Pagination' })).toHaveCount(0);
});

test('tag links open the tag list', async ({ page }) => {
  await page.goto('/blog');
  await page.getByRole('complementary', { name: 'Blog sidebar' }).getByRole('region', { name: 'Popular Tags' }).getByRole('link', { name: 'SEO', exact: true }).click();
  await expect(page).toHaveURL(/\/blog\/tag\/seo$/);
  await expect(page.getByRole('heading', { name: 'Articles tagged with "SEO"' })).toBeVisible();
  await expect(cards(page)).toHaveCount(3);
});

test('on a phone the category pills are one row that scrolls sideways, so the first article is on the first screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/blog', '/blog/category/analytics-reporting']) {
    await page.goto(path);
    const pills = page.getByRole('navigation', { name: 'Blog categories' }).getByRole('link');
    const tops = await pills.evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
    expect(new Set(tops).size, path).toBe(1);
    const first = await cards(page).first().boundingBox();
    expect(first!.y, path).toBeLessThan(844);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), path).toBe(true);
    // The category's own pill is in view, and every pill is reachable by keyboard.
    const current = page.getByRole('navigation', { name: 'Blog categories' }).locator('[aria-current]');
    await expect(current).toBeInViewport();
    const last = pills.last();
    await last.focus();
    await expect(last).toBeInViewport();
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/blog');
  const desktopTops = await page.getByRole('navigation', { name: 'Blog categories' }).getByRole('link').evaluateAll((links) => links.map((link) => link.getBoundingClientRect().top));
  expect(Math.max(...desktopTops) - Math.min(...desktopTops)).toBeLessThan(120);
});
