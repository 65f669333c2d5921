/**
 * What the writing tool's deliveries look like to people, end to end on the served site:
 * - a delivery credited to the organization (the ZimmWriter tab's "No author") is named as the organization
 *   on its public page (byline, author card, Article JSON-LD), on blog management's card (with the ZimmWriter
 *   source badge) and in the editor's preview;
 * - a category name in another case lands in the existing category; an unknown one is created "Needs review",
 *   is not offered to visitors (no pill, no category page) and the post shows as uncategorized, until an editor
 *   approves it in Categories & Tags; after the next build visitors see it;
 * - Recent Deliveries open their post and say what became of the image; the test form keeps its result in the
 *   card and names a refused field.
 */
import { expect, expectNoSeriousAxeViolations, test, waitForIslands } from './fixtures';
import { SCALE_PRO_ID, service } from './support/backend';
import { rebuildPublicSite } from './support/rebuild';
import { openDashboard } from './support/sign-in';

// Signed in as the seed admin from the start (its sign-in is the setup project's; none of these signs out).
test.use({ signedInAs: 'seed admin' });

const run = Date.now().toString(36);
const creditedSlug = `e2e-org-credit-${run}`;
const flaggedSlug = `e2e-flagged-category-${run}`;
const NEW_CATEGORY = `Kite Surfing ${run}`;
const ORGANIZATION = 'Scale Pro Marketing';
let previousAuthor: string | null = null;

const unique = () => Array.from({ length: 20 }, () => crypto.randomUUID()).join(' ');

test.beforeAll(async () => {
  const { data } = await service.from('webhook_integrations').select('author_id').eq('organization_id', SCALE_PRO_ID).single();
  previousAuthor = data?.author_id ?? null;
  await service.from('webhook_integrations').update({ author_id: null }).eq('organization_id', SCALE_PRO_ID);
});

test.afterAll(async () => {
  await service.from('webhook_integrations').update({ author_id: previousAuthor }).eq('organization_id', SCALE_PRO_ID);
  await service.from('webhook_deliveries').delete().in('slug', [creditedSlug, flaggedSlug]);
  await service.from('blog_posts').delete().eq('organization_id', SCALE_PRO_ID).in('slug', [creditedSlug, flaggedSlug]);
  await service.from('blog_categories').delete().eq('organization_id', SCALE_PRO_ID).eq('name', NEW_CATEGORY);
});

test('a delivery credited to the organization, its source and its categories, from the webhook to visitors and back office', async ({ page, request }) => {
  test.setTimeout(300_000);
  const mapped = await request.post('/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
    data: { title: `Credited to the organization ${run}`, html: `<h2>Intro</h2><p>${unique()}</p>`, category: 'local SEO', slug: creditedSlug, image_url: false },
  });
  expect(mapped.status()).toBe(201);
  expect((await mapped.json()).category).toEqual({ name: 'Local SEO', sent: 'local SEO', mapped: true, created: false, needs_review: false });
  const flagged = await request.post('/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
    data: { title: `In a new category ${run}`, html: `<p>${unique()}</p>`, category: NEW_CATEGORY, slug: flaggedSlug },
  });
  expect(flagged.status()).toBe(201);
  expect((await flagged.json()).category).toMatchObject({ name: NEW_CATEGORY, created: true, needs_review: true });
  const { data: post } = await service.from('blog_posts').select('id, author_id').eq('organization_id', SCALE_PRO_ID).eq('slug', creditedSlug).single();
  expect(post?.author_id).toBeNull();

  await rebuildPublicSite(SCALE_PRO_ID);

  // The public page names the organization: byline, author card, structured data.
  await page.goto(`/blog/${creditedSlug}`);
  const article = page.locator('article').first();
  await expect(article.getByText(`By ${ORGANIZATION}`, { exact: true })).toBeVisible();
  const card = page.getByRole('region', { name: 'About the author' });
  await expect(card.getByText(ORGANIZATION, { exact: true })).toBeVisible();
  await expect(page.getByText('Unknown Author')).toHaveCount(0);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}');
  expect(jsonLd.author).toMatchObject({ '@type': 'Organization', name: ORGANIZATION });
  await expect(article.getByRole('link', { name: 'Local SEO' })).toBeVisible();
  // No automatic excerpt repeats the body's beginning under the title.
  await expect(article.locator('h1 + p')).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);

  // The unknown category is not offered: no pill, no page; its post shows no category (not a wrong one).
  await page.goto('/blog');
  await expect(page.getByRole('navigation', { name: 'Blog categories' }).getByRole('link', { name: new RegExp(NEW_CATEGORY) })).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Blog categories' }).getByRole('link', { name: /Local SEO/ })).toBeVisible();
  const categorySlug = NEW_CATEGORY.toLowerCase().replace(/\s+/g, '-');
  expect((await request.get(`/blog/category/${categorySlug}`)).status()).toBe(404);
  await page.goto(`/blog/${flaggedSlug}`);
  await expect(page.locator('article').first().getByText('min read')).toBeVisible();
  await expect(page.getByText('Uncategorized', { exact: true })).toHaveCount(0);
  await expect(page.getByText(NEW_CATEGORY)).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'More articles' })).toBeVisible();

  // Blog management: the organization's credit and the source mark.
  await openDashboard(page);
  await page.goto('/admin/blog');
  await waitForIslands(page);
  await page.getByRole('searchbox', { name: 'Search posts' }).or(page.getByLabel('Search posts')).first().fill(`Credited to the organization ${run}`);
  const postCard = page.getByTestId('post-card').filter({ hasText: `Credited to the organization ${run}` });
  await expect(postCard.getByText(`By ${ORGANIZATION}`)).toBeVisible();
  await expect(postCard.getByTestId('post-source')).toHaveText('Source: ZimmWriter');

  // The editor's preview credits the organization, not the admin viewing it.
  await page.goto(`/admin/blog/edit/${post!.id}`);
  const preview = page.getByRole('region', { name: 'Preview' });
  await expect(preview.getByText(`By ${ORGANIZATION}`, { exact: true })).toBeVisible();

  // Recent Deliveries open their post and say what became of the image.
  await page.goto('/admin?tab=zimmwriter');
  const deliveries = page.getByRole('list', { name: 'Webhook deliveries' });
  const delivered = deliveries.getByRole('listitem').filter({ hasText: `Credited to the organization ${run}` });
  await expect(delivered.getByRole('link', { name: `Credited to the organization ${run}` })).toHaveAttribute('href', `/admin/blog/edit/${post!.id}`);
  await expect(delivered.getByText('No image sent')).toBeVisible();

  // The test form names the refused field and keeps its result in the card.
  const form = page.locator('#webhook-test');
  await form.getByLabel('Title').fill('   ');
  await form.getByRole('button', { name: 'Send Test Webhook' }).click();
  const result = form.getByTestId('webhook-test-result');
  await expect(result).toHaveAttribute('data-outcome', 'failure');
  await expect(result.getByRole('list', { name: 'Refused fields' })).toContainText('title: Title is required');
  await page.waitForTimeout(6_000); // longer than a toast stays
  await expect(result).toContainText('title: Title is required');
  await form.getByLabel('Title').fill(`A test ${run}`);
  await form.getByRole('button', { name: 'Send Test Webhook' }).click();
  await expect(result).toHaveAttribute('data-outcome', 'success');
  await expect(result).toContainText('Webhook Test Successful!');

  // Categories & Tags: the new category is marked, and an approval offers it to visitors after the next build.
  await page.goto('/admin/blog/categories');
  const row = page.getByTestId('category-row').filter({ hasText: NEW_CATEGORY });
  await expect(row.getByTestId('needs-review')).toHaveText('Needs review');
  await expectNoSeriousAxeViolations(page);
  await row.getByRole('button', { name: `Approve ${NEW_CATEGORY}` }).click();
  await expect(row.getByTestId('needs-review')).toHaveCount(0);
  // The approval says when visitors will see it: its post is published, so after the rebuild it requested.
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText(`Category "${NEW_CATEGORY}" approved: it shows on the site with its 1 published post after the rebuild that starts now`);
  const { data: approved } = await service.from('blog_categories').select('needs_review').eq('organization_id', SCALE_PRO_ID).eq('name', NEW_CATEGORY).single();
  expect(approved?.needs_review).toBe(false);

  await rebuildPublicSite(SCALE_PRO_ID);
  await page.goto('/blog');
  await expect(page.getByRole('navigation', { name: 'Blog categories' }).getByRole('link', { name: new RegExp(NEW_CATEGORY) })).toBeVisible();
  expect((await request.get(`/blog/category/${categorySlug}`)).status()).toBe(200);
});
