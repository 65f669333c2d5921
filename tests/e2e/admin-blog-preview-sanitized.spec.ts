/**
 * The admin preview sanitizes post HTML when it renders it, whatever wrote the stored content. A post is
 * written straight through REST with the service role (as an editor could write one, bypassing the editor
 * and the webhook, which sanitize on save), carrying script in four forms, and the seeded admin opens it in
 * /admin/blog/preview/<id>. Nothing runs, the dangerous parts are gone from the post body, and the page
 * records no CSP violation (the fixture checks): the sanitizer stops the attack, not only the policy. The
 * image has an empty alt only so the page's accessibility check passes. The post is removed afterwards.
 * The same HTML delivered through the writing-tool webhook is stored sanitized and previews the same way.
 */
import { expect, test } from './fixtures';
import { SCALE_PRO_ID, service } from './support/backend';
import { openDashboard } from './support/sign-in';

// Signed in as the seed admin from the start (its sign-in is the setup project's; none of these signs out).
test.use({ signedInAs: 'seed admin' });

const slug = `e2e-sanitized-preview-${crypto.randomUUID().slice(0, 8)}`;
const content = [
  '<p>Before the attack.</p>',
  '<img src=x alt="" onerror="window.__xss=1">',
  '<script>window.__xss=2</script>',
  '<p><a href="javascript:window.__xss=3">x</a></p>',
  '<iframe src="https://evil.test" title="Evil"></iframe>',
  '<p>After the attack.</p>',
].join('\n');
let postId = '';

test.beforeAll(async () => {
  const { data, error } = await service
    .from('blog_posts')
    .insert({ organization_id: SCALE_PRO_ID, title: 'Sanitized preview check', slug, content, status: 'draft' })
    .select('id')
    .single();
  if (error) throw new Error(`creating the post failed: ${error.message}`);
  postId = data.id;
});

test.afterAll(async () => {
  await service.from('blog_posts').delete().eq('slug', slug);
});

test('the admin preview renders stored post HTML sanitized: no handler, script, javascript: link or foreign frame', async ({ page }) => {
  await openDashboard(page);
  await page.goto(`/admin/blog/preview/${postId}`);
  const body = page.getByTestId('post-body');
  await expect(body).toContainText('After the attack.');

  const image = body.locator('img');
  await expect(image).toHaveCount(1);
  await expect(image).not.toHaveAttribute('onerror');
  // The image's load has failed by now: an error handler would have run.
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete)).toBe(true);
  await expect(body.locator('script')).toHaveCount(0);
  await expect(body.locator('iframe')).toHaveCount(0);

  const link = body.locator('a', { hasText: 'x' });
  await expect(link).not.toHaveAttribute('href', /javascript:/i);
  await link.click();
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page).toHaveURL(new RegExp(`/admin/blog/preview/${postId}$`));
});

test('hostile HTML delivered through the writing-tool webhook is stored sanitized and previews harmless', async ({ page, request }) => {
  const webhookSlug = `e2e-webhook-hostile-${crypto.randomUUID().slice(0, 8)}`;
  try {
    const delivered = await request.post('/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
      data: { webhook_name: 'blog_post_created', title: 'Hostile delivery', html: content, slug: webhookSlug },
    });
    expect(delivered.status()).toBe(201);
    const { post_id: id } = await delivered.json();
    const { data: stored } = await service.from('blog_posts').select('content').eq('id', id).single();
    expect(stored?.content).not.toMatch(/onerror|<script|javascript:|evil\.test/i);

    await openDashboard(page);
    await page.goto(`/admin/blog/preview/${id}`);
    const body = page.getByTestId('post-body');
    await expect(body).toContainText('After the attack.');
    await expect(body.locator('script, iframe, [onerror]')).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  } finally {
    await service.from('blog_posts').delete().eq('slug', webhookSlug);
    await service.from('webhook_deliveries').delete().eq('slug', webhookSlug);
  }
});
