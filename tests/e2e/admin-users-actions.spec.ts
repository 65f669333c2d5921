/**
 * The Users tab's actions on users this file creates: a single role change, the last admin's deactivation
 * refused, the user detail dialog, and the bulk Change Role, Delete (deactivates) and Activate with the
 * confirmation listing five names and '+N more'. Every user (with their log lines) is removed afterwards.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { organizationOfItsOwn, PASSWORD, removeUser, SCALE_PRO_ID, SEED_ADMIN_ID, service } from './support/backend';
import { openDashboard, openUsersOfOwnOrganization } from './support/sign-in';

// Signed in as the seed admin from the start (its sign-in is the setup project's; none of these signs out).
test.use({ signedInAs: 'seed admin' });

const createdEmails: string[] = [];
test.afterEach(async () => {
  for (const email of createdEmails.splice(0)) {
    const { data } = await service.from('profiles').select('id').eq('email', email).maybeSingle();
    if (data) await service.from('user_activity_logs').delete().eq('resource_id', data.id);
    await removeUser(email);
  }
  // The refusal test must never leave the seed admin changed, even when it fails.
  await service.from('organization_memberships').update({ role: 'admin', is_active: true }).eq('user_id', SEED_ADMIN_ID).eq('organization_id', SCALE_PRO_ID);
  await service.from('profiles').update({ role: 'admin', is_active: true }).eq('id', SEED_ADMIN_ID);
});

const toast = (page: Page) => page.getByRole('status', { name: 'Notifications' });

/** Creates confirmed viewers of Scale Pro named `{label} {n}` with addresses sharing one searchable run id. */
async function createViewers(label: string, count: number, extra: { phone?: string; bio?: string } = {}) {
  const run = crypto.randomUUID().slice(0, 8);
  const users: { id: string; email: string; name: string }[] = [];
  for (let n = 1; n <= count; n++) {
    const email = `e2e-${run}-${n}@scale-pro.test`;
    const name = `${label} ${n}`;
    createdEmails.push(email);
    const { data, error } = await service.auth.admin.createUser({
      email,
      password: PASSWORD,
      email_confirm: true,
      user_metadata: { full_name: name },
      app_metadata: { organization_id: SCALE_PRO_ID, role: 'viewer' },
    });
    if (error || !data.user) throw new Error(`creating ${email} failed: ${error?.message}`);
    if (extra.phone || extra.bio) await service.from('profiles').update(extra).eq('id', data.user.id);
    users.push({ id: data.user.id, email, name });
  }
  return { run, users };
}

/** Role and status of the users' memberships of Scale Pro (what the Users tab changes). */
async function profilesOf(ids: string[]) {
  const { data, error } = await service.from('organization_memberships').select('role, is_active').eq('organization_id', SCALE_PRO_ID).in('user_id', ids);
  if (error) throw error;
  return data;
}

test('a single role change updates the user and is logged', async ({ page }) => {
  const { users: [target] } = await createViewers('Single Role', 1);
  if (!target) throw new Error('no user');
  await openDashboard(page);
  await page.goto('/admin?tab=users');
  await page.getByLabel(`Role of ${target.email}`).selectOption('editor');
  await expect(toast(page)).toContainText('User role changed to editor');
  await expect(page.getByLabel(`Role of ${target.email}`)).toHaveValue('editor');
  expect(await profilesOf([target.id])).toEqual([{ role: 'editor', is_active: true }]);
  const { data: log } = await service.from('user_activity_logs').select('user_id, action, details').eq('resource_id', target.id);
  // The admin is the actor; the user is what the entry is about.
  expect(log).toEqual([{ user_id: SEED_ADMIN_ID, action: 'role_changed', details: expect.objectContaining({ new_role: 'editor', changed_by: SEED_ADMIN_ID }) }]);
});

test.describe('as the admin of an organization of its own', () => {
  // Its one admin stays the last, whatever admins other tests add to Scale Pro meanwhile; signed in through /auth.
  test.use({ signedInAs: null });

  test('the last active admin cannot be deactivated: the refusal is explained and the switch stays on', async ({ page }) => {
    const own = await organizationOfItsOwn('Last Active Admin');
    try {
      await openUsersOfOwnOrganization(page, own);
      const row = page.getByRole('row').filter({ hasText: own.admin.email });
      // click, not uncheck: the refused change leaves the switch on, which uncheck() would report as its failure.
      // Deactivating asks first, naming what it does.
      await row.getByRole('switch').click();
      const ask = page.getByRole('dialog', { name: 'Deactivate this member?' });
      await expect(ask).toContainText('can no longer sign in or publish here');
      await ask.getByRole('button', { name: 'Deactivate' }).click();
      await expect(toast(page)).toContainText('The organization must keep at least one active admin. Make another member admin first.');
      await expect(row.getByRole('switch')).toBeChecked();
      const { data } = await service.from('organization_memberships').select('role, is_active')
        .eq('organization_id', own.organization.id).eq('user_id', own.admin.id).single();
      expect(data).toEqual({ role: 'admin', is_active: true });
    } finally {
      await own.remove();
    }
  });
});

test('clicking a user opens the detail dialog with profile and recent activity', async ({ page }) => {
  const { users: [target] } = await createViewers('Detail Person', 1, { phone: '+1 404 555 0100', bio: 'Writes about local SEO.' });
  if (!target) throw new Error('no user');
  await service.from('user_activity_logs').insert({ user_id: target.id, organization_id: SCALE_PRO_ID, action: 'post_viewed_e2e' });
  await openDashboard(page);
  await page.goto('/admin?tab=users');
  await page.getByRole('button', { name: new RegExp(`^${target.name}`) }).click();
  const dialog = page.getByRole('dialog', { name: target.name });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(target.email);
  await expect(dialog).toContainText('viewer');
  await expect(dialog).toContainText('Active');
  await expect(dialog).toContainText('+1 404 555 0100');
  await expect(dialog).toContainText('Writes about local SEO.');
  // An action without a sentence of its own still reads as one, naming its code.
  await expect(dialog.getByRole('listitem').filter({ hasText: `${target.name} did something: post_viewed_e2e` })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('bulk Change Role, Delete and Activate ask with five names and +N more, then apply to all', async ({ page }) => {
  const { run, users } = await createViewers('Bulk Person', 7);
  const ids = users.map((user) => user.id);
  await openDashboard(page);
  await page.goto('/admin?tab=users');
  await page.getByLabel('Search users').fill(run);
  await expect(page.getByRole('row').filter({ hasText: run })).toHaveCount(7);
  const bar = page.getByRole('region', { name: 'Bulk actions' });

  async function confirmBulk(open: () => Promise<void>, title: string, done: string) {
    await page.getByLabel('Select all users').check();
    await expect(bar.getByTestId('selected-count')).toHaveText('7 selected');
    await open();
    const confirm = page.getByRole('dialog', { name: title });
    await expect(confirm.getByTestId('confirm-names').getByRole('listitem')).toHaveCount(5);
    await expect(confirm.getByTestId('confirm-names')).toContainText('Bulk Person');
    await expect(confirm).toContainText('+2 more');
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(toast(page)).toContainText(done);
    await expect(bar).toBeHidden();
  }

  await confirmBulk(async () => { await bar.getByLabel('Change Role').selectOption('editor'); }, 'Change Role', 'Updated 7 users to editor role.');
  expect(await profilesOf(ids)).toEqual(Array(7).fill({ role: 'editor', is_active: true }));
  for (const user of users) await expect(page.getByLabel(`Role of ${user.email}`)).toHaveValue('editor');

  await confirmBulk(() => bar.getByRole('button', { name: 'Delete' }).click(), 'Delete Users', 'Deactivated 7 users.');
  expect(await profilesOf(ids)).toEqual(Array(7).fill({ role: 'editor', is_active: false }));
  await expect(page.getByRole('row').filter({ hasText: run }).getByRole('switch').first()).not.toBeChecked();

  await confirmBulk(() => bar.getByRole('button', { name: 'Activate', exact: true }).click(), 'Activate Users', 'Activated 7 users.');
  expect(await profilesOf(ids)).toEqual(Array(7).fill({ role: 'editor', is_active: true }));
  const { data: logs } = await service.from('user_activity_logs').select('action').in('resource_id', ids);
  const actions = (logs ?? []).map((log) => log.action);
  for (const action of ['role_changed_bulk', 'user_soft_deleted_bulk', 'user_activated_bulk']) {
    expect(actions.filter((a) => a === action)).toHaveLength(7);
  }
});
