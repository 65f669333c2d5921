/**
 * The publishing queue end to end: an admin sets the slots on /admin/blog/queue, an editor adds a draft to the
 * queue from the editor (it takes the next free slot, after the two already waiting) and moves it to the top
 * in blog management, where the order and the slots re-flow and stay after a reload. Everything created here
 * is removed, and the seed's queue settings are restored.
 */
import type { Page } from '@playwright/test';
import { expect, test, waitForIslands } from './fixtures';
import { createUser, PASSWORD, removeUser, SCALE_PRO_ID, service } from './support/backend';

const marker = `e2e-queue-${crypto.randomUUID().slice(0, 8)}`;
const created: string[] = [];
const since = new Date().toISOString();
let draftId = '';

test.beforeAll(async () => {
  const queued = ['first', 'second'].map((name) => ({
    organization_id: SCALE_PRO_ID, slug: `${marker}-${name}`, title: `${marker} ${name}`, content: `<p>${name}</p>`, queued: true,
  }));
  for (const post of queued) {
    const { error } = await service.from('blog_posts').insert(post);
    if (error) throw new Error(error.message);
  }
  const { data, error } = await service
    .from('blog_posts')
    .insert({ organization_id: SCALE_PRO_ID, slug: `${marker}-draft`, title: `${marker} draft`, content: '<p>Ready when the queue is.</p>', content_source: 'Ready when the queue is.', content_format: 'markdown' })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  draftId = data.id;
});

test.afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `${marker}%`);
  await service.rpc('set_publishing_queue', {
    p_organization_id: SCALE_PRO_ID, p_time_zone: 'America/New_York', p_posts_per_day: 1, p_weekdays: [1, 2, 3, 4, 5],
    p_window_start: '09:00', p_window_end: '17:00', p_spread_minutes: 0,
  });
  await service.from('user_activity_logs').delete().eq('organization_id', SCALE_PRO_ID).gte('created_at', since).in('action', ['publishing_queue_changed', 'queue_reordered', 'post_scheduled', 'post_created']);
  for (const email of created) await removeUser(email);
});

async function signIn(page: Page, role: 'admin' | 'editor', path: string) {
  const user = await createUser(role);
  created.push(user.email);
  await page.goto(path);
  await expect(page).toHaveURL(/\/auth\?next=/);
  await waitForIslands(page);
  await page.getByRole('main').getByLabel('Email').fill(user.email);
  await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`${path.replaceAll('/', '\\/')}$`));
}

const queueItems = (page: Page) => page.getByRole('list', { name: 'Queued posts' }).getByRole('listitem');
const titlesInQueue = async (page: Page) =>
  (await queueItems(page).getByRole('link').allTextContents()).filter((title) => title.startsWith(marker));

test('an admin sets the slots; an editor queues a draft from the editor and moves it to the top', async ({ browser }) => {
  const adminPage = await (await browser.newContext()).newPage();
  await signIn(adminPage, 'admin', '/admin/blog/queue');
  await expect(adminPage.getByRole('heading', { name: 'Publishing Queue', level: 2 })).toBeVisible();
  await adminPage.getByLabel('Posts a day').fill('2');
  await adminPage.getByLabel('Time zone').selectOption('America/Chicago');
  await adminPage.getByLabel('Until').fill('09:00'); // before the start: refused in the form, nothing saved
  await adminPage.getByRole('button', { name: 'Save slots' }).click();
  await expect(adminPage.getByText('The window must start before it ends')).toBeVisible();
  await adminPage.getByLabel('Until').fill('17:00');
  await adminPage.getByRole('button', { name: 'Save slots' }).click();
  await expect(adminPage.getByRole('status', { name: 'Notifications' })).toContainText('Publishing queue saved');
  await expect(adminPage.getByText(/^2 posts a day, Mon, Tue, Wed, Thu, Fri, between 09:00 and 17:00 \(America\/Chicago\)$/)).toBeVisible();
  await adminPage.context().close();

  const page = await (await browser.newContext()).newPage();
  await signIn(page, 'editor', `/admin/blog/edit/${draftId}`);
  await expect(page.getByRole('heading', { name: 'Edit Post' })).toBeVisible();
  await page.getByRole('button', { name: 'Add to queue' }).click();
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText(/Post added to the publishing queue\. Its slot: .+ C[SD]T\./);
  // The editor stays on the post, now queued: it says so and offers the queue's own buttons.
  await expect(page).toHaveURL(new RegExp(`/admin/blog/edit/${draftId}$`));
  await expect(page.getByRole('status').filter({ hasText: 'In the publishing queue: goes out' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Take out of queue' })).toBeVisible();

  await page.getByRole('link', { name: 'Reorder in the queue' }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/queue$/);
  await expect.poll(() => titlesInQueue(page)).toEqual([`${marker} first`, `${marker} second`, `${marker} draft`]);
  const slots = await queueItems(page).locator('time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')));
  await expect(page.getByText('Admins change the slots.')).toBeVisible();

  await page.getByRole('button', { name: `Move “${marker} draft” up` }).click();
  await expect.poll(() => titlesInQueue(page)).toEqual([`${marker} first`, `${marker} draft`, `${marker} second`]);
  await page.getByRole('button', { name: `Move “${marker} draft” up` }).click();
  await expect.poll(() => titlesInQueue(page)).toEqual([`${marker} draft`, `${marker} first`, `${marker} second`]);
  // The slots stay where they were; the posts changed places on them.
  expect(await queueItems(page).locator('time').evaluateAll((times) => times.map((time) => time.getAttribute('datetime')))).toEqual(slots);

  await page.reload();
  await expect.poll(() => titlesInQueue(page)).toEqual([`${marker} draft`, `${marker} first`, `${marker} second`]);
  const { data: stored } = await service.from('blog_posts').select('slug, status, queued').like('slug', `${marker}%`).order('published_at');
  expect(stored).toEqual([
    { slug: `${marker}-draft`, status: 'scheduled', queued: true },
    { slug: `${marker}-first`, status: 'scheduled', queued: true },
    { slug: `${marker}-second`, status: 'scheduled', queued: true },
  ]);

  // Taking one out re-flows the others and leaves it a draft.
  await queueItems(page).filter({ hasText: `${marker} first` }).getByRole('button', { name: 'Take out' }).click();
  await expect.poll(() => titlesInQueue(page)).toEqual([`${marker} draft`, `${marker} second`]);
  const { data: first } = await service.from('blog_posts').select('status, queued').eq('slug', `${marker}-first`).single();
  expect(first).toEqual({ status: 'draft', queued: false });
});
