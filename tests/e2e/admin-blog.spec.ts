/**
 * /admin/blog end to end: an editor signs in through /auth, writes and publishes a post (the editor stays on
 * it, at its edit address, and says when it goes live), goes back to the list by the editor's link and
 * finds it there and, after the local rebuild, on the public blog; renames its slug (the redirect row is
 * checked), schedules one (its card tells the time it goes out), deletes both (the public page is gone after
 * the next rebuild); a viewer only reads; a post in the trash is restored from the Trash filter and made sticky in
 * the editor. Users and posts created here are removed afterwards.
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

/** Searches the list and waits until it shows only matching posts (the search is debounced: a click on the
 * unfiltered list could land on a card the filtered one replaces). */
async function search(page: Page, term: string) {
  await page.getByLabel('Search posts').fill(term);
  await expect(page.getByTestId('post-card').first()).toContainText(term);
  await expect(page.getByTestId('post-card').filter({ hasNotText: term })).toHaveCount(0);
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
  // The editor stays open on the saved post: its edit address, its published status's buttons, the toast here.
  const notifications = page.getByRole('status', { name: 'Notifications' });
  await expect(notifications).toContainText('Post published successfully!');
  const { data: first } = await service.from('blog_posts').select('id, status').eq('slug', `${marker}-first`).single();
  expect(first?.status).toBe('published');
  await expect(page).toHaveURL(new RegExp(`/admin/blog/edit/${first!.id}$`));
  // The served site's functions wait an hour before a build (e2e), so the next build is not promised soon.
  await expect(notifications).toContainText(/It goes live on the site (in about \d+ (seconds|minutes), )?when the site (next )?rebuilds\./);
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0);
  await expect(page.getByTestId('post-site-status')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByLabel('Title *')).toHaveValue(`${marker} first`);
  await expect(page.getByRole('button', { name: /^Remove tag/ })).toHaveCount(1);
  // Nothing is unsaved: the back link leaves without asking.
  await page.getByRole('link', { name: 'All posts' }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/?$/);

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
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Post updated.');
  await expect(page.getByLabel('URL Slug')).toHaveValue(`${marker}-renamed`);
  const { data: redirects } = await service.from('blog_post_redirects').select('old_slug').eq('old_slug', `${marker}-first`);
  expect(redirects).toHaveLength(1);

  await page.getByRole('link', { name: 'All posts' }).click();
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
  await expect(page).toHaveURL(/\/admin\/blog\/edit\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('button', { name: 'Reschedule' })).toBeVisible();
  await expect(page.getByLabel('Publish at')).toHaveValue(`${new Date().getFullYear() + 1}-01-01T10:00`);

  await page.getByRole('link', { name: 'All posts' }).click();
  await search(page, `${marker} later`);
  const scheduled = page.getByTestId('post-card').filter({ hasText: `${marker} later` });
  await expect(scheduled.getByTestId('post-status')).toHaveText('scheduled');
  // The card tells when it goes out, in the organization's time zone, and its views in proper English.
  await expect(scheduled).toContainText(`Goes out Jan 1, ${new Date().getFullYear() + 1}, 10:00 AM EST`);
  await expect(scheduled).toContainText('0 views');
  await service.from('blog_posts').update({ view_count: 1 }).eq('slug', `${marker}-later`);
  await page.reload();
  await search(page, `${marker} later`);
  await expect(scheduled).toContainText('1 view');
  await expect(scheduled).not.toContainText('1 views');
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

test("a post a tool moved to the trash waits under Trash; its author restores it as a draft and makes it sticky", async ({ page }) => {
  await signInAs(page, 'editor');
  const { data: author } = await service.from('profiles').select('id').eq('email', created.at(-1)!).single();
  // As a publishing tool leaves it (trash_arrived_post): a draft in the trash, out of every other list.
  const title = `Trashed by a tool ${marker}`;
  const { data: post, error } = await service
    .from('blog_posts')
    .insert({ organization_id: SCALE_PRO_ID, author_id: author!.id, title, slug: `${marker}-trashed`, content: '<p>x</p>', content_source: '<p>x</p>', status: 'draft', trashed_at: new Date().toISOString() })
    .select('id')
    .single();
  expect(error).toBeNull();
  const card = page.getByTestId('post-card').filter({ hasText: title });
  await page.getByRole('searchbox', { name: 'Search posts' }).fill(marker);
  await expect(page.getByText('No posts found')).toBeVisible();
  await page.getByLabel('Filter by status').selectOption('trash');
  await expect(card).toContainText('In Trash');
  await card.getByRole('button', { name: `Restore ${title}` }).click();
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText(`"${title}" is a draft again.`);
  await expect(card).toHaveCount(0);
  await page.getByLabel('Filter by status').selectOption('all');
  await expect(card).toContainText(/draft/i);

  await card.getByRole('link', { name: `Edit ${title}` }).click();
  await page.getByRole('checkbox', { name: /Stick to the top of the blog/ }).check();
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect.poll(async () => (await service.from('blog_posts').select('sticky, trashed_at').eq('id', post!.id).single()).data).toEqual({ sticky: true, trashed_at: null });
  const actions = (await service.from('user_activity_logs').select('action').eq('resource_id', post!.id)).data!.map((entry) => entry.action);
  expect(actions).toContain('post_untrashed');
});
