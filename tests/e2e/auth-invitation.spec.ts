import { expect, test, waitForIslands } from './fixtures';
import { createInvitation, PASSWORD, removeUser, SCALE_PRO_ID, service } from './support/backend';

const EVERGREEN_ID = '10000000-0000-4000-8000-000000000002';

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

test('someone who already has an account joins with its password, and lands in blog management as editor', async ({ page }) => {
  // A member of Evergreen only, invited to Scale Pro as editor.
  const email = `e2e-existing-${crypto.randomUUID().slice(0, 8)}@evergreen.test`;
  const { data: created, error } = await service.auth.admin.createUser({
    email, password: PASSWORD, email_confirm: true, user_metadata: { full_name: 'Existing Member' },
    app_metadata: { organization_id: EVERGREEN_ID, role: 'viewer' },
  });
  if (error || !created.user) throw new Error(`creating ${email} failed: ${error?.message}`);
  const invitation = await createInvitation('editor', email);
  invitations.push(invitation);

  await page.goto(`/auth?invite=${invitation.token}`);
  await waitForIslands(page);
  await expect(page.getByText('This email already has an account. Enter its password to join.')).toBeVisible();
  await expect(page.getByRole('main').getByLabel('Full Name')).toHaveCount(0);

  await page.getByRole('main').getByLabel('Password', { exact: true }).fill('Not-Their-Password-1');
  await page.getByRole('button', { name: 'Accept Invitation' }).click();
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('This email already has an account. Enter its password to accept the invitation.');

  await page.getByRole('main').getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept Invitation' }).click();
  // The invitation's organization is the one managed now, with the invited role.
  await expect(page).toHaveURL(/\/admin\/blog$/);
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Welcome to Scale Pro Marketing. You are signed in as editor.');
  await expect(page.getByLabel('Managing')).toHaveValue(SCALE_PRO_ID);
  await expect(page.getByRole('link', { name: 'New Post' })).toBeVisible();
  const { data: memberships } = await service.from('organization_memberships').select('organization_id, role').eq('user_id', created.user.id).order('role');
  expect(memberships).toEqual([{ organization_id: SCALE_PRO_ID, role: 'editor' }, { organization_id: EVERGREEN_ID, role: 'viewer' }]);
});
