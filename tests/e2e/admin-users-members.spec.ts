/**
 * The admin's member tools in the Users tab: edit a member's name, phone and role; send a password reset
 * mail; resend and revoke an invitation; the counters of the tab and the System Overview agree after a
 * change; and the list works on a 375px-wide phone. Everything created here is removed afterwards.
 */
import type { Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { expect, test } from './fixtures';
import { createInvitation, latestMail, PASSWORD, removeUser, SCALE_PRO_ID, SEED_ADMIN_ID, service } from './support/backend';
import { signInAsAdmin } from './support/sign-in';

const createdEmails: string[] = [];
const invitationIds: string[] = [];
test.afterEach(async () => {
  for (const email of createdEmails.splice(0)) {
    const { data } = await service.from('profiles').select('id').eq('email', email).maybeSingle();
    if (data) await service.from('user_activity_logs').delete().eq('resource_id', data.id);
    await removeUser(email);
  }
  for (const id of invitationIds.splice(0)) {
    await service.from('user_activity_logs').delete().eq('resource_id', id);
    await service.from('user_invitations').delete().eq('id', id);
  }
});

const toast = (page: Page) => page.getByRole('status', { name: 'Notifications' });

/** A confirmed viewer of Scale Pro. */
async function createViewer(name: string) {
  const email = `e2e-member-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
  createdEmails.push(email);
  const { data, error } = await service.auth.admin.createUser({
    email, password: PASSWORD, email_confirm: true, user_metadata: { full_name: name },
    app_metadata: { organization_id: SCALE_PRO_ID, role: 'viewer' },
  });
  if (error || !data.user) throw new Error(`creating ${email} failed: ${error?.message}`);
  return { id: data.user.id, email, name };
}

test('an admin edits a member\'s name, phone and role; the change is saved and logged', async ({ page }) => {
  const member = await createViewer('Before Rename');
  await signInAsAdmin(page);
  await page.goto('/admin?tab=users');
  await page.getByRole('button', { name: `Edit ${member.email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit User' });
  await expect(dialog.getByLabel('Full Name')).toHaveValue('Before Rename');
  await dialog.getByLabel('Full Name').fill('After Rename');
  await dialog.getByLabel('Phone').fill('+1 404 555 0199');
  await dialog.getByLabel('Role').selectOption('editor');
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(page)).toContainText('User Updated');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: member.email })).toContainText('After Rename');
  await expect(page.getByLabel(`Role of ${member.email}`)).toHaveValue('editor');

  const { data: profile } = await service.from('profiles').select('full_name, phone').eq('id', member.id).single();
  expect(profile).toEqual({ full_name: 'After Rename', phone: '+1 404 555 0199' });
  const { data: log } = await service.from('user_activity_logs').select('user_id, organization_id, details').eq('resource_id', member.id).eq('action', 'profile_updated_by_admin');
  expect(log).toEqual([{
    user_id: SEED_ADMIN_ID, organization_id: SCALE_PRO_ID,
    details: expect.objectContaining({ email: member.email, full_name: 'After Rename', new_role: 'editor', changes: expect.objectContaining({ role: { from: 'viewer', to: 'editor' } }) }),
  }]);
});

test('an admin sends a member a password reset mail after confirming', async ({ page }) => {
  const member = await createViewer('Forgot Password');
  await signInAsAdmin(page);
  await page.goto('/admin?tab=users');
  await page.getByRole('button', { name: `Reset Password for ${member.email}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Send Password Reset' });
  await confirm.getByRole('button', { name: 'Send Email' }).click();
  await expect(toast(page)).toContainText(`A password reset email was sent to ${member.email}.`);
  const mail = await latestMail(member.email);
  expect(mail?.type).toBe('recovery');
  expect(mail?.link).toContain('/auth');
});

test('an invitation is resent with a new link, then revoked; the list shows its state', async ({ page }) => {
  const invitation = await createInvitation('editor');
  invitationIds.push(invitation.id);
  await signInAsAdmin(page);
  await page.goto('/admin?tab=users&view=invitations');
  const row = page.getByRole('row').filter({ hasText: invitation.email });
  await expect(row.getByTestId('invitation-state')).toHaveText('Pending');

  await row.getByRole('button', { name: `Resend invitation to ${invitation.email}` }).click();
  await expect(toast(page)).toContainText(`Invitation emailed again to ${invitation.email}`);
  const { data: resent } = await service.from('user_invitations').select('token_hash').eq('id', invitation.id).single();
  expect(resent?.token_hash).not.toBe(createHash('sha256').update(invitation.token).digest('hex'));
  expect((await latestMail(invitation.email))?.text).toContain('/auth?invite=');

  await row.getByRole('button', { name: `Revoke invitation to ${invitation.email}` }).click();
  await page.getByRole('dialog', { name: 'Revoke Invitation' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(toast(page)).toContainText(`The invitation of ${invitation.email} was revoked.`);
  await expect(row.getByTestId('invitation-state')).toHaveText('Revoked');
  await expect(row.getByRole('button', { name: /Resend/ })).toHaveCount(0);
});

test('the Users tab and the System Overview count the same members, also right after a change', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin?tab=users');
  const overview = page.getByTestId('system-overview');
  const tabTotal = page.getByText('Total Users', { exact: true }).first().locator('..');
  const overviewTotal = overview.getByText('Total Users', { exact: true }).locator('..');
  await expect(tabTotal).toContainText(/\d+/);
  const before = Number((await overviewTotal.innerText()).replace(/\D/g, ''));
  await expect(tabTotal).toContainText(String(before));

  const email = `e2e-count-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
  createdEmails.push(email);
  await page.getByRole('button', { name: 'Create User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New User' });
  await dialog.getByLabel('Email Address*').fill(email);
  await dialog.getByLabel('Full Name*').fill('Counted Person');
  await dialog.getByLabel('Temporary Password*').fill('Temp-Password-42');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(toast(page)).toContainText('User Created Successfully');
  await expect(overviewTotal).toContainText(String(before + 1));
  await expect(tabTotal).toContainText(String(before + 1));
});

test('on a 375px-wide phone the member list keeps its actions reachable', async ({ page }) => {
  const member = await createViewer('Phone Width');
  await page.setViewportSize({ width: 375, height: 740 });
  await signInAsAdmin(page);
  await page.goto('/admin?tab=users');
  await page.getByLabel('Search users').fill(member.email);
  const edit = page.getByRole('button', { name: `Edit ${member.email}` });
  await edit.scrollIntoViewIfNeeded();
  await edit.click();
  await expect(page.getByRole('dialog', { name: 'Edit User' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByLabel('Search users').fill('no-such-member-anywhere');
  await expect(page.getByText('No users found matching your criteria.')).toBeVisible();
});
