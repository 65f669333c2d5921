/**
 * Answers that arrive late, after what they answered stopped being asked: a quick organization switch while an
 * answer for the organization just left is still on its way, and a search changed while the previous search's
 * answer is slow. The late answer lands last and the screen must still show only the newer data (useLoad drops
 * late answers; an organization switch also mounts the page afresh after the access check). The user is admin
 * of both organizations, so the switch keeps the same page (and, on the dashboard, the same tab).
 */
import type { Page, Route } from '@playwright/test';
import { expect, test } from './fixtures';
import { removeUser, SCALE_PRO_ID, service } from './support/backend';
import { EVERGREEN_ID, signInMemberOfBoth } from './support/sign-in';

const created: string[] = [];
test.afterAll(async () => {
  for (const email of created) await removeUser(email);
});

async function signInAdminOfBoth(page: Page) {
  const user = await signInMemberOfBoth(page, 'admin');
  created.push(user.email);
  await expect(page).toHaveURL(/\/admin$/);
}

/** The title of an organization's most viewed post, as the Content tab names it. */
async function mostViewedTitle(organizationId: string): Promise<string> {
  const { data, error } = await service
    .from('blog_posts')
    .select('title')
    .eq('organization_id', organizationId)
    .gt('view_count', 0)
    .order('view_count', { ascending: false })
    .order('created_at', { ascending: false })
    .limit(1)
    .single();
  expect(error).toBeNull();
  return data!.title as string;
}

/** Holds every request matching `match` until `release()`; resolves `held` once the first one is held. */
async function holdRequests(page: Page, match: (url: URL) => boolean) {
  const routes: Route[] = [];
  let heldOne!: () => void;
  const held = new Promise<void>((resolve) => (heldOne = resolve));
  const matcher = (url: URL) => match(url);
  await page.route(matcher, (route) => {
    routes.push(route);
    heldOne();
  });
  return {
    held,
    release: async () => {
      await Promise.all(routes.map((route) => route.continue()));
      await page.unroute(matcher);
    },
  };
}

test("a late answer for the organization just left is not shown under the new organization's name", async ({ page }) => {
  const [scaleProTitle, evergreenTitle] = await Promise.all([mostViewedTitle(SCALE_PRO_ID), mostViewedTitle(EVERGREEN_ID)]);
  expect(scaleProTitle).not.toBe(evergreenTitle);
  await signInAdminOfBoth(page);

  // Scale Pro's most viewed post is slow to come.
  const slow = await holdRequests(page, (url) =>
    url.pathname.endsWith('/rest/v1/blog_posts') && url.searchParams.get('organization_id') === `eq.${SCALE_PRO_ID}` && url.searchParams.has('view_count'),
  );
  await page.goto('/admin?tab=content');
  await slow.held;
  await expect(page.getByTestId('most-viewed-post')).toHaveCount(0);

  // The admin switches to Evergreen before it arrives (in the same document: no page load drops the request):
  // Evergreen's figures show.
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  await page.getByLabel('Managing').selectOption(EVERGREEN_ID);
  await expect(page).toHaveURL(/\/admin\?tab=content$/);
  const mostViewed = page.getByTestId('most-viewed-post');
  await expect(mostViewed).toContainText(evergreenTitle);

  // Scale Pro's answer lands last and is dropped.
  const late = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname.endsWith('/rest/v1/blog_posts') && url.searchParams.get('organization_id') === `eq.${SCALE_PRO_ID}`;
  });
  await slow.release();
  await late;
  // Give React a moment to apply anything that would (wrongly) follow the late answer.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await expect(mostViewed).toContainText(evergreenTitle);
  await expect(page.getByText(scaleProTitle)).toHaveCount(0);
  await expect(page.getByLabel('Managing')).toHaveValue(EVERGREEN_ID);
  expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
});

/** What a page lists of an organization: its categories' names, or its posts' titles. */
async function namesOf(table: 'blog_categories' | 'blog_posts', organizationId: string): Promise<string[]> {
  const column = table === 'blog_categories' ? 'name' : 'title';
  const { data, error } = await service.from(table).select(column).eq('organization_id', organizationId);
  expect(error).toBeNull();
  return (data ?? []).map((row) => (row as Record<string, string>)[column]!);
}

const IN_PLACE_PAGES = [
  { path: '/admin/blog', request: '/rest/v1/blog_posts', table: 'blog_posts' as const, what: 'posts' },
  { path: '/admin/blog/categories', request: '/rest/v1/blog_category_counts', table: 'blog_categories' as const, what: 'categories' },
];

for (const { path, request, table, what } of IN_PLACE_PAGES) {
  test(`${path} shows only the new organization's ${what} when the old ones arrive late`, async ({ page }) => {
    const [scalePro, evergreen] = await Promise.all([namesOf(table, SCALE_PRO_ID), namesOf(table, EVERGREEN_ID)]);
    const scaleProOnly = scalePro.filter((name) => !evergreen.some((other) => other.includes(name) || name.includes(other)));
    const evergreenOnly = evergreen.find((name) => !scalePro.some((other) => other.includes(name) || name.includes(other)));
    expect(scaleProOnly.length).toBeGreaterThan(0);
    expect(evergreenOnly).toBeDefined();
    await signInAdminOfBoth(page);

    const forScalePro = (url: URL) => url.pathname.endsWith(request) && url.searchParams.get('organization_id') === `eq.${SCALE_PRO_ID}`;
    const slow = await holdRequests(page, forScalePro);
    await page.goto(path);
    await slow.held;

    // Switched to Evergreen on the same page (no page load), Evergreen's list shows.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByLabel('Managing').selectOption(EVERGREEN_ID);
    const main = page.getByRole('main');
    await expect(main.getByText(evergreenOnly!).first()).toBeVisible();

    // Scale Pro's list lands last and is dropped.
    const late = page.waitForResponse((response) => forScalePro(new URL(response.url())));
    await slow.release();
    await late;
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    for (const name of scaleProOnly) await expect(main.getByText(name)).toHaveCount(0);
    await expect(main.getByText(evergreenOnly!).first()).toBeVisible();
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
  });
}

test('a slow answer for the previous search is dropped when the newer search answered first', async ({ page }) => {
  const titlesMatching = async (term: string) => {
    const { data, error } = await service
      .from('blog_posts')
      .select('title')
      .eq('organization_id', SCALE_PRO_ID)
      .or(`title.ilike.%${term}%,content.ilike.%${term}%`);
    expect(error).toBeNull();
    return (data ?? []).map((row) => row.title as string);
  };
  const [first, second] = await Promise.all([titlesMatching('Facebook'), titlesMatching('Metrics')]);
  const onlyFirst = first.filter((title) => !second.includes(title));
  expect(onlyFirst.length).toBeGreaterThan(0);
  expect(second.length).toBeGreaterThan(0);
  await signInAdminOfBoth(page);
  await page.goto('/admin/blog');
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'New Post' })).toBeVisible();

  // The search for "Facebook" is slow; the search for "Metrics", typed after it, answers first.
  const slow = await holdRequests(page, (url) => url.pathname.endsWith('/rest/v1/blog_posts') && (url.searchParams.get('or') ?? '').includes('Facebook'));
  const search = page.getByLabel('Search posts');
  await search.fill('Facebook');
  await slow.held;
  await search.fill('Metrics');
  await expect(main.getByText(second[0]!).first()).toBeVisible();
  for (const title of onlyFirst) await expect(main.getByText(title)).toHaveCount(0);

  const late = page.waitForResponse((response) => (new URL(response.url()).searchParams.get('or') ?? '').includes('Facebook'));
  await slow.release();
  await late;
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  for (const title of onlyFirst) await expect(main.getByText(title)).toHaveCount(0);
  await expect(main.getByText(second[0]!).first()).toBeVisible();
});
