import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, latestMail, organizationOfItsOwn, removeUser, SCALE_PRO_ID, service } from './support/backend';
import { openUsersOfOwnOrganization, SEED_ADMIN_EMAIL, signInAsAdmin, submitSignIn } from './support/sign-in';

// Everything a test creates is removed right after it (users with their logs and login attempts, the
// seed admin's log lines about them, invitations), so no test sees another's users: the last-admin test
// needs the seed admin to be the only admin.
const createdEmails: string[] = [];
const invitedEmails: string[] = [];
test.afterEach(async () => {
  for (const email of createdEmails.splice(0)) {
    const { data } = await service.from('profiles').select('id').eq('email', email).maybeSingle();
    if (data) await service.from('user_activity_logs').delete().eq('resource_id', data.id);
    await removeUser(email);
  }
  const invited = invitedEmails.splice(0);
  if (invited.length) await service.from('user_invitations').delete().in('email', invited);
});

const toast = (page: Page) => page.getByRole('status', { name: 'Notifications' });
const dashboardTabs = (page: Page) => page.getByRole('tablist').first();
const uniqueEmail = (what: string) => `e2e-${what}-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;

test('tabs switch, the URL follows, reload keeps the tab, and System Overview counts', async ({ page }) => {
  await signInAsAdmin(page);
  await expect(dashboardTabs(page).getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
  for (const label of ['Total Posts', 'Published', 'Total Users', 'Total Views']) {
    await expect(page.getByText(label, { exact: true }).locator('..')).toContainText(/\d+/);
  }

  await dashboardTabs(page).getByRole('tab', { name: 'Users' }).click();
  await expect(page).toHaveURL(/\?tab=users$/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await expect(dashboardTabs(page).getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');

  await dashboardTabs(page).getByRole('tab', { name: 'Content' }).click();
  await expect(page).toHaveURL(/\?tab=content$/);
  await expect(page.getByRole('link', { name: /Create New Post/ })).toHaveAttribute('href', '/admin/blog/new');
  await page.goBack();
  await expect(page).toHaveURL(/\?tab=users$/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
});

test('an admin creates an admin through the dialog, who can then sign in', async ({ page, browser, baseURL }) => {
  const email = uniqueEmail('created');
  createdEmails.push(email);
  await signInAsAdmin(page);
  await page.goto('/admin?tab=users');
  await page.getByRole('button', { name: 'Create User' }).click();
  await expect(page).toHaveURL(/dialog=create-user/);
  const dialog = page.getByRole('dialog', { name: 'Create New User' });
  await dialog.getByLabel('Email Address*').fill(email);
  await dialog.getByLabel('Full Name*').fill('Created By Test');
  await dialog.getByLabel('Role*').selectOption('admin');
  await expect(dialog).toContainText('Warning: the admin role gives full access');
  await dialog.getByLabel('Temporary Password*').fill('Temp-Password-42');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(toast(page)).toContainText('User Created Successfully');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: email })).toBeVisible();
  expect((await latestMail(email))?.link).toContain('/auth');

  const { data: profile } = await service.from('profiles').select('role, organization_id, is_active').eq('email', email).single();
  expect(profile).toEqual({ role: 'admin', organization_id: SCALE_PRO_ID, is_active: true });

  const other = await browser.newContext({ baseURL });
  try {
    const second = await other.newPage();
    await signInAsAdmin(second, email, 'Temp-Password-42');
    await expect(second.getByTestId('admin-user-email')).toHaveText(email);
  } finally {
    await other.close();
  }
});

test('an invitation is mailed, listed as pending, and the link in the mail opens it', async ({ page, browser, baseURL }) => {
  const email = uniqueEmail('invited');
  invitedEmails.push(email);
  await signInAsAdmin(page);
  await page.goto('/admin?tab=users');
  await page.getByRole('button', { name: 'Send Invitation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Invitation' });
  await dialog.getByLabel('Email Address*').fill(email);
  await dialog.getByLabel('Role*').selectOption('editor');
  await dialog.getByRole('button', { name: 'Send Invitation' }).click();
  await expect(dialog.getByTestId('invitation-mail-status')).toHaveText(`Invitation emailed to ${email}. The link is valid for 7 days.`);
  await expect(toast(page)).toContainText('Invitation Sent');
  const shownLink = await dialog.getByTestId('invitation-link').inputValue();
  expect(shownLink).toMatch(/\/auth\?invite=[\w-]+$/);
  await dialog.getByRole('button', { name: 'Done' }).click();

  await page.getByRole('tab', { name: 'Invitations' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toContainText('Pending');
  await expect(row).toContainText('editor');

  const mail = await latestMail(email);
  expect(mail).toMatchObject({ type: 'app', subject: "You're invited to join Scale Pro Marketing as Editor" });
  const mailedLink = /https?:\/\/\S+\/auth\?invite=\S+/.exec(mail?.text ?? '')?.[0] ?? '';
  expect(mailedLink).toBe(shownLink);
  expect(mailedLink.startsWith(`${baseURL}/auth?invite=`)).toBe(true);
  const invitee = await browser.newContext({ baseURL });
  try {
    const invitePage = await invitee.newPage();
    await invitePage.goto(mailedLink);
    await expect(invitePage.getByRole('heading', { name: 'Accept Invitation' })).toBeVisible();
    await expect(invitePage.getByTestId('invitation-summary')).toHaveText('Alex Morgan invited you to join Scale Pro Marketing as Editor.');
    await expect(invitePage.getByRole('main').getByLabel('Email')).toHaveValue(email);
  } finally {
    await invitee.close();
  }
});

test('bulk deactivate asks with the names, then deactivates both users', async ({ page }) => {
  const first = await createUser('viewer');
  const second = await createUser('viewer');
  createdEmails.push(first.email, second.email);
  await signInAsAdmin(page);
  await page.goto('/admin?tab=users');
  await page.getByLabel(`Select ${first.email}`).check();
  await page.getByLabel(`Select ${second.email}`).check();
  await expect(page.getByLabel('Select all users')).toHaveJSProperty('indeterminate', true);
  const bar = page.getByRole('region', { name: 'Bulk actions' });
  await expect(bar).toContainText('2');
  await bar.getByRole('button', { name: 'Deactivate' }).click();

  const confirm = page.getByRole('dialog', { name: 'Deactivate Users' });
  await expect(confirm.getByTestId('confirm-names')).toContainText('E2E viewer');
  await expect(confirm.getByTestId('confirm-names').getByRole('listitem')).toHaveCount(2);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page)).toContainText('Deactivated 2 users.');
  await expect(bar).toBeHidden();

  // The memberships of Scale Pro are deactivated (the accounts themselves stay on).
  const { data } = await service.from('organization_memberships').select('is_active').eq('organization_id', SCALE_PRO_ID).in('user_id', [first.id, second.id]);
  expect(data).toEqual([{ is_active: false }, { is_active: false }]);
});

test('the last active admin cannot be demoted: the refusal is explained and nothing changes', async ({ page }) => {
  // An organization of its own: its one admin stays the last, whatever admins other tests add to Scale Pro meanwhile.
  const own = await organizationOfItsOwn('Last Admin');
  try {
    await openUsersOfOwnOrganization(page, own);
    await page.getByLabel(`Role of ${own.admin.email}`).selectOption('viewer');
    await expect(toast(page)).toContainText('The organization must keep at least one active admin');
    const { data } = await service.from('organization_memberships').select('role, is_active')
      .eq('organization_id', own.organization.id).eq('user_id', own.admin.id).single();
    expect(data).toEqual({ role: 'admin', is_active: true });
    await expect(page.getByLabel(`Role of ${own.admin.email}`)).toHaveValue('admin');
    // A new site has no build hook yet: the header says so at once, and offers no Retry that cannot help.
    const status = page.getByTestId('deploy-status');
    await expect(status).toHaveAttribute('data-state', 'no_hook');
    await expect(status).toContainText('Site: Not rebuilt: no build hook');
    await expect(status.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  } finally {
    await own.remove();
  }
});

test('signing in needs the real form: a wrong password stays on /auth', async ({ page }) => {
  await submitSignIn(page, SEED_ADMIN_EMAIL, 'Not-The-Password-1');
  await expect(page).toHaveURL(/\/auth$/);
});
