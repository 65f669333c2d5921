/**
 * The post editor as a writer uses it: Markdown written, saved and opened again is the same Markdown; a
 * published post is updated in place and unpublished only after the editor's own dialog, and the next build
 * takes it off the site; an older revision comes back; unsaved work survives a reload, and leaving asks
 * first. The database's audit rows are checked along the way. Everything created here is removed afterwards.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, PASSWORD, removeUser, SCALE_PRO_ID, service } from './support/backend';
import { rebuildPublicSite } from './support/rebuild';

const marker = `e2e-editor-${crypto.randomUUID().slice(0, 8)}`;
const created: string[] = [];

const MARKDOWN = [
  '## Why it matters',
  '',
  '- First point',
  '- Second point',
  '',
  'Read [the guide](https://example.com/guide) and run `npm run build`:',
  '',
  '```',
  'const answer = 42;',
  '```',
  '',
].join('\n');

test.afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `${marker}%`);
  await service.from('site_rebuild_requests').delete().like('reason', `%${marker}%`);
  await service.from('user_activity_logs').delete().eq('resource_type', 'blog_post').like('details->>slug', `${marker}%`);
  for (const email of created) await removeUser(email);
});

async function signInAsEditor(page: Page) {
  const user = await createUser('editor');
  created.push(user.email);
  await page.goto('/auth?next=%2Fadmin%2Fblog');
  await page.getByRole('main').getByLabel('Email').fill(user.email);
  await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/blog$/);
  return user;
}

async function openFromList(page: Page, title: string) {
  await page.getByLabel('Search posts').fill(title);
  await page.getByTestId('post-card').filter({ hasText: title }).getByRole('link', { name: /^Edit/ }).click();
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
}

async function postRow(slug: string) {
  const { data } = await service.from('blog_posts').select('id, status, title, content_source, content_format').eq('slug', slug).single();
  return data!;
}

test('Markdown stays Markdown; Update keeps a post published; Unpublish asks, then the next build removes it', async ({ page }) => {
  test.setTimeout(480_000); // two real site builds
  await signInAsEditor(page);
  const title = `${marker} markdown`;
  const slug = `${marker}-markdown`;

  await page.getByRole('link', { name: 'New Post' }).click();
  await page.getByLabel('Title *').fill(title);
  await expect(page.getByLabel('Content format')).toHaveValue('markdown');
  await page.getByLabel('Content *').fill(MARKDOWN);
  const preview = page.getByTestId('post-body');
  await expect(preview.locator('h2', { hasText: 'Why it matters' })).toBeVisible();
  await expect(preview.locator('li')).toHaveText(['First point', 'Second point']);
  await expect(preview.getByRole('link', { name: 'the guide' })).toHaveAttribute('href', 'https://example.com/guide');
  await expect(preview.locator('pre code')).toHaveText('const answer = 42;');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Post saved successfully!')).toBeVisible();

  await page.reload();
  await openFromList(page, title);
  await expect(page.getByLabel('Content *')).toHaveValue(MARKDOWN);
  await expect(page.getByLabel('Content format')).toHaveValue('markdown');
  expect(await postRow(slug)).toMatchObject({ content_source: MARKDOWN, content_format: 'markdown', status: 'draft' });

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByText('Post published successfully!')).toBeVisible();
  await openFromList(page, title);
  await expect(page.getByRole('button', { name: 'Save Draft' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0);
  await page.getByLabel('Excerpt').fill('Updated while published.');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Post updated successfully!')).toBeVisible();
  const card = page.getByTestId('post-card').filter({ hasText: title });
  await expect(card.getByTestId('post-status')).toHaveText('published');

  await rebuildPublicSite(SCALE_PRO_ID);
  const visitor = await page.context().newPage();
  await visitor.goto(`/blog/${slug}`);
  await expect(visitor.locator('article h2', { hasText: 'Why it matters' })).toBeVisible();
  await expect(visitor.locator('article pre code')).toHaveText('const answer = 42;');

  await openFromList(page, title);
  await page.getByRole('button', { name: 'Unpublish' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Unpublish this post?');
  await expect(dialog).toContainText('It leaves the site at the next build and stays here as a draft.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await postRow(slug)).status).toBe('published');
  await page.getByRole('button', { name: 'Unpublish' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Unpublish' }).click();
  await expect(page.getByText('Post unpublished. It leaves the site at the next build.')).toBeVisible();
  await expect(card.getByTestId('post-status')).toHaveText('draft');

  await rebuildPublicSite(SCALE_PRO_ID);
  expect((await visitor.goto(`/blog/${slug}`))?.status()).toBe(404);
  await visitor.close();

  const { id } = await postRow(slug);
  const { data: audit } = await service.from('user_activity_logs').select('action').eq('resource_id', id).order('created_at');
  expect(audit!.map((entry) => entry.action)).toEqual(['post_created', 'post_published', 'post_updated', 'post_unpublished']);
});

test('an older revision comes back; unsaved work survives a reload and leaving asks first', async ({ page }) => {
  await signInAsEditor(page);
  const title = `${marker} revisions`;
  await page.getByRole('link', { name: 'New Post' }).click();
  await page.getByLabel('Title *').fill(title);
  await page.getByLabel('Content *').fill('The first version.');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Post saved successfully!')).toBeVisible();

  await openFromList(page, title);
  await page.getByLabel('Content *').fill('The second version.');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Post saved successfully!')).toBeVisible();

  await openFromList(page, title);
  const history = page.getByRole('region', { name: 'Revision history' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').first()).toContainText('Changed content');
  await expect(history.getByRole('listitem').last()).toContainText('Created');
  await history.getByRole('button', { name: /^Restore/ }).click();
  await expect(page.getByRole('dialog')).toContainText('Restore this revision?');
  await page.getByRole('dialog').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Revision restored.')).toBeVisible();
  await expect(page.getByLabel('Content *')).toHaveValue('The first version.');
  await expect(history.getByRole('listitem')).toHaveCount(3);
  await expect(history.getByRole('listitem').first()).toContainText('Restored an earlier version');

  // Unsaved typing is kept in this browser: a reload brings it back with a notice.
  await page.getByLabel('Content *').fill('Typed but not saved.');
  await page.waitForTimeout(1200); // the autosave waits for a pause in typing
  page.once('dialog', (prompt) => void prompt.accept());
  await page.reload();
  await expect(page.getByLabel('Content *')).toHaveValue('Typed but not saved.');
  await expect(page.getByRole('status').filter({ hasText: 'Restored your unsaved changes' })).toBeVisible();

  // Leaving by a link asks in the editor's own dialog; staying keeps the work.
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page.getByRole('dialog')).toContainText('You have unsaved changes. Leave without saving?');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByLabel('Content *')).toHaveValue('Typed but not saved.');
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByLabel('Content *')).toHaveValue('The first version.');
  await page.getByRole('link', { name: 'Posts' }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/?$/);
});
