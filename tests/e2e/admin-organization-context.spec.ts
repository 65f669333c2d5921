/**
 * One organization context in the back office, with a user who is admin of Scale Pro and viewer of
 * Evergreen: the header's choice decides what every page shows and allows, the choice is remembered per
 * browser, writes in the viewer organization are not offered and are refused by the database when forced,
 * and a post of another organization opened by URL is not found.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { LOCAL_SUPABASE_PUBLIC } from '../../src/lib/supabase-config';
import { backendUrl, removeUser, service, storageKey } from './support/backend';
import { EVERGREEN_ID, signInMemberOfBoth } from './support/sign-in';

const created: string[] = [];
test.afterAll(async () => {
  for (const email of created) await removeUser(email);
});

/** A new admin of Scale Pro who is also a viewer of Evergreen, signed in at /auth. */
async function signInTwoOrganizationUser(page: Page) {
  const user = await signInMemberOfBoth(page, 'viewer');
  created.push(user.email);
  return user;
}

const choice = (page: Page) => page.getByLabel('Managing');

test('the header choice changes what the back office shows and allows, and is remembered', async ({ page }) => {
  await signInTwoOrganizationUser(page);
  // The site is built for Scale Pro, where the user is admin: the dashboard, managing Scale Pro.
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(choice(page)).toHaveValue('10000000-0000-4000-8000-000000000001');
  await expect(choice(page).locator('option')).toHaveText(['Evergreen Landscaping (Viewer)', 'Scale Pro Marketing (Admin)']);

  // Evergreen, as a viewer: blog management read-only, no dashboard.
  await choice(page).selectOption({ label: 'Evergreen Landscaping (Viewer)' });
  await expect(page).toHaveURL(/\/admin\/blog$/);
  await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible();
  await expect(choice(page)).toHaveValue(EVERGREEN_ID);
  const nav = page.getByRole('navigation', { name: 'Back office' });
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
  // This site is Scale Pro's, and Evergreen has no domain yet: there is no public site of Evergreen to link to.
  await expect(nav.getByRole('link', { name: 'View site' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'New Post' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Delete/ })).toHaveCount(0);

  // The dashboard by URL sends a viewer back to blog management; the choice survives a reload.
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/blog$/);
  await expect(choice(page)).toHaveValue(EVERGREEN_ID);

  // Forced through the API with the same session, a write in Evergreen is refused by the database.
  const session = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), storageKey))!);
  const forced = await fetch(`${backendUrl}/rest/v1/blog_categories`, {
    method: 'POST',
    headers: { apikey: LOCAL_SUPABASE_PUBLIC.anonKey, authorization: `Bearer ${session.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ organization_id: EVERGREEN_ID, name: 'Forced by a viewer', slug: 'forced-by-a-viewer' }),
  });
  expect(forced.status).toBe(403);
  const { data: categories } = await service.from('blog_categories').select('id').eq('slug', 'forced-by-a-viewer');
  expect(categories).toEqual([]);

  // Back to Scale Pro: the dashboard is offered again.
  await choice(page).selectOption({ label: 'Scale Pro Marketing (Admin)' });
  await expect(page.getByRole('link', { name: 'New Post' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
});

test('a post of another organization opened by URL says Post not found', async ({ page }) => {
  await signInTwoOrganizationUser(page);
  await expect(page).toHaveURL(/\/admin$/);
  const { data: post } = await service.from('blog_posts').select('id').eq('organization_id', EVERGREEN_ID).eq('status', 'published').limit(1).single();
  // Managing Scale Pro: Evergreen's post (readable by anyone, since it is published) is not this organization's.
  await page.goto(`/admin/blog/edit/${post!.id}`);
  await expect(page.getByText('Post not found.')).toBeVisible();
  await expect(page.getByLabel('Title')).toHaveCount(0);
  await page.goto(`/admin/blog/preview/${post!.id}`);
  await expect(page.getByText('Post not found.')).toBeVisible();
  await expect(page.getByRole('link', { name: '← Back to posts' })).toBeVisible();
});
