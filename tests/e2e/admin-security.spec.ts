import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { SCALE_PRO_ID, service } from './support/backend';
import { SEED_ADMIN_EMAIL, signInAsAdmin } from './support/sign-in';

test('the Security tab lists activity as sentences and login attempts, and exports the audit log as JSON', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin?tab=security');
  await expect(page.getByRole('heading', { name: 'Security Audit Log' })).toBeVisible();
  // Signing in just now was logged; the entry reads as a sentence and opens its raw detail.
  const signedIn = page.getByTestId('audit-activity').filter({ hasText: 'Alex Morgan signed in as an admin' }).first();
  await expect(signedIn).toBeVisible();
  await signedIn.getByRole('button').click();
  const detail = page.getByRole('dialog', { name: 'Alex Morgan signed in as an admin' });
  await expect(detail).toContainText('admin_login_success');
  await expect(detail).toContainText('20000000-0000-4000-8000-000000000001');
  await expect(detail).toContainText('"user_agent"');
  await detail.getByRole('button', { name: 'Close' }).click();
  await expect(detail).toBeHidden();
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
  // The seed admin's sign-in (admins that tests in the other lane make sign in meanwhile too).
  const signIn = body.activities.find((a: { action: string; user_id: string }) => a.action === 'admin_login_success' && a.user_id === '20000000-0000-4000-8000-000000000001');
  expect(signIn).toMatchObject({ summary: 'Alex Morgan signed in as an admin' });
  expect(signIn.details).toHaveProperty('ip_address');
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Export Complete');
});

test('the Overview shows the recent activity as sentences', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/admin?tab=overview');
  await expect(page.getByRole('heading', { name: 'Recent activity' })).toBeVisible();
  await expect(page.getByTestId('recent-activity').filter({ hasText: 'Alex Morgan signed in as an admin' }).first()).toBeVisible();
  await page.getByRole('button', { name: 'View audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Security Audit Log' })).toBeVisible();
});

test("the writing tool's entries show in the Security list and the CSV, named as the writing tool", async ({ page }) => {
  const since = new Date().toISOString();
  const title = `E2E audited delivery ${Date.now().toString(36)}`;
  const delivered = await page.request.post('/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
    data: { webhook_name: 'Agency blog', title, html: '<p>From the writing tool.</p>', slug: false },
  });
  expect(delivered.status()).toBe(201);
  try {
    await signInAsAdmin(page);
    await page.goto('/admin?tab=security');
    const entry = page.getByTestId('audit-activity').filter({ hasText: `ZimmWriter (writing tool) created and published the post "${title}"` });
    await expect(entry).toBeVisible();
    await expect(entry.getByTestId('audit-action')).toHaveText('post_created');
    await expect(entry.getByTestId('audit-action')).toHaveAttribute('data-variant', 'success');
    await expect(entry.getByTestId('audit-resource')).toContainText(title);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const csv = await readFile(await (await downloading).path(), 'utf8');
    const row = csv.split('\n').find((line) => line.includes('post_created') && line.includes(title));
    expect(row).toContain('ZimmWriter (writing tool)');
    expect(row).toContain('writing_tool');
  } finally {
    await service.from('blog_posts').delete().eq('organization_id', SCALE_PRO_ID).eq('title', title);
    await service.from('webhook_deliveries').delete().eq('organization_id', SCALE_PRO_ID).gte('received_at', since);
    await service.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO_ID).gte('requested_at', since);
  }
});

test('the Security list names what an entry is about: an organization by its name, never by an id', async ({ page }) => {
  const { data: entry } = await service
    .from('user_activity_logs')
    .insert({ user_id: '20000000-0000-4000-8000-000000000001', organization_id: SCALE_PRO_ID, action: 'publishing_queue_changed', resource_type: 'organization', resource_id: SCALE_PRO_ID, details: { to: { posts_per_day: 7 } } })
    .select('id')
    .single();
  try {
    await signInAsAdmin(page);
    await page.goto('/admin?tab=security');
    const row = page.getByTestId('audit-activity').filter({ hasText: 'Alex Morgan set the publishing queue to 7 posts a day' });
    await expect(row.getByTestId('audit-resource')).toHaveText('organization: Scale Pro Marketing');
  } finally {
    await service.from('user_activity_logs').delete().eq('id', entry!.id);
  }
});
