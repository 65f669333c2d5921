import { serviceClient } from '../../src/lib/server/service-client';
import { expect, test, waitForIslands } from './fixtures';

const POST = '/blog/seo-strategies-that-actually-work-in-2026';

test('a post page shows the article, its author, tags and related posts', async ({ page }) => {
  await page.goto(POST);
  const article = page.locator('article[data-pagefind-body]');
  await expect(article.getByRole('heading', { level: 1, name: 'SEO Strategies That Actually Work in 2026' })).toBeVisible();
  await expect(article.getByRole('link', { name: 'SEO Strategies' })).toHaveAttribute('href', '/blog/category/seo-strategies');
  await expect(article.getByText('October 28, 2026')).toBeVisible();
  await expect(article.getByText('2 min read')).toBeVisible();
  await expect(article.getByRole('heading', { level: 2, name: 'Start with search intent' })).toBeVisible();
  const aside = page.getByRole('complementary', { name: 'About this article' });
  await expect(aside.getByText('Alex Morgan')).toBeVisible();
  await expect(aside.getByText('Founder & SEO Strategist')).toBeVisible();
  await expect(aside.getByRole('heading', { name: 'More from SEO Strategies' })).toBeVisible();
  const related = page.getByRole('region', { name: 'Related Articles' });
  await expect(related.getByRole('article')).toHaveCount(2);
  // On a wide screen the aside stands beside the article, from its top.
  const box = async (locator: typeof article) => (await locator.boundingBox())!;
  expect((await box(aside)).x).toBeGreaterThan((await box(article)).x + (await box(article)).width);
  expect(Math.abs((await box(aside)).y - (await box(article)).y)).toBeLessThan(80);
  // On a phone the author and the newsletter follow the article, before Related Articles.
  await page.setViewportSize({ width: 390, height: 844 });
  const articleBottom = (await box(article)).y + (await box(article)).height;
  expect((await box(aside)).y).toBeGreaterThan(articleBottom);
  expect((await box(related)).y).toBeGreaterThan((await box(aside)).y + (await box(aside)).height);
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByRole('list', { name: 'Tags' }).getByRole('link', { name: 'Google', exact: true }).click();
  await expect(page).toHaveURL(/\/blog\/tag\/google$/);
  await expect(page.getByRole('heading', { name: 'Articles tagged with "Google"' })).toBeVisible();
});

test('share copies the link and says so', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(POST);
  await page.evaluate(() => Object.defineProperty(navigator, 'share', { value: undefined }));
  const share = page.getByRole('button', { name: 'Share' });
  await share.scrollIntoViewIfNeeded();
  await waitForIslands(page);
  await share.click();
  await expect(page.getByRole('status').filter({ hasText: 'Link copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/\/blog\/seo-strategies-that-actually-work-in-2026$/);
});

test('Back to Blog returns to the list page the reader came from', async ({ page }) => {
  await page.goto('/blog/page/2');
  await page.locator('[data-post-grid] h3 a').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The link goes back in history once its script ran (before that it is a plain link to /blog).
  await page.waitForLoadState('load');
  await page.getByRole('link', { name: 'Back to Blog' }).click();
  await expect(page).toHaveURL(/\/blog\/page\/2$/);

  await page.goto(POST);
  await page.getByRole('link', { name: 'Back to Blog' }).click();
  await expect(page).toHaveURL(/\/blog$/);
});

test('the old address of a renamed post leads to the post', async ({ page }) => {
  const response = await page.request.get('/blog/seo-strategies-2025', { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers().location).toMatch(/\/blog\/seo-strategies-that-actually-work-in-2026$/);
  await page.goto('/blog/seo-strategies-2025');
  await expect(page).toHaveURL(/\/blog\/seo-strategies-that-actually-work-in-2026$/);
});

test('the blog sidebar newsletter signs the address up, to be confirmed', async ({ page }) => {
  const db = serviceClient();
  const email = `e2e.blog.${Date.now()}@example.com`;
  await page.goto('/blog');
  const form = page.getByRole('form', { name: 'Blog newsletter' });
  await form.scrollIntoViewIfNeeded();
  await waitForIslands(page);
  await form.getByPlaceholder('Your email address').fill(email);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(form.getByText('Almost done: we sent a link to that address. Open it to confirm your subscription.')).toBeVisible();
  const { data } = await db.from('newsletter_subscribers').select('email').eq('email', email);
  expect(data).toEqual([{ email }]);
  await db.from('newsletter_subscribers').delete().eq('email', email);
});
