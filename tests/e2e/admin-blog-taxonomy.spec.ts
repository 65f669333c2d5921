/**
 * /admin/blog/categories end to end, as an editor: rename a category (after the local rebuild its old public
 * address leads to the new one) and merge two tags that differ only in more than case. A viewer sees the
 * lists without actions. Everything created here is removed afterwards.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, PASSWORD, removeUser, SCALE_PRO_ID, service } from './support/backend';
import { rebuildPublicSite } from './support/rebuild';

const marker = `e2e-tax-${crypto.randomUUID().slice(0, 8)}`;
const created: string[] = [];
let categoryId = '';

test.beforeAll(async () => {
  const { data: category, error } = await service
    .from('blog_categories')
    .insert({ organization_id: SCALE_PRO_ID, name: `${marker} Walks`, slug: `${marker}-walks` })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  categoryId = category.id;
  const posts = [
    { slug: `${marker}-one`, tags: [`${marker}-walk-tag`], category_id: categoryId },
    { slug: `${marker}-two`, tags: [`${marker}-walking`], category_id: categoryId },
  ].map((post) => ({
    ...post,
    organization_id: SCALE_PRO_ID,
    title: post.slug,
    content: '<p>A walk in the park.</p>',
    status: 'published',
    published_at: new Date(Date.now() - 60_000).toISOString(),
  }));
  const inserted = await service.from('blog_posts').insert(posts);
  if (inserted.error) throw new Error(inserted.error.message);
});

test.afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `${marker}%`);
  await service.from('blog_categories').delete().like('slug', `${marker}%`);
  await service.from('blog_tags').delete().like('name', `${marker}%`);
  await service.from('site_rebuild_requests').delete().like('reason', `%${marker}%`);
  await service.from('user_activity_logs').delete().in('resource_type', ['blog_category', 'blog_tag']).like('details::text', `%${marker}%`);
  for (const email of created) await removeUser(email);
});

async function signInAs(page: Page, role: 'editor' | 'viewer') {
  const user = await createUser(role);
  created.push(user.email);
  await page.goto('/admin/blog/categories');
  await expect(page).toHaveURL(/\/auth\?next=/);
  await page.getByRole('main').getByLabel('Email').fill(user.email);
  await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/categories$/);
  await expect(page.getByRole('heading', { name: 'Categories & Tags', level: 2 })).toBeVisible();
}

const toastWith = (page: Page, text: string) => page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text });

test('an editor renames a category (its old address redirects) and merges two tags', async ({ page }) => {
  test.setTimeout(300_000); // one real site build
  await signInAs(page, 'editor');

  const categories = page.getByRole('region', { name: 'Categories' });
  await expect(categories.getByTestId('category-row').first()).toContainText('Uncategorized');
  await expect(categories.getByTestId('category-row').first()).toContainText('Default');
  await expect(categories.getByRole('button', { name: 'Delete Uncategorized' })).toHaveCount(0);

  await categories.getByRole('button', { name: `Rename ${marker} Walks` }).click();
  const rename = page.getByRole('dialog', { name: 'Rename category' });
  await rename.getByLabel('Name').fill(`${marker} Hikes`);
  await expect(rename.getByText(`New address: /blog/category/${marker}-hikes`)).toBeVisible();
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(toastWith(page, `Category renamed to "${marker} Hikes"`)).toBeVisible();
  await expect(categories.getByTestId('category-row').filter({ hasText: `${marker} Hikes` })).toContainText(`/blog/category/${marker}-hikes · 2 posts`);

  const tags = page.getByRole('region', { name: 'Tags' });
  await tags.getByRole('button', { name: `Rename / merge ${marker}-walk-tag` }).click();
  const tagDialog = page.getByRole('dialog', { name: `Rename or merge "${marker}-walk-tag"` });
  await tagDialog.getByLabel('New name').fill(`${marker}-WALKING`);
  await expect(tagDialog.getByText(`Merges into "${marker}-walking" (1 post).`)).toBeVisible();
  await tagDialog.getByRole('button', { name: 'Merge' }).click();
  await expect(toastWith(page, `Tag "${marker}-walk-tag" merged into "${marker}-walking"`)).toBeVisible();
  await expect(tags.getByTestId('tag-row').filter({ hasText: `${marker}-walking` })).toContainText('2 posts');
  await expect(tags.getByRole('button', { name: `Rename / merge ${marker}-walk-tag` })).toHaveCount(0);

  const { data: posts } = await service.from('blog_posts').select('tags').like('slug', `${marker}%`);
  expect(posts?.map((post) => post.tags)).toEqual([[`${marker}-walking`], [`${marker}-walking`]]);

  await rebuildPublicSite(SCALE_PRO_ID);
  // The build leaves a forced 301 in _redirects (netlify serve reads that file only when it starts) and a
  // page at the old address that sends the browser on.
  expect(readFileSync(join(process.cwd(), 'dist/_redirects'), 'utf8')).toContain(`/blog/category/${marker}-walks /blog/category/${marker}-hikes 301!`);
  await page.goto(`/blog/category/${marker}-walks`);
  await expect(page).toHaveURL(new RegExp(`/blog/category/${marker}-hikes$`));
  await expect(page.getByRole('heading', { name: `${marker} Hikes Articles` })).toBeVisible();
});

test('a viewer sees categories and tags without actions', async ({ page }) => {
  await signInAs(page, 'viewer');
  await expect(page.getByText('You can view categories and tags. Editors and admins change them.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Categories' }).getByTestId('category-row').first()).toContainText('Uncategorized');
  await expect(page.getByRole('button', { name: /^(Rename|Delete|Merge)/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Create' })).toHaveCount(0);
});
