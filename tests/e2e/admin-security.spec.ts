import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { SEED_ADMIN_EMAIL, signInAsAdmin } from './support/sign-in';

test('the Security tab lists activity and login attempts and exports the audit log as JSON', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin?tab=security');
  await expect(page.getByRole('heading', { name: 'Security Audit Log' })).toBeVisible();
  await expect(page.getByTestId('audit-activity').first()).toBeVisible();
  // Signing in just now left a successful attempt of the seed admin.
  await expect(page.getByTestId('audit-login').filter({ hasText: SEED_ADMIN_EMAIL }).first()).toContainText('Success');
  await expect(page.getByText('Total Activities', { exact: true }).locator('..')).toContainText(/\d+/);

  await page.getByLabel('Filter events').selectOption('logins');
  await expect(page.getByRole('heading', { name: 'User Activities' })).toBeHidden();
  await page.getByLabel('Search audit log').fill('no-such-address-anywhere');
  await expect(page.getByText('No login attempts found')).toBeVisible();
  await page.getByLabel('Search audit log').fill('');
  await page.getByLabel('Filter events').selectOption('all');

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.json$/);
  const body = JSON.parse(await readFile(await download.path(), 'utf8'));
  expect(Object.keys(body).sort()).toEqual(['activities', 'exported_at', 'exported_by', 'logins']);
  expect(body.exported_by).toBe(SEED_ADMIN_EMAIL);
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Export Complete');
});
