import { emulateMobileConditions } from '../fixtures/mobile-conditions';
import { expect, test } from './fixtures';
import { holdIslandCode } from './support/held-island-code';

test('searching from the blog finds a seeded post through the Pagefind index', async ({ page }) => {
  await page.goto('/blog');
  const search = page.getByRole('search', { name: 'Blog' });
  await search.getByRole('searchbox', { name: 'Search articles' }).fill('  keyword research  ');
  await search.getByRole('button', { name: 'Search' }).click();

  await expect(page).toHaveURL(/\/blog\/search\?q=keyword%20research$/);
  await expect(page.getByRole('heading', { name: 'Search results for "keyword research"' })).toBeVisible();
  const result = page.getByRole('link', { name: 'Keyword Research Without Expensive Tools' });
  await expect(result).toBeVisible();
  await expect(page.locator('[data-skeletons]')).toHaveCount(0);
  await expect(page.getByRole('searchbox', { name: 'Search articles' })).toHaveValue('keyword research');

  await result.click();
  await expect(page).toHaveURL(/\/blog\/keyword-research-without-expensive-tools$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Keyword Research Without Expensive Tools' })).toBeVisible();
});

test('a blank or whitespace-only query does nothing', async ({ page }) => {
  await page.goto('/blog');
  const box = page.getByRole('searchbox', { name: 'Search articles' });
  for (const query of ['', '   ']) {
    await box.fill(query);
    await box.press('Enter');
    await page.getByRole('search', { name: 'Blog' }).getByRole('button', { name: 'Search' }).click();
  }
  await page.waitForTimeout(300);
  await expect(page).toHaveURL(/\/blog$/);
});

test('a query that matches nothing shows the empty state', async ({ page }) => {
  await page.goto('/blog/search?q=zzqxnotaword');
  await expect(page.getByRole('heading', { name: 'Search results for "zzqxnotaword"' })).toBeVisible();
  await expect(page.getByText('No articles found')).toBeVisible();
  await expect(page.getByText("Try adjusting your search or filter to find what you're looking for.")).toBeVisible();
});

test('an address with a blank query shows no results and no error, and loads no React', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname));
  for (const address of ['/blog/search?q=%20%20', '/blog/search']) {
    await page.goto(address);
    await expect(page.getByText('Type what you are looking for in the search box above.')).toBeVisible();
    await expect(page.getByRole('heading', { name: /Search results/ })).toHaveCount(0);
    await expect(page.locator('[data-skeletons]')).toBeHidden();
  }
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((path) => /react|client\.[\w-]+\.js|BlogSearch\.|pagefind/i.test(path))).toEqual([]);
});

test('when the index cannot load, the error offers Try Again, which reloads', async ({ page }) => {
  await page.route('**/pagefind/pagefind.js', (route) => route.abort());
  await page.goto('/blog/search?q=seo');
  const alert = page.getByRole('alert').filter({ hasText: 'The search index could not be loaded.' });
  await expect(alert).toBeVisible();
  await page.unroute('**/pagefind/pagefind.js');
  await alert.getByRole('button', { name: 'Try Again' }).click();
  await expect(page.getByRole('heading', { name: 'Search results for "seo"' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'SEO Strategies That Actually Work in 2026' }).first()).toBeVisible();
});

test('the search box answers typing while the results island is held back, and the island then shows results', async ({ page }) => {
  // As islands-before-react.spec.ts holds the other islands back: under Lighthouse's mobile conditions.
  await page.emulateMedia({ colorScheme: 'light' });
  await emulateMobileConditions(page);
  const code = await holdIslandCode(page);
  await page.goto('/blog/search?q=marketing');
  const box = page.getByRole('searchbox', { name: 'Search articles' });
  await expect(box).toHaveValue('marketing');
  await box.fill('');
  await box.pressSequentially('keyword research');
  await expect(box).toHaveValue('keyword research');
  expect(code.held()).toBeGreaterThan(0);
  await box.press('Enter');
  await expect(page).toHaveURL(/\/blog\/search\?q=keyword%20research$/);

  await code.release();
  await expect(page.getByRole('heading', { name: 'Search results for "keyword research"' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Keyword Research Without Expensive Tools' })).toBeVisible();
});
