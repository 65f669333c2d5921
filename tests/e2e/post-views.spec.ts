/**
 * Real view counts in the browser: a post page counts one view for a new visitor, a second visit the same day
 * does not, and the Content tab shows the day's views in its chart. The visitor has a browser's user agent:
 * the suite's headless browser says "HeadlessChrome", which counts as a bot (src/lib/server/post-views.ts).
 * Every visitor of the served site has one address (127.0.0.1), and an address counts once per post and day:
 * so that a rerun on the same day starts from an uncounted post, the page's view is sent for a published post
 * made for this run (the request goes out as the page sends it, with that post's id).
 */
import { expect, test } from './fixtures';
import { service } from './support/backend';
import { openDashboard } from './support/sign-in';

// Signed in as the seed admin from the start (its sign-in is the setup project's; none of these signs out).
test.use({ signedInAs: 'seed admin' });

const POST_ID = '40000000-0000-4000-8000-000000000008';
const SCALE_PRO = '10000000-0000-4000-8000-000000000001';
let counted = '';

async function viewCount(): Promise<number> {
  const { data, error } = await service.from('blog_posts').select('view_count').eq('id', counted).single();
  if (error) throw new Error(`reading the post's view count failed: ${error.message}`);
  return data.view_count;
}

test('a visit counts once; a second visit the same day does not; the Content tab charts it', async ({ browser, baseURL, page }) => {
  const { data: post } = await service.from('blog_posts').select('slug').eq('id', POST_ID).single();
  const slug = `e2e-views-${crypto.randomUUID().slice(0, 8)}`;
  const { data: fresh, error } = await service.from('blog_posts')
    .insert({ organization_id: SCALE_PRO, title: `Views ${slug}`, slug, content: '<p>x</p>', content_source: 'x', content_format: 'markdown', status: 'published', published_at: new Date(Date.now() - 60_000).toISOString() })
    .select('id').single();
  if (error) throw new Error(`creating the post failed: ${error.message}`);
  counted = fresh.id;
  const visitor = await browser.newContext({
    baseURL,
    userAgent: `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 E2E/${crypto.randomUUID().slice(0, 8)}`,
  });
  try {
    const reader = await visitor.newPage();
    await reader.route('**/api/post-view', (route) => route.continue({ postData: JSON.stringify({ post_id: counted }) }));
    const before = await viewCount();

    const first = reader.waitForResponse((response) => response.url().endsWith('/api/post-view'));
    await reader.goto(`/blog/${post!.slug}`);
    expect(await (await first).json()).toEqual({ counted: true });
    expect(await viewCount()).toBe(before + 1);

    const second = reader.waitForResponse((response) => response.url().endsWith('/api/post-view'));
    await reader.reload();
    expect(await (await second).json()).toEqual({ counted: false });
    expect(await viewCount()).toBe(before + 1);
  } finally {
    await visitor.close();
  }

  await openDashboard(page);
  await page.getByRole('tab', { name: 'Content' }).click();
  const chart = page.getByTestId('views-chart');
  await expect(chart.getByRole('img', { name: /^Views, last 30 days: [\d,]+ views? in total/ })).toBeVisible();
  await expect(chart.locator('rect')).toHaveCount(30);
  const today = new Date().toISOString().slice(0, 10);
  expect(Number(await chart.locator(`rect[data-day="${today}"]`).getAttribute('data-views'))).toBeGreaterThanOrEqual(1);
  await service.from('blog_posts').delete().eq('id', counted);
});
