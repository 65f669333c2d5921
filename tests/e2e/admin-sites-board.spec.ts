/**
 * The sites board (/admin/sites) in the browser: a person in several organizations finds it under "All sites",
 * sees one row per site in their role there with its state and figures, finds, filters and sorts them, and opens
 * one, which switches the back office to it; the calendar beside it shows the sites' posts going out, and an
 * admin moves a queued post to another day while a viewer only looks. An organization of its own (no build
 * hook, a post going out in two days, two queued) keeps what is asserted here out of reach of the other tests;
 * Scale Pro's row is only looked for.
 */
import { expect, test } from './fixtures';
import { createUser, organizationOfItsOwn, removeUser, SCALE_PRO_ID, service } from './support/backend';
import { signInAsAdmin, submitSignIn } from './support/sign-in';

type Own = Awaited<ReturnType<typeof organizationOfItsOwn>>;
let own: Own;

test.beforeAll(async () => {
  own = await organizationOfItsOwn('Board Client');
  const { error } = await service.from('blog_posts').insert({
    organization_id: own.organization.id, title: 'Going out soon', slug: 'going-out-soon', content: '<p>Soon.</p>', status: 'scheduled',
    published_at: new Date(Date.now() + 2 * 86_400_000).toISOString(),
  });
  expect(error).toBeNull();
  // A queue of one post a day, and two posts in it: the calendar's post to move.
  const queue = await service.rpc('set_publishing_queue', {
    p_organization_id: own.organization.id, p_time_zone: 'America/Chicago', p_posts_per_day: 1, p_weekdays: [1, 2, 3, 4, 5, 6, 7],
    p_window_start: '09:00', p_window_end: '10:00', p_spread_minutes: 0,
  });
  expect(queue.error).toBeNull();
  for (const title of ['Queued first', 'Queued second']) {
    const queued = await service.from('blog_posts').insert({
      organization_id: own.organization.id, title, slug: title.toLowerCase().replace(' ', '-'), content: '<p>Queued.</p>', status: 'scheduled', queued: true,
    });
    expect(queued.error).toBeNull();
  }
});
test.afterAll(async () => {
  await own?.remove();
});

const rowOf = (page: import('@playwright/test').Page, organizationId: string) => page.locator(`[data-testid="site-row"][data-organization-id="${organizationId}"]`);

test('an admin of two organizations sees both sites with what to act on, finds and sorts them, and opens one', async ({ page }) => {
  await signInAsAdmin(page, own.admin.email);
  const boardReads: import('@playwright/test').Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/rest/v1/rpc/sites_board') boardReads.push(request);
  });
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'All sites' }).click();
  await expect(page).toHaveURL(/\/admin\/sites$/);
  await expect(page.getByRole('heading', { name: 'Your sites' })).toBeVisible();
  await expect(page.getByTestId('sites-summary')).toHaveText(/^2 sites; \d+ with a problem to act on\.$/);
  // One read: the page's inline script's (not supabase-js's, which names itself), taken by the board.
  expect(boardReads).toHaveLength(1);
  expect(await boardReads[0]!.headerValue('x-client-info')).toBeNull();

  const mine = rowOf(page, own.organization.id);
  await expect(mine).toContainText('Board Client');
  await expect(mine).toContainText('Admin');
  await expect(mine.getByText('No build hook', { exact: true })).toBeVisible();
  await expect(mine.getByTestId('site-problem')).toHaveText('No build hook: nothing reaches the site until an admin sets it under Settings, Hosting & builds.');
  // Going out in 7 days (one scheduled, two queued), published this month, views, IndexNow failures; deploys against its team's budget.
  await expect(mine.locator('td').nth(3)).toHaveText('3', { useInnerText: true });
  await expect(mine.locator('td').nth(4)).toHaveText('0', { useInnerText: true });
  await expect(mine).toContainText(/0 \(0 credits\)/);
  await expect(rowOf(page, SCALE_PRO_ID)).toContainText('Scale Pro');

  await page.getByRole('searchbox').fill('board cli');
  await expect(page.getByTestId('site-row')).toHaveCount(1);
  await page.getByRole('searchbox').fill('');
  await page.getByRole('button', { name: 'Site', exact: true }).click();
  await expect(page.getByRole('columnheader', { name: /^Site/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByTestId('site-row').first()).toContainText('Board Client');
  await page.getByRole('button', { name: /^Site/ }).click();
  await expect(page.getByRole('columnheader', { name: /^Site/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByTestId('site-row').first()).toContainText('Scale Pro');
  await page.getByLabel('State').selectOption('no_hook');
  await expect(page.getByTestId('site-row')).toHaveCount(1);

  await mine.getByRole('button', { name: 'Open Board Client' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByLabel('Managing')).toHaveValue(own.organization.id);
});

test('an editor of one organization and viewer of another sees each in that role, and a viewer\'s Open lands in the posts', async ({ page }) => {
  const person = await createUser('editor');
  try {
    const { error } = await service.from('organization_memberships').insert({ user_id: person.id, organization_id: own.organization.id, role: 'viewer' });
    expect(error).toBeNull();
    await submitSignIn(page, person.email);
    await expect(page).toHaveURL(/\/admin\/blog/);
    await page.goto('/admin/sites');
    await expect(rowOf(page, SCALE_PRO_ID)).toContainText('Editor');
    const viewed = rowOf(page, own.organization.id);
    await expect(viewed).toContainText('Viewer');
    await page.getByLabel('Your role').selectOption('viewer');
    await expect(page.getByTestId('site-row')).toHaveCount(1);
    await viewed.getByRole('button', { name: 'Open Board Client' }).click();
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(page.getByLabel('Managing')).toHaveValue(own.organization.id);
  } finally {
    await removeUser(person.email);
  }
});

test('a member of one organization has no "All sites" section, and the board shows only that site', async ({ page }) => {
  const person = await createUser('viewer');
  try {
    await submitSignIn(page, person.email);
    await expect(page).toHaveURL(/\/admin\/blog/);
    await expect(page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Posts' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'All sites' })).toHaveCount(0);
    await page.goto('/admin/sites');
    await expect(page.getByTestId('sites-summary')).toHaveText(/^1 site; /);
    await expect(page.getByTestId('site-row')).toHaveCount(1);
    await expect(rowOf(page, own.organization.id)).toHaveCount(0);
  } finally {
    await removeUser(person.email);
  }
});

test('the calendar shows the sites\' posts going out, an admin moves a queued post to another day, a viewer only looks', async ({ page }) => {
  const slots = async () =>
    ((await service.from('blog_posts').select('title, published_at').eq('organization_id', own.organization.id).eq('queued', true).order('published_at')).data ?? []) as { title: string; published_at: string }[];
  const [first, second] = await slots();
  expect([first!.title, second!.title]).toEqual(['Queued first', 'Queued second']);
  const chicagoDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
  const browserDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));

  await signInAsAdmin(page, own.admin.email);
  await page.goto('/admin/sites');
  await page.getByRole('button', { name: 'Calendar' }).click();
  await expect(page).toHaveURL(/view=calendar/);
  await expect(page.getByRole('list', { name: 'Sites' })).toContainText('Board Client (America/Chicago)');
  const entry = (title: string) => page.getByTestId('calendar-post').filter({ hasText: title });
  await expect(entry('Going out soon')).toBeVisible();
  await expect(page.locator(`[data-date="${browserDay(first!.published_at)}"]`).getByTestId('calendar-post').filter({ hasText: 'Queued first' })).toBeVisible();
  await expect(entry('Queued first')).toContainText('Board Client · queued');

  await page.getByRole('button', { name: 'Move Queued first' }).click();
  const dialog = page.getByRole('dialog', { name: 'Move "Queued first"' });
  await dialog.getByLabel('Day, in America/Chicago').fill(chicagoDay(second!.published_at));
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Post moved');
  await expect(page.locator(`[data-date="${browserDay(second!.published_at)}"]`).getByTestId('calendar-post').filter({ hasText: 'Queued first' })).toBeVisible();
  // The queue moved along: the other post took the first slot.
  expect((await slots()).map((slot) => [slot.title, slot.published_at])).toEqual([['Queued second', first!.published_at], ['Queued first', second!.published_at]]);

  await page.getByRole('button', { name: 'Week' }).click();
  await expect(page.getByTestId('calendar-title')).toHaveText(/^Week of /);
  await expect(page.getByTestId('calendar-days').locator('> li')).toHaveCount(7);

  const viewer = await createUser('editor');
  try {
    const { error } = await service.from('organization_memberships').insert({ user_id: viewer.id, organization_id: own.organization.id, role: 'viewer' });
    expect(error).toBeNull();
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await submitSignIn(page, viewer.email);
    await expect(page).toHaveURL(/\/admin\/blog/);
    await page.goto('/admin/sites?view=calendar');
    await expect(page.getByRole('list', { name: 'Sites' })).toContainText('Board Client (America/Chicago, view only)');
    await expect(entry('Queued first')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Move Queued first' })).toHaveCount(0);
  } finally {
    await removeUser(viewer.email);
  }
});

test("an admin makes a client calendar link; signed out, it shows the site's upcoming posts and nothing else; revoked, it shows nothing", async ({ page, browser, baseURL }) => {
  await signInAsAdmin(page, own.admin.email);
  await page.goto('/admin/sites');
  await rowOf(page, own.organization.id).getByRole('button', { name: 'Open Board Client' }).click();
  await expect(page.getByLabel('Managing')).toHaveValue(own.organization.id);
  await page.goto('/admin?tab=settings');
  const card = page.getByRole('region', { name: 'Client calendar links' });
  await expect(card).toContainText('what goes out on Board Client');
  await card.getByRole('button', { name: 'Make Link' }).click();
  await expect(card.getByText('Say who the link is for (a client\'s name, for instance).')).toBeVisible();
  await card.getByLabel('Who the link is for').fill('Board Client owners');
  await card.getByLabel('Works for').selectOption('7');
  await card.getByRole('button', { name: 'Make Link' }).click();
  const shown = card.getByTestId('new-client-link');
  await expect(shown).toHaveText(/\/client-calendar#[A-Za-z0-9_-]{43}$/);
  const link = (await shown.textContent())!;
  await expect(card.getByTestId('client-link-row').filter({ hasText: 'Board Client owners' })).toContainText('Active');

  // Signed out, in a browser of its own.
  const client = await (await browser.newContext({ baseURL })).newPage();
  await client.goto(link);
  await expect(client.getByRole('heading', { name: 'Upcoming posts on Board Client' })).toBeVisible();
  await expect(client.getByText(/made for Board Client owners, works until/)).toBeVisible();
  const posts = client.getByTestId('client-calendar-post');
  await expect(posts.filter({ hasText: 'Going out soon' })).toContainText('Scheduled');
  await expect(posts.filter({ hasText: 'Queued first' })).toContainText('Queued');
  await expect(posts).toHaveCount(3);
  await expect(client.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);

  await page.reload();
  const row = card.getByTestId('client-link-row').filter({ hasText: 'Board Client owners' });
  await expect(row).toContainText('(1 visit)');
  await row.getByRole('button', { name: 'Revoke the link for Board Client owners' }).click();
  await page.getByRole('dialog', { name: 'Revoke client calendar link?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Revoked');

  await client.reload();
  await expect(client.getByRole('alert')).toContainText('This calendar link is not valid: it may have expired or been turned off.');
  await expect(client.getByTestId('client-calendar-post')).toHaveCount(0);
  // A link cut short says so.
  await client.goto('/client-calendar');
  await expect(client.getByRole('alert')).toContainText('This link is incomplete');
  await client.context().close();
});

test("the editor's preview dates a post in its organization's time zone: 10:30 PM in Chicago is that day, not UTC's next", async ({ page }) => {
  // Board Client's queue is in America/Chicago (beforeAll); 04:30 UTC on December 10 is 10:30 PM there on December 9.
  const { data: post, error } = await service
    .from('blog_posts')
    .insert({ organization_id: own.organization.id, title: 'Late in Chicago', slug: 'late-in-chicago', content: '<p>Late.</p>', status: 'scheduled', published_at: '2030-12-10T04:30:00Z' })
    .select('id')
    .single();
  expect(error).toBeNull();
  await signInAsAdmin(page, own.admin.email);
  await page.goto('/admin/sites');
  await rowOf(page, own.organization.id).getByRole('button', { name: 'Open Board Client' }).click();
  await expect(page.getByLabel('Managing')).toHaveValue(own.organization.id);
  await page.goto(`/admin/blog/edit/${post!.id}`);
  await expect(page.getByRole('region', { name: 'Preview' }).locator('time[datetime="2030-12-10T04:30:00.000Z"]')).toHaveText('December 9, 2030');
});
