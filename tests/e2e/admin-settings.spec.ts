/**
 * The ZimmWriter, Settings and Profile tabs of /admin (Sessions: admin-sessions.spec.ts), each through its main path, signed in
 * through /auth. Every row the tests create is removed and every seeded value they change is restored.
 */
import { createHash } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test, waitForIslands } from './fixtures';
import { createClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { backendUrl, createUser, PASSWORD, removeUser, SCALE_PRO_ID, service } from './support/backend';

const SEED_ADMIN = 'admin@scale-pro.test';
const SEED_TOKEN_HASH = createHash('sha256').update('dev-zimmwriter-token-scale-pro').digest('hex');
const created: string[] = [];
test.afterAll(async () => {
  await Promise.all(created.map(removeUser));
});

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/auth');
  await waitForIslands(page);
  await page.getByRole('main').getByLabel('Email').fill(email);
  await page.getByRole('main').getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

async function openTab(page: Page, id: string, heading: string) {
  await page.goto(`/admin?tab=${id}`);
  await expect(page.getByRole('heading', { name: heading })).toBeVisible();
}

const toast = (page: Page) => page.getByRole('status', { name: 'Notifications' });
const anonClient = createClient(backendUrl, process.env.SUPABASE_ANON_KEY || LOCAL_SUPABASE.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });

/** Published posts of an organization, as visitors (anon) count them. */
async function publicPostCount(organizationId: string): Promise<number | null> {
  const { count } = await anonClient.from('blog_posts').select('id', { count: 'exact', head: true }).eq('organization_id', organizationId);
  return count;
}

test("the Overview's Test Integration opens the ZimmWriter test form, ready to type", async ({ page }) => {
  await signIn(page, SEED_ADMIN);
  await page.getByRole('button', { name: 'Test Integration' }).click();
  await expect(page).toHaveURL(/[?&]tab=zimmwriter&section=test$/);
  const title = page.locator('#webhook-test').getByLabel('Title');
  await expect(title).toBeFocused();
  await expect(title).toBeInViewport();
});

test('ZimmWriter: the test form publishes nothing and says what a delivery would do, and the token rotates behind a confirmation', async ({ page }) => {
  const since = new Date().toISOString();
  const title = `E2E webhook ${Date.now().toString(36)}`;
  // A real delivery, from a webhook its writer named "Agency blog" (any name is accepted and logged).
  const delivered = await page.request.post('/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
    data: { webhook_name: 'Agency blog', title: `${title} delivered`, html: '<p>From the writing tool.</p>', slug: false },
  });
  expect(delivered.status()).toBe(201);
  const publicBefore = await publicPostCount(SCALE_PRO_ID);
  await signIn(page, SEED_ADMIN);
  await openTab(page, 'zimmwriter', 'ZimmWriter Integration');
  await expect(page.getByRole('list', { name: 'Webhook deliveries' }).getByRole('listitem').first()).toContainText(new RegExp(`${title} delivered\\s*from “Agency blog”`));
  await expect(page.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue(/\/api\/webhooks\/zimmwriter\/•+$/);
  await expect(page.getByRole('link', { name: /View Documentation/ })).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('link', { name: /Connect a WordPress publishing tool/ })).toHaveAttribute('href', '/docs/wordpress-publishing-tools');

  await page.getByLabel('Title').fill(title);
  await page.getByRole('button', { name: 'Send Test Webhook' }).click();
  // The result stays in the card until the next test.
  const result = page.getByTestId('webhook-test-result');
  await expect(result).toHaveAttribute('data-outcome', 'success');
  await expect(result).toContainText('Webhook Test Successful!');
  await expect(result).toContainText(`A delivery like this would create a new post “${title}” (published).`);
  const { data: posts } = await service.from('blog_posts').select('id').eq('organization_id', SCALE_PRO_ID).eq('title', title);
  expect(posts).toHaveLength(0);
  expect(await publicPostCount(SCALE_PRO_ID)).toBe(publicBefore);

  try {
    await page.getByRole('button', { name: 'Rotate Token' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('24 hours');
    await dialog.getByRole('button', { name: 'Rotate Token' }).click();
    await expect(page.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue(/\/api\/webhooks\/zimmwriter\/whk_[0-9a-f]{64}$/);
    await expect(page.getByRole('button', { name: 'Copy webhook URL' })).toBeVisible();
  } finally {
    await service.from('webhook_integrations').update({ token_hash: SEED_TOKEN_HASH, previous_token_hash: null, previous_token_expires_at: null, rotated_at: null }).eq('organization_id', SCALE_PRO_ID);
    await service.from('webhook_deliveries').delete().eq('organization_id', SCALE_PRO_ID).gte('received_at', since);
    await service.from('blog_posts').delete().eq('organization_id', SCALE_PRO_ID).in('title', [title, `${title} delivered`]);
    await service.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO_ID).gte('requested_at', since);
  }
});

test('ZimmWriter: the admin chooses what deliveries do; the choice stays after a reload and the test follows it', async ({ page }) => {
  const { data: evergreen } = await service.from('organizations').select('id, settings').eq('slug', 'evergreen-landscaping').single();
  const publicBefore = await publicPostCount(evergreen!.id);
  try {
    await signIn(page, 'admin@evergreen.test');
    await openTab(page, 'zimmwriter', 'ZimmWriter Integration');
    const mode = page.getByLabel('When a post arrives');
    await expect(mode).toHaveValue('draft'); // the seed saves evergreen's deliveries as drafts
    await mode.selectOption('publish');
    await expect(toast(page)).toContainText('Publish Mode Saved');
    await page.reload();
    await expect(page.getByLabel('When a post arrives')).toHaveValue('publish');

    const title = `E2E mode ${Date.now().toString(36)}`;
    await page.getByLabel('Title').fill(title);
    await page.getByRole('button', { name: 'Send Test Webhook' }).click();
    await expect(page.getByTestId('webhook-test-result')).toContainText(`A delivery like this would create a new post “${title}” (published).`);
    expect(await publicPostCount(evergreen!.id)).toBe(publicBefore);
  } finally {
    // The service role may write settings.webhook directly (the API's users only through set_webhook_publish_mode).
    await service.from('organizations').update({ settings: evergreen!.settings }).eq('id', evergreen!.id);
    await service.from('user_activity_logs').delete().eq('organization_id', evergreen!.id).eq('action', 'webhook_publish_mode_changed');
  }
});

test('ZimmWriter: a first-time admin creates the webhook address and copies it, without rotating anything', async ({ page }) => {
  const { data: evergreen } = await service.from('organizations').select('id').eq('slug', 'evergreen-landscaping').single();
  await service.from('webhook_integrations').delete().eq('organization_id', evergreen!.id);
  try {
    await signIn(page, 'admin@evergreen.test');
    await openTab(page, 'zimmwriter', 'ZimmWriter Integration');
    await expect(page.getByText('This organization has no webhook address yet.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Rotate Token' })).toHaveCount(0);
    await expect(page.locator('pre[aria-label="Example payload"]')).toContainText('"image_base64": false');
    await expect(page.locator('pre[aria-label="Example payload"]')).toContainText('"markdown": false');
    await page.getByRole('button', { name: 'Create webhook address' }).click();
    await expect(toast(page)).toContainText('Webhook Address Created');
    await expect(page.getByRole('textbox', { name: 'Webhook URL' })).toHaveValue(/\/api\/webhooks\/zimmwriter\/whk_[0-9a-f]{64}$/);
    await expect(page.getByRole('button', { name: 'Copy webhook URL' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Rotate Token' })).toBeVisible();
    const { count } = await service.from('webhook_integrations').select('organization_id', { count: 'exact', head: true }).eq('organization_id', evergreen!.id);
    expect(count).toBe(1);
  } finally {
    await service.from('webhook_integrations').delete().eq('organization_id', evergreen!.id);
  }
});

test('Settings: saving updates the organization, then the seed is restored', async ({ page }) => {
  const { data: before } = await service.from('organizations').select('name, domain, settings').eq('id', SCALE_PRO_ID).single();
  const since = new Date().toISOString();
  try {
    await signIn(page, SEED_ADMIN);
    await expect(page).toHaveTitle('Admin Dashboard | Scale Pro Marketing');
    await openTab(page, 'settings', 'System Settings');
    await expect(page.getByLabel('Organization Name')).toHaveValue(before?.name ?? '');
    await expect(page.getByLabel('Contact Phone')).toHaveValue(before?.settings.contact_phone ?? '');
    // An example, never an organization's own number (an empty field of another organization showed Scale Pro's).
    await expect(page.getByLabel('Contact Phone')).toHaveAttribute('placeholder', 'e.g. +1 555 010 0199');
    await expect(page.getByLabel('YouTube URL')).toHaveValue(before?.settings.social_links?.youtube ?? '');

    // A bad input: an error on each field, focus on the first, nothing saved.
    await page.getByLabel('Contact Email').fill('not-an-email');
    await page.getByLabel('Contact Phone').fill('-------');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(page.getByLabel('Contact Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Contact Email')).toBeFocused();
    await expect(page.getByLabel('Contact Phone')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Enter a phone number with 7 to 15 digits')).toBeVisible();
    await expect(toast(page)).toContainText('nothing was saved');
    const { data: unchanged } = await service.from('organizations').select('settings').eq('id', SCALE_PRO_ID).single();
    expect(unchanged?.settings).toEqual(before?.settings);

    await page.getByLabel('Contact Email').fill('hello@scale-pro.test');
    await page.getByLabel('Contact Phone').fill('(404) 555-0199');
    await page.getByLabel('Blog Title').fill('E2E Blog Title');
    // Another tab asks before dropping the unsaved edits; staying keeps them.
    await page.getByRole('tab', { name: 'Security' }).click();
    const leave = page.getByRole('dialog', { name: 'Unsaved changes' });
    await expect(leave).toContainText('You have unsaved changes in Settings. Leave without saving?');
    await leave.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByLabel('Blog Title')).toHaveValue('E2E Blog Title');
    await page.getByRole('button', { name: 'Save Settings' }).click();
    await expect(toast(page)).toContainText('Settings Saved');
    await expect(toast(page)).toContainText('Organization settings have been updated successfully');
    const { data: after } = await service.from('organizations').select('settings').eq('id', SCALE_PRO_ID).single();
    expect(after?.settings).toMatchObject({ blog_title: 'E2E Blog Title', contact_email: 'hello@scale-pro.test', contact_phone: '(404) 555-0199' });
    // Saved: nothing to ask about.
    await page.getByRole('tab', { name: 'Security' }).click();
    await expect(page.getByRole('heading', { name: 'Security Audit Log' })).toBeVisible();
  } finally {
    await service.from('organizations').update(before ?? {}).eq('id', SCALE_PRO_ID);
    await service.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO_ID).gte('requested_at', since);
  }
});

test('Profile: an admin changes their password and signs in with the new one', async ({ page }) => {
  const admin = await createUser('admin');
  created.push(admin.email);
  await signIn(page, admin.email);
  await openTab(page, 'profile', 'Profile Settings');
  await expect(page.getByText('At least 8 characters long')).toBeVisible();
  const newPassword = 'E2e-New-Pass-2026';
  await page.getByLabel('Current Password').fill(PASSWORD);
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm New Password').fill(newPassword);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(toast(page)).toContainText('Your password has been changed successfully.');

  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await signIn(page, admin.email, newPassword);
});

test('Settings: search engines show the key, switch off, and the log says at a glance that the last submission failed', async ({ page }) => {
  const { data: site } = await service.from('indexnow_sites').select('key').eq('organization_id', SCALE_PRO_ID).single();
  const { data: failed } = await service
    .from('indexnow_submissions')
    .insert({
      organization_id: SCALE_PRO_ID,
      urls: ['http://localhost:8888/blog/e2e-indexnow', 'http://localhost:8888/blog'],
      status: 'failed',
      attempts: 2,
      response_status: 403,
      error: '403 Forbidden: Key not valid for this host',
      next_attempt_at: new Date(Date.now() + 5 * 60_000).toISOString(),
    })
    .select('id')
    .single();
  try {
    await signIn(page, SEED_ADMIN);
    await openTab(page, 'settings', 'System Settings');
    const card = page.getByRole('region', { name: 'Search Engines' });
    await expect(card.getByLabel('IndexNow key')).toHaveText(site!.key);
    // At the foot of the long page, the form's Save is still in view.
    await card.scrollIntoViewIfNeeded();
    await expect(page.getByRole('button', { name: 'Save Settings' })).toBeInViewport();
    await expect(card.getByRole('alert')).toHaveText(/^The last submission failed: 403 Forbidden: Key not valid for this host\. It is tried again in [1-5] minutes\.$/);
    const entry = card.getByRole('list', { name: 'Search engine submissions' }).getByRole('listitem').first();
    await expect(entry).toContainText('Failed, will retry');
    await entry.getByText('2 pages').click();
    await expect(entry.getByText('http://localhost:8888/blog/e2e-indexnow')).toBeVisible();

    // Switched off (and back on below, by the backend: each switch through the card asks for a build).
    const toggle = card.getByLabel('Tell search engines when pages change');
    await expect(toggle).toBeChecked();
    await toggle.uncheck();
    await expect(toast(page)).toContainText('Search Engines Off');
    await expect(toggle).not.toBeChecked();
    await page.reload();
    await expect(page.getByRole('region', { name: 'Search Engines' }).getByLabel('Tell search engines when pages change')).not.toBeChecked();
  } finally {
    await service.from('indexnow_submissions').delete().eq('id', failed!.id);
    await service.from('indexnow_sites').update({ enabled: true }).eq('organization_id', SCALE_PRO_ID);
  }
});
