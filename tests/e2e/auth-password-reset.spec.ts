import { expect, test, waitForIslands } from './fixtures';
import { createUser, latestMail, removeUser } from './support/backend';

let email: string;
test.beforeAll(async () => {
  email = (await createUser('admin')).email;
});
test.afterAll(async () => {
  await removeUser(email);
});

test('forgot password: the mailed link opens the set-new-password form, then the dashboard', async ({ page }) => {
  await page.goto('/auth');
  await waitForIslands(page);
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
  await page.getByRole('main').getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send Reset Email' }).click();
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Check your email for password reset instructions.');
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();

  const mail = await latestMail(email);
  expect(mail?.type).toBe('recovery');
  await page.goto(mail!.link!);
  await expect(page.getByRole('heading', { name: 'Set New Password' })).toBeVisible();

  await page.getByRole('main').getByLabel('New Password', { exact: true }).fill('short');
  await page.getByRole('main').getByLabel('Confirm New Password').fill('short');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();

  await page.getByRole('main').getByLabel('New Password', { exact: true }).fill('Brand-New-2026');
  await page.getByRole('main').getByLabel('Confirm New Password').fill('Brand-New-2027');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page.getByText("Passwords don't match")).toBeVisible();

  await page.getByRole('main').getByLabel('Confirm New Password').fill('Brand-New-2026');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText('Managing Scale Pro Marketing')).toBeVisible();
});
