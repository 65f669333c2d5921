/**
 * The admin's member tools in the Users tab: edit a member's name, phone and role; send a password reset
 * mail; resend and revoke an invitation; the counters of the tab and the System Overview agree after a
 * change; the lists and counts follow an invitation accepted in another browser without a reload; and on a
 * 390px-wide phone both lists are cards with every action on screen. Everything created here is removed afterwards.
 */
import type { Page } from '@playwright/test';
import { createHash } from 'node:crypto';
import { expect, test } from './fixtures';
import { LIVE_RELOAD_INTERVAL_MS } from '../../src/admin/use-live-reload';
import { countStaff } from '../../src/lib/back-office/users';
import { createInvitation, latestMail, PASSWORD, removeUser, SCALE_PRO_ID, SEED_ADMIN_ID, service } from './support/backend';
import { openDashboard } from './support/sign-in';

// Signed in as the seed admin from the start (its sign-in is the setup project's; none of these signs out).
test.use({ signedInAs: 'seed admin' });

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

/** A stat card's number in the Users tab (the first card with that label: the tab's, above the System Overview). */
async function statValue(page: Page, label: string, within = page.locator('main')): Promise<number> {
  const card = within.getByText(label, { exact: true }).first().locator('..');
  await expect(card).toContainText(/\d/);
  return Number((await card.innerText()).replace(/\D/g, ''));
}

/**
 * The Users tab's counts and the System Overview's total are the database's. Other tests share the database and
 * change members meanwhile, so the page is given its next reads (`advance`, else its own polling) until they agree.
 */
async function expectCountsOfDatabase(page: Page, advance?: () => Promise<void>) {
  await expect.poll(async () => {
    const truth = await countStaff(service, SCALE_PRO_ID);
    const shown = {
      total: await statValue(page, 'Total Users'),
      pendingInvites: await statValue(page, 'Pending Invites'),
      overview: await statValue(page, 'Total Users', page.getByTestId('system-overview')),
    };
    const agree = shown.total === truth.total && shown.overview === truth.total && shown.pendingInvites === truth.pendingInvites;
    if (!agree) await advance?.();
    return agree;
  }, { timeout: 60_000 }).toBe(true);
}

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
  await openDashboard(page);
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
  await openDashboard(page);
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
  await openDashboard(page);
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
  await openDashboard(page);
  await page.goto('/admin?tab=users');
  const overview = page.getByTestId('system-overview');
  const tabTotal = page.getByText('Total Users', { exact: true }).first().locator('..');
  const overviewTotal = overview.getByText('Total Users', { exact: true }).locator('..');
  await expect(tabTotal).toContainText(/\d+/);
  await expect(tabTotal).toContainText((await overviewTotal.innerText()).replace(/\D/g, ''));

  const email = `e2e-count-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
  createdEmails.push(email);
  await page.getByRole('button', { name: 'Create User' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New User' });
  await dialog.getByLabel('Email Address*').fill(email);
  await dialog.getByLabel('Full Name*').fill('Counted Person');
  await dialog.getByLabel('Temporary Password*').fill('Temp-Password-42');
  await dialog.getByRole('button', { name: 'Create User' }).click();
  await expect(toast(page)).toContainText('User Created Successfully');
  await expectCountsOfDatabase(page);
});


test('an invitation accepted in another browser shows as Accepted, the member appears and the counts change, without a reload', async ({ page, request }) => {
  const invitation = await createInvitation('viewer');
  invitationIds.push(invitation.id);
  createdEmails.push(invitation.email);
  await page.clock.install();
  await openDashboard(page);
  await page.goto('/admin?tab=users&view=invitations');
  const row = page.getByRole('row').filter({ hasText: invitation.email });
  await expect(row.getByTestId('invitation-state')).toHaveText('Pending');

  // The invitee accepts through the real API, in the background (another browser, as far as this page knows).
  const accepted = await request.post('/api/invitations/accept', { data: { token: invitation.token, full_name: 'Live Joiner', password: 'Joined-Live-2026' } });
  expect(accepted.ok()).toBe(true);
  await expect(row.getByTestId('invitation-state')).toHaveText('Pending');

  // The page asks again on its own while it is shown.
  await page.clock.runFor(LIVE_RELOAD_INTERVAL_MS);
  await expect(row.getByTestId('invitation-state')).toHaveText('Accepted');
  // The counts moved with it: the page shows the database's counts, the acceptance included (tests in the other
  // lane add and remove members meanwhile, so the numbers before and after can happen to be the same).
  await expectCountsOfDatabase(page, () => page.clock.runFor(LIVE_RELOAD_INTERVAL_MS));

  // The members list, opened before another change, follows it when the admin comes back to the window.
  await page.getByRole('tablist', { name: 'User lists' }).getByRole('tab', { name: 'Users' }).click();
  await expect(page.getByRole('button', { name: `Edit ${invitation.email}` })).toBeVisible();
  const { data: joined } = await service.from('profiles').select('id').eq('email', invitation.email).single();
  expect((await service.from('organization_memberships').update({ is_active: false }).eq('user_id', joined!.id).eq('organization_id', SCALE_PRO_ID)).error).toBeNull();
  const status = page.getByRole('row').filter({ hasText: invitation.email }).getByRole('switch');
  await expect(status).toBeChecked();
  await page.clock.runFor(3_000);
  await page.evaluate(() => window.dispatchEvent(new Event('focus')));
  await expect(status).not.toBeChecked();
});

test('on a 390px-wide phone each member and invitation is a card with its actions on screen, and the page does not scroll sideways', async ({ page }) => {
  const member = await createViewer('Phone Width');
  const invitation = await createInvitation('editor', `e2e-invited-with-a-rather-long-address-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`);
  invitationIds.push(invitation.id);
  await page.setViewportSize({ width: 390, height: 844 });
  await openDashboard(page);
  await page.goto('/admin?tab=users');
  await expect(page.getByRole('button', { name: `Edit ${member.email}` })).toBeVisible();

  const withinWidth = async (name: string) => {
    const box = await page.getByRole('button', { name, exact: true }).boundingBox();
    expect(box, name).not.toBeNull();
    expect(box!.x, name).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width, name).toBeLessThanOrEqual(390);
  };
  const emails = await page.getByTestId('member-row').getByRole('checkbox').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label')!.replace(/^Select /, '')));
  expect(emails).toContain(member.email);
  for (const email of emails) {
    await withinWidth(`Edit ${email}`);
    await withinWidth(`Reset Password for ${email}`);
  }
  const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  expect(await noSidewaysScroll()).toBe(true);
  // An address wraps at its @ or a dot, not every few letters: its first line is a whole part of it.
  const email = page.getByTestId('member-row').filter({ hasText: member.email }).locator('button span').nth(1);
  expect(await email.evaluate((node) => node.getBoundingClientRect().height / parseFloat(getComputedStyle(node).lineHeight))).toBeLessThanOrEqual(2.1);

  const edit = page.getByRole('button', { name: `Edit ${member.email}` });
  await edit.click();
  await expect(page.getByRole('dialog', { name: 'Edit User' })).toBeVisible();
  await page.keyboard.press('Escape');

  await page.getByRole('tablist', { name: 'User lists' }).getByRole('tab', { name: 'Invitations' }).click();
  await expect(page.getByRole('row').filter({ hasText: invitation.email }).getByTestId('invitation-state')).toHaveText('Pending');
  await withinWidth(`Resend invitation to ${invitation.email}`);
  await withinWidth(`Revoke invitation to ${invitation.email}`);
  expect(await noSidewaysScroll()).toBe(true);
});
