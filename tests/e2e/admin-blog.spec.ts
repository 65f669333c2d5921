/**
 * /admin/blog end to end: an editor writes and publishes a post (the rebuild request row is checked; a full
 * site rebuild is too slow for e2e), renames its slug (the redirect row is checked), schedules and deletes
 * one; a viewer only reads. Users and posts created here are removed afterwards.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, passwordSession, removeUser, SCALE_PRO_ID, service, storageKey } from './support/backend';

const marker = `e2e-blog-${crypto.randomUUID().slice(0, 8)}`;
const created: string[] = [];

test.afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `${marker}%`);
  await service.from('site_rebuild_requests').delete().like('reason', `%${marker}%`);
  await service.from('user_activity_logs').delete().eq('action', 'post_deleted').like('details->>slug', `${marker}%`);
  for (const email of created) await removeUser(email);
});

/**
 * Signs in a new member with the role and opens the blog list. /auth admits admins only (spec back-office
 * 6), so the editor's or viewer's session is put into storage the way supabase-js keeps it.
 */
async function signInAs(page: Page, role: 'editor' | 'viewer') {
  const user = await createUser(role);
  created.push(user.email);
  const session = await passwordSession(user.email);
  await page.goto('/');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [storageKey, JSON.stringify(session)] as const);
  await page.goto('/admin/blog');
  await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible();
}

async function search(page: Page, term: string) {
  await page.getByLabel('Search posts').fill(term);
}

test('an editor publishes, renames, schedules and deletes posts', async ({ page }) => {
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

  await card.getByRole('link', { name: /^Edit/ }).click();
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
  await page.getByLabel('URL Slug').fill(`${marker}-renamed`);
  await page.getByRole('button', { name: 'Publish' }).click();
  await expect(page.getByText('Post published successfully!')).toBeVisible();
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
  await expect(page.getByText('Post saved successfully!')).toBeVisible();

  await search(page, `${marker} later`);
  const scheduled = page.getByTestId('post-card').filter({ hasText: `${marker} later` });
  await expect(scheduled.getByTestId('post-status')).toHaveText('scheduled');
  await scheduled.getByRole('button', { name: /^Delete/ }).click();
  await expect(page.getByRole('dialog')).toContainText('Are you sure you want to delete this post?');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Post deleted')).toBeVisible();
  await expect(page.getByText('No posts found')).toBeVisible();
  const { data: left } = await service.from('blog_posts').select('id').eq('slug', `${marker}-later`);
  expect(left).toEqual([]);
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
