/**
 * The header's organization switcher (spec public-site 2): absent for visitors (who do not even download the
 * menu), absent for a member of one organization, and for a member of two it lists both under 'Switch
 * Organization', switches, remembers the choice and says so. The users made here are removed afterwards.
 */
import type { Page } from '@playwright/test';
import { expect, test, waitForIslands } from './fixtures';
import { createUser, passwordSession, removeUser, service, storageKey } from './support/backend';

const EVERGREEN_ID = '10000000-0000-4000-8000-000000000002';
const created: string[] = [];

test.afterAll(async () => {
  for (const email of created) await removeUser(email);
});

/** Puts a new editor's session into the browser's storage as supabase-js keeps it; optionally a second membership. */
async function signIn(page: Page, { alsoEvergreen }: { alsoEvergreen: boolean }) {
  const user = await createUser('editor');
  created.push(user.email);
  if (alsoEvergreen) {
    const { error } = await service.from('organization_memberships').insert({ user_id: user.id, organization_id: EVERGREEN_ID, role: 'viewer' });
    if (error) throw new Error(`adding the Evergreen membership failed: ${error.message}`);
  }
  const session = await passwordSession(user.email);
  await page.goto('/');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [storageKey, JSON.stringify(session)] as const);
}

test('visitors get no switcher and never download the menu', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  await page.goto('/');
  await waitForIslands(page);
  await expect(page.locator('#site-header')).toBeVisible();
  await expect(page.getByText('Switch Organization')).toHaveCount(0);
  expect(requested.filter((url) => url.includes('OrganizationMenu'))).toEqual([]);
});

test('a member of one organization gets no switcher', async ({ page }) => {
  await signIn(page, { alsoEvergreen: false });
  const menuLoaded = page.waitForResponse((response) => response.url().includes('OrganizationMenu'));
  await page.goto('/about');
  await menuLoaded;
  // The memberships are read once the menu is there; give the query its time before asserting absence.
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('banner').getByText('Organization:')).toHaveCount(0);
});

test('a member of two organizations switches between them', async ({ page }) => {
  await signIn(page, { alsoEvergreen: true });
  await page.goto('/services');
  const switcher = page.getByRole('banner').locator('summary', { hasText: 'Organization:' });
  await expect(switcher).toContainText('Evergreen Landscaping'); // the first by name when nothing is preferred
  await switcher.click();
  await expect(page.getByText('Switch Organization')).toBeVisible();
  const menu = page.getByRole('list', { name: 'Switch Organization' });
  await expect(menu.getByRole('button')).toHaveText(['Evergreen Landscaping✓', 'Scale Pro Marketing']);

  await menu.getByRole('button', { name: 'Scale Pro Marketing' }).click();
  await expect(page.getByText('Organization switched')).toBeVisible();
  await expect(page.getByText('Now viewing Scale Pro Marketing')).toBeVisible();
  await expect(switcher).toContainText('Scale Pro Marketing');
  expect(await page.evaluate(() => localStorage.getItem('preferredOrganization'))).toBe('10000000-0000-4000-8000-000000000001');

  await page.reload();
  await expect(page.getByRole('banner').locator('summary', { hasText: 'Organization:' })).toContainText('Scale Pro Marketing');
});
