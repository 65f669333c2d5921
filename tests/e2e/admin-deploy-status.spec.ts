/**
 * The site status in the back office header, end to end on the served site: a saved change shows "Changes
 * waiting"; the local build it starts shows "Building since", then "Up to date" with a link, and blog
 * management marks published posts Live. A build whose hook fails shows "Build failed" with the reason, and
 * the admin's Retry sends it again; Netlify's signed deploy notifications (simulated, signed with the served
 * site's DEPLOY_NOTIFICATION_SECRET) then drive it through "Building" to a failed build (its reason, when it is
 * tried again by itself, Retry), and the retried build to "Up to date".
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { SignJWT } from 'jose';
import { expect, test } from './fixtures';
import { PASSWORD, SCALE_PRO_ID, service } from './support/backend';
import { E2E_DEPLOY_NOTIFICATION_SECRET } from './support/deploy-secret';
import { rebuildFinished, startPublicSiteRebuild } from './support/rebuild';
import { flushDueRebuilds } from '../../src/lib/server/rebuilds.ts';

const SEED_ADMIN = 'admin@scale-pro.test';
const since = new Date().toISOString();
const status = (page: Page) => page.getByTestId('deploy-status');

async function signIn(page: Page) {
  await page.goto('/auth');
  await page.getByRole('main').getByLabel('Email').fill(SEED_ADMIN);
  await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/admin$/);
}

/** A phone number no earlier run left in the settings, so saving it is a change. */
const freshPhone = () => `(404) 555-${String(Date.now() % 10_000).padStart(4, '0')}`;

/** A change visitors see, made the way any writer makes it: the database records the rebuild. */
async function changeSettings(phone: string = freshPhone()) {
  const { data } = await service.from('organizations').select('settings').eq('id', SCALE_PRO_ID).single();
  const { error } = await service.from('organizations').update({ settings: { ...data!.settings, contact_phone: phone } }).eq('id', SCALE_PRO_ID);
  expect(error).toBeNull();
}

let original: unknown;
/** The served site's local build hook (netlify/local/build-hook.ts), put back after the test that replaces it. */
let servedHook: string | null = null;
const restoreServedHook = async () => {
  if (servedHook) await service.from('site_rebuild_settings').upsert({ organization_id: SCALE_PRO_ID, build_hook_url: servedHook });
  else await service.from('site_rebuild_settings').delete().eq('organization_id', SCALE_PRO_ID);
};
test.beforeAll(async () => {
  original = (await service.from('organizations').select('settings').eq('id', SCALE_PRO_ID).single()).data?.settings;
  servedHook = (await service.from('site_rebuild_settings').select('build_hook_url').eq('organization_id', SCALE_PRO_ID).maybeSingle()).data?.build_hook_url ?? null;
});
test.afterAll(async () => {
  await service.from('organizations').update({ settings: original }).eq('id', SCALE_PRO_ID);
  await restoreServedHook();
  await service.from('site_deploys').delete().eq('organization_id', SCALE_PRO_ID).eq('source', 'netlify').gte('started_at', since);
  // Its requests too: without the simulated builds above, the batches sent to the test's own hook would look
  // like builds still to start, and hold the next spec's build.
  await service.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO_ID).gte('requested_at', since);
});

test('a saved change waits, the local build runs, and the site is up to date with its posts Live', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page);
  await changeSettings();
  await expect(status(page)).toHaveAttribute('data-state', 'waiting');
  await expect(status(page)).toContainText('Changes waiting');

  // The change is put back before the build, so the served site shows the seed's settings again, as the
  // specs after this one expect (the restoring save is a change too: both wait for the same build).
  await service.from('organizations').update({ settings: original }).eq('id', SCALE_PRO_ID);
  const build = await startPublicSiteRebuild(SCALE_PRO_ID);
  // The build of the seed's site takes a few seconds, less than the header's 5 s poll: the header reads the
  // status at once when the page becomes visible again (back from another tab), as here, so the state is seen.
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  await expect(status(page)).toHaveAttribute('data-state', 'building');
  await expect(status(page)).toContainText(/Building since \d{1,2}:\d{2} (AM|PM)/);
  await rebuildFinished(build);
  await expect(status(page)).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
  await expect(status(page)).toContainText('Up to date');
  await expect(status(page).getByRole('link', { name: /View live site/ })).toHaveAttribute('href', /^http/);

  await page.goto('/admin/blog');
  // Every published post changed before that build started is in it.
  const published = page.getByTestId('post-card').filter({ has: page.getByTestId('post-status').getByText('published', { exact: true }) });
  await expect(published.first().getByTestId('post-live')).toHaveText('Live');
  await expect(published.first().getByRole('link', { name: /^View / })).toHaveAttribute('href', /^\/blog\//);
});

test('a failed hook call and a failed build show their reason with Retry; the retried build reports through signed deploy notifications', async ({ page }) => {
  test.setTimeout(120_000);
  let answer = 500;
  const hookCalls: string[] = [];
  const hook = createServer((req, res) => {
    hookCalls.push(req.url ?? '');
    req.resume();
    res.statusCode = answer;
    res.end();
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = hook.address() as AddressInfo;
    await service.from('site_rebuild_settings').upsert({ organization_id: SCALE_PRO_ID, build_hook_url: `http://127.0.0.1:${port}/build_hooks/e2e` });
    await signIn(page);
    await changeSettings();
    // The scheduled flush, once the quiet window passed: the hook refuses three times.
    const [batch] = await flushDueRebuilds(service, { organizationId: SCALE_PRO_ID, env: { ...process.env, REBUILD_QUIET_WINDOW_MS: '0', REBUILD_RETRY_BASE_MS: '10' } });
    expect(batch?.outcome).toBe('failed');
    await expect(status(page)).toHaveAttribute('data-state', 'failed');
    await expect(status(page)).toContainText('Build failed');
    await expect(status(page)).toContainText('Build hook answered 500');

    answer = 200;
    await status(page).getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Rebuild started');
    await expect(status(page)).toHaveAttribute('data-state', 'requested');
    expect(hookCalls.length).toBe(4);

    // Netlify builds and says so, signed; a notification signed with another secret changes nothing.
    const event = async (deployId: string, state: string, { secret = E2E_DEPLOY_NOTIFICATION_SECRET, error }: { secret?: string; error?: string } = {}) => {
      const body = JSON.stringify({ id: deployId, state, context: 'production', created_at: new Date().toISOString(), ssl_url: 'https://scalepromarketing.com', error_message: error ?? null });
      const signature = await new SignJWT({ sha256: createHash('sha256').update(body).digest('hex') })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('netlify')
        .sign(new TextEncoder().encode(secret));
      return page.request.post('/api/deploy-events', { data: body, headers: { 'content-type': 'application/json', 'x-webhook-signature': signature } });
    };
    const first = `e2e-${Date.now()}`;
    expect((await event(first, 'ready', { secret: 'not-the-secret' })).status()).toBe(401);
    await expect(status(page)).toHaveAttribute('data-state', 'requested');
    expect((await event(first, 'building')).status()).toBe(202);
    await expect(status(page)).toHaveAttribute('data-state', 'building');

    // The build itself fails: the header says why, that it is tried again by itself, and offers Retry.
    expect((await event(first, 'error', { error: 'Build script returned non-zero exit code: 2' })).status()).toBe(202);
    await expect(status(page)).toHaveAttribute('data-state', 'failed');
    await expect(status(page)).toContainText('Build failed');
    await expect(status(page)).toContainText('Build script returned non-zero exit code: 2');
    await expect(status(page)).toContainText(/It is tried again by itself at \d{1,2}:\d{2}/);
    await status(page).getByRole('button', { name: 'Retry' }).click();
    await expect(status(page)).toHaveAttribute('data-state', 'requested');
    expect(hookCalls.length).toBe(5);

    const second = `${first}-retried`;
    expect((await event(second, 'building')).status()).toBe(202);
    await expect(status(page)).toHaveAttribute('data-state', 'building');
    expect((await event(second, 'ready')).status()).toBe(202);
    await expect(status(page)).toHaveAttribute('data-state', 'live');
    await expect(status(page).getByRole('link', { name: /View live site/ })).toHaveAttribute('href', 'https://scalepromarketing.com');
  } finally {
    await new Promise<void>((resolve) => hook.close(() => resolve()));
    await restoreServedHook();
  }
});

test('the served site stores its build hook again when the database lost it (as after a reset), and asks for a rebuild', async () => {
  const hookOf = async () => (await service.from('site_rebuild_settings').select('build_hook_url').eq('organization_id', SCALE_PRO_ID).maybeSingle()).data?.build_hook_url ?? null;
  const stored = await hookOf();
  expect(stored).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/build_hooks\/local-/);
  const from = new Date().toISOString();
  const reason = 'Build hook stored again after a database reset';
  try {
    await service.from('site_rebuild_settings').delete().eq('organization_id', SCALE_PRO_ID);
    expect(await hookOf()).toBeNull();
    // The server checks every 10 s.
    await expect.poll(hookOf, { timeout: 30_000, intervals: [1000] }).toBe(stored);
    await expect
      .poll(async () => (await service.from('site_rebuild_requests').select('reason').eq('organization_id', SCALE_PRO_ID).eq('reason', reason).gte('requested_at', from)).data?.length)
      .toBe(1);
  } finally {
    await restoreServedHook();
    // The served site holds its builds (playwright.config.ts): the request waits; the next spec's build takes it.
    await service.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO_ID).eq('reason', reason).gte('requested_at', from);
  }
});
