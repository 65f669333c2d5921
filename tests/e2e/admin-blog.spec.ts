/**
 * /admin/blog end to end: an editor signs in through /auth, writes and publishes a post, finds it in the
 * list and, after the local rebuild, on the public blog; renames its slug (the redirect row is checked),
 * schedules one, deletes both (the public page is gone after the next rebuild); a viewer only reads. Users
 * and posts created here are removed afterwards.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, PASSWORD, removeUser, SCALE_PRO_ID, service } from './support/backend';
import { rebuildPublicSite } from './support/rebuild';

const marker = `e2e-blog-${crypto.randomUUID().slice(0, 8)}`;
const created: string[] = [];

test.afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `${marker}%`);
  await service.from('site_rebuild_requests').delete().like('reason', `%${marker}%`);
  await service.from('user_activity_logs').delete().eq('resource_type', 'blog_post').like('details->>slug', `${marker}%`);
  for (const email of created) await removeUser(email);
});

/**
 * A new member with the role opens /admin/blog signed out, is sent to /auth (which admits every active member
 * when it returns to blog management) and signs in there.
 */
async function signInAs(page: Page, role: 'editor' | 'viewer') {
  const user = await createUser(role);
  created.push(user.email);
  await page.goto('/admin/blog');
  await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Fblog$/);
  await expect(page.getByText('Sign in to continue where you were.')).toBeVisible();
  await page.getByRole('main').getByLabel('Email').fill(user.email);
  await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/blog$/);
  await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible();
  await expect(page.getByText('Welcome to blog management.')).toBeVisible();
}

async function search(page: Page, term: string) {
  await page.getByLabel('Search posts').fill(term);
}

test('an editor publishes, renames, schedules and deletes posts', async ({ page }) => {
  test.setTimeout(480_000); // two real site builds
  await signInAs(page, 'editor');

  await page.getByRole('link', { name: 'New Post' }).click();
  await expect(page.getByRole('heading', { name: 'Create New Post' })).toBeVisible();
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'Title and content are required.' })).toBeVisible();

  await page.getByLabel('Title *').fill(`${marker} first`);
  await expect(page.getByLabel('URL Slug')).toHaveValue(`${marker}-first`);
  await page.getByLabel('Content *').fill('## Hello\n\nSome **bold** text.');
  await expect(page.getByTestId('post-body').locator('h2')).toHaveText('Hello');
  await page.getByRole('textbox', { name: 'Tags' }).fill('SEO');
  await page.getByRole('textbox', { name: 'Tags' }).press('Enter');
  await page.getByRole('textbox', { name: 'Tags' }).fill('SEO');
  await page.getByRole('textbox', { name: 'Tags' }).press('Enter');
  await expect(page.getByRole('button', { name: /^Remove tag/ })).toHaveCount(1);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/?$/);
  await expect(page.getByText('Post published successfully!')).toBeVisible();

  await search(page, marker);
  const card = page.getByTestId('post-card').filter({ hasText: `${marker} first` });
  await expect(card.getByTestId('post-status')).toHaveText('published');
  await expect(card).toContainText('By E2E editor');
  await expect
    .poll(async () => (await service.from('site_rebuild_requests').select('id').eq('organization_id', SCALE_PRO_ID).like('reason', `%${marker}-first`)).data?.length)
    .toBe(1);

  await rebuildPublicSite(SCALE_PRO_ID);
  const visitor = await page.context().newPage();
  await visitor.goto(`/blog/${marker}-first`);
  await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(`${marker} first`);
  await expect(visitor.locator('article h2', { hasText: 'Hello' })).toBeVisible();
  await visitor.goto('/blog');
  await expect(visitor.getByRole('link', { name: `${marker} first` }).first()).toBeVisible();

  await card.getByRole('link', { name: /^Edit/ }).click();
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
  await page.getByLabel('URL Slug').fill(`${marker}-renamed`);
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Post updated successfully!')).toBeVisible();
  const { data: redirects } = await service.from('blog_post_redirects').select('old_slug').eq('old_slug', `${marker}-first`);
  expect(redirects).toHaveLength(1);

  await page.getByRole('link', { name: 'New Post' }).click();
  await page.getByLabel('Title *').fill(`${marker} later`);
  await page.getByLabel('Content *').fill('Coming soon.');
  await page.getByLabel('Publish at').fill('2020-01-01T10:00');
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('Choose a date and time in the future to schedule the post.')).toBeVisible();
  await page.getByLabel('Publish at').fill(`${new Date().getFullYear() + 1}-01-01T10:00`);
  await page.getByRole('button', { name: 'Schedule' }).click();
  // The field is a wall time in the organization's zone (the seed's is New York), not the browser's.
  await expect(page.getByText(`Post scheduled for Jan 1, ${new Date().getFullYear() + 1}, 10:00 AM EST.`)).toBeVisible();

  await search(page, `${marker} later`);
  const scheduled = page.getByTestId('post-card').filter({ hasText: `${marker} later` });
  await expect(scheduled.getByTestId('post-status')).toHaveText('scheduled');
  const { data: later } = await service.from('blog_posts').select('published_at').eq('slug', `${marker}-later`).single();
  expect(new Date(later!.published_at as string).toISOString()).toBe(`${new Date().getFullYear() + 1}-01-01T15:00:00.000Z`);
  await scheduled.getByRole('button', { name: /^Delete/ }).click();
  await expect(page.getByRole('dialog')).toContainText('Are you sure you want to delete this post?');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Post deleted')).toBeVisible();
  await expect(page.getByText('No posts found')).toBeVisible();
  const { data: left } = await service.from('blog_posts').select('id').eq('slug', `${marker}-later`);
  expect(left).toEqual([]);

  // Deleting the published post takes it off the public blog with the next build.
  await search(page, `${marker} first`);
  await page.getByTestId('post-card').filter({ hasText: `${marker} first` }).getByRole('button', { name: /^Delete/ }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Post deleted')).toBeVisible();
  await rebuildPublicSite(SCALE_PRO_ID);
  const gone = await visitor.goto(`/blog/${marker}-renamed`);
  expect(gone?.status()).toBe(404);
  await visitor.close();
});

test('a viewer sees the list without new, edit or delete', async ({ page }) => {
  await signInAs(page, 'viewer');
  await expect(page.getByTestId('post-card').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'New Post' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: /^Edit/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await page.goto('/admin/blog/new');
  await expect(page.getByText('Viewers cannot create or edit posts.')).toBeVisible();
});
