/**
 * The post editor as a writer uses it: every save keeps the editor open on the saved post; Markdown written,
 * saved and opened again is the same Markdown; a published post says when it goes live and then that it is
 * live (with a link), is updated in place and unpublished only after the editor's own dialog, and the next
 * build takes it off the site; an older revision is previewed (sanitized), its restore says what it does,
 * and it comes back; unsaved work survives a reload, and leaving asks first. The database's audit rows are
 * checked along the way. Everything created here is removed afterwards.
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
  // The search has answered (the title is the test's own): a click before then can land on a card the
  // answer replaces, and nothing opens (a fresh clone's run lost this test so).
  await expect(page.getByTestId('post-card')).toHaveCount(1);
  await page.getByTestId('post-card').filter({ hasText: title }).getByRole('link', { name: /^Edit/ }).click();
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
}

const notifications = (page: Page) => page.getByRole('status', { name: 'Notifications' });

async function postRow(slug: string) {
  const { data } = await service.from('blog_posts').select('id, status, title, excerpt, content_source, content_format').eq('slug', slug).single();
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
  const { id } = await postRow(slug);
  await expect(page).toHaveURL(new RegExp(`/admin/blog/edit/${id}$`));

  // The address is the post's: a reload opens it from the database.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
  await expect(page.getByLabel('Content *')).toHaveValue(MARKDOWN);
  await expect(page.getByLabel('Content format')).toHaveValue('markdown');
  expect(await postRow(slug)).toMatchObject({ content_source: MARKDOWN, content_format: 'markdown', status: 'draft' });
  await expect(page.getByTestId('post-site-status')).toHaveCount(0);

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(notifications(page)).toContainText('Post published successfully!');
  await expect(page.getByRole('button', { name: 'Save Draft' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toHaveCount(0);
  expect((await postRow(slug)).status).toBe('published');
  await page.getByLabel('Excerpt').fill('Updated while published.');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(notifications(page)).toContainText('Post updated.');
  await expect(notifications(page)).toContainText(/It goes live on the site .*rebuilds\./);
  const onSite = page.getByTestId('post-site-status');
  await expect(onSite).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByLabel('Excerpt')).toHaveValue('Updated while published.');

  // The build runs while the editor is open: the editor follows the site status and says the post is live.
  await rebuildPublicSite(SCALE_PRO_ID);
  await expect(onSite).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(onSite).toContainText('Your post is live.');
  await expect(onSite.getByRole('link', { name: /View it/ })).toHaveAttribute('href', `/blog/${slug}`);
  await expect(notifications(page)).toContainText('Your post is live.');

  await page.getByRole('link', { name: 'All posts' }).click();
  await page.getByLabel('Search posts').fill(title);
  const card = page.getByTestId('post-card').filter({ hasText: title });
  await expect(card.getByTestId('post-status')).toHaveText('published');
  await expect(card.getByTestId('post-live')).toHaveText('Live');

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
  await expect(notifications(page)).toContainText('Post unpublished.');
  await expect(notifications(page)).toContainText(/It leaves the site .*rebuilds\./);
  await expect(page.getByRole('button', { name: 'Publish', exact: true })).toBeVisible();
  await expect(onSite).toHaveAttribute('data-state', 'waiting');
  expect((await postRow(slug)).status).toBe('draft');

  await rebuildPublicSite(SCALE_PRO_ID);
  await expect(onSite).toHaveAttribute('data-state', 'done', { timeout: 20_000 });
  await expect(onSite).toHaveText('Your post is off the site.');
  expect((await visitor.goto(`/blog/${slug}`))?.status()).toBe(404);
  await visitor.close();
  await page.getByRole('link', { name: 'All posts' }).click();
  await page.getByLabel('Search posts').fill(title);
  await expect(card.getByTestId('post-status')).toHaveText('draft');

  const { data: audit } = await service.from('user_activity_logs').select('action').eq('resource_id', id).order('created_at');
  expect(audit!.map((entry) => entry.action)).toEqual(['post_created', 'post_published', 'post_updated', 'post_unpublished']);
});

test('an older revision is previewed and comes back; unsaved work survives a reload and leaving asks first', async ({ page }) => {
  await signInAsEditor(page);
  const title = `${marker} revisions`;
  // The first version carries markup the preview must not run: its source is kept as written.
  const first = 'The first version.\n\n<img src="/favicon.svg" alt="logo" onerror="document.title=\'pwned\'" onload="document.title=\'pwned\'">';
  await page.getByRole('link', { name: 'New Post' }).click();
  await page.getByLabel('Title *').fill(title);
  await page.getByLabel('Content *').fill(first);
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Post saved successfully!')).toBeVisible();

  // Still in the editor: the second version is saved right away.
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
  await page.getByLabel('Title *').fill(`${title} renamed`);
  await page.getByLabel('Content *').fill('The second version.');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page.getByText('Post saved successfully!')).toBeVisible();

  const history = page.getByRole('region', { name: 'Revision history' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  await expect(history.getByRole('listitem').first()).toContainText('Changed title, content');
  await expect(history.getByRole('listitem').last()).toContainText('Created');

  // The older revision's preview: its title and content, rendered and sanitized as the editor's preview is.
  await history.getByRole('button', { name: /^Preview the revision/ }).click();
  const preview = page.getByRole('dialog', { name: 'Revision preview' });
  await expect(preview.getByTestId('revision-preview').getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(preview.getByTestId('post-body')).toContainText('The first version.');
  await expect(preview.getByTestId('post-body').locator('img[alt="logo"]')).toHaveCount(1);
  await expect(preview.locator('[onerror], [onload], script')).toHaveCount(0);
  expect(await page.title()).not.toBe('pwned');
  await expect(page.getByLabel('Content *')).toHaveValue('The second version.');
  await preview.getByRole('button', { name: 'Restore this version' }).click();

  const confirm = page.getByRole('dialog', { name: 'Restore this revision?' });
  await expect(confirm).toContainText('are saved at once as the draft; nothing changes on the site until you publish.');
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('Revision restored.')).toBeVisible();
  await expect(page.getByLabel('Content *')).toHaveValue(first);
  await expect(page.getByLabel('Title *')).toHaveValue(title);
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
  await page.getByRole('link', { name: 'All posts' }).click();
  await expect(page.getByRole('dialog')).toContainText('You have unsaved changes. Leave without saving?');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByLabel('Content *')).toHaveValue('Typed but not saved.');
  await page.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByLabel('Content *')).toHaveValue(first);
  await page.getByRole('link', { name: 'Posts', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/?$/);
});

test('an open editor learns that the scheduler published its post, refuses to overwrite it, and goes on from the latest version', async ({ page }) => {
  const editor = await signInAsEditor(page);
  const slug = `${marker}-stale`;
  const at = new Date(Date.now() + 3_600_000).toISOString();
  const { data: post } = await service
    .from('blog_posts')
    .insert({ organization_id: SCALE_PRO_ID, author_id: editor.id, title: `${marker} stale`, slug, content: '<p>Scheduled body.</p>', content_source: 'Scheduled body.', content_format: 'markdown', status: 'scheduled', published_at: at })
    .select('id')
    .single();
  await page.goto(`/admin/blog/edit/${post!.id}`);
  await expect(page.getByRole('button', { name: 'Cancel schedule' })).toBeVisible();
  await page.getByLabel('Title *').fill(`${marker} stale, edited here`);

  // The scheduler publishes it at its time while the editor is open, and another tab saves a new excerpt; the
  // editor hears of it on its next look.
  await service.from('blog_posts').update({ status: 'published', excerpt: 'Written in another tab.' }).eq('id', post!.id);
  await page.waitForTimeout(2_100); // a return to the page reads again once the last read is 2 s old
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  const notice = page.getByRole('alert').filter({ hasText: 'This post changed since you opened it.' });
  await expect(notice).toContainText('The scheduler published it at');
  // What it offers is what the post is now: live, so no Cancel schedule.
  await expect(page.getByRole('button', { name: 'Cancel schedule' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();

  // A save would overwrite it: refused, and the post is as the scheduler left it.
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(notifications(page)).toContainText('This post was changed elsewhere since you opened it.');
  expect(await postRow(slug)).toMatchObject({ status: 'published', title: `${marker} stale` });

  // The latest version, with only the field changed here (the title) back over it: the other tab's excerpt stays,
  // and a published post's actions now.
  await notice.getByRole('button', { name: 'Load the latest version' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Unpublish' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel schedule' })).toHaveCount(0);
  await expect(page.getByLabel('Title *')).toHaveValue(`${marker} stale, edited here`);
  await expect(page.getByLabel('Excerpt')).toHaveValue('Written in another tab.');
  await page.getByRole('button', { name: 'Update', exact: true }).click();
  await expect(notifications(page)).toContainText('Post updated');
  expect(await postRow(slug)).toMatchObject({ status: 'published', title: `${marker} stale, edited here`, excerpt: 'Written in another tab.' });
});
