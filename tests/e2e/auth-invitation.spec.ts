import { expect, test, waitForIslands } from './fixtures';
import { createInvitation, removeUser, service } from './support/backend';

const invitations: { id: string; email: string }[] = [];
test.afterAll(async () => {
  for (const invitation of invitations) await removeUser(invitation.email);
  await service.from('user_invitations').delete().in('id', invitations.map((i) => i.id));
});

test('accepting an admin invitation creates the account and opens the dashboard; the link then is used', async ({ page }) => {
  const invitation = await createInvitation('admin');
  invitations.push(invitation);

  await page.goto(`/auth?invite=${invitation.token}`);
  await waitForIslands(page);
  await expect(page.getByRole('heading', { name: 'Accept Invitation' })).toBeVisible();
  await expect(page.getByTestId('invitation-summary')).toHaveText('Alex Morgan invited you to join Scale Pro Marketing as Admin.');
  await expect(page.getByRole('main').getByLabel('Email')).toHaveValue(invitation.email);

  await page.getByRole('main').getByLabel('Full Name').fill('Riley Invited');
  await page.getByRole('main').getByLabel('Password', { exact: true }).fill('Joined-Team-2026');
  await page.getByRole('main').getByLabel('Confirm Password').fill('Joined-Team-2026');
  await page.getByRole('button', { name: 'Accept Invitation' }).click();

  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByText('Managing Scale Pro Marketing')).toBeVisible();
  await expect(page.getByTestId('admin-user-email')).toHaveText(invitation.email);

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto(`/auth?invite=${invitation.token}`);
  await expect(page.getByRole('alert')).toContainText('Invitation Already Used');
});

test('an unknown invitation link says so', async ({ page }) => {
  await page.goto('/auth?invite=not-a-real-invitation');
  await expect(page.getByRole('alert')).toContainText('Invitation Not Found');
  await page.getByRole('button', { name: 'Go to sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
});
