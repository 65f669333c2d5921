/**
 * The back office while its backend is out of reach, in the browser: every request the page makes to the
 * backend fails to connect (the page's network to the backend is cut, as when it is down; the site and its
 * functions still answer). A screen that cannot load says "Temporarily Unavailable" instead of its own error,
 * a notice under the header says changes cannot be saved, and once the backend answers again the notice goes
 * and the screen loads by itself. And the header's site status: a build that started and never reported shows
 * "No answer from the build since ..." with Retry, not "Building" for good.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { organizationOfItsOwn, service } from './support/backend';
import { signInAsAdmin } from './support/sign-in';

const backendOrigin = new URL(process.env.PUBLIC_SUPABASE_URL ?? 'http://127.0.0.1:54321').origin;
const cutBackend = (page: Page) => page.route(`${backendOrigin}/**`, (route) => route.abort('connectionrefused'));
const restoreBackend = (page: Page) => page.unroute(`${backendOrigin}/**`);

test('a screen that cannot reach the backend says it is temporarily unavailable, and loads by itself when it is back', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page);
  await cutBackend(page);
  await page.getByRole('tab', { name: 'Security' }).click();

  const notice = page.getByTestId('backend-unavailable');
  await expect(notice).toContainText('Temporarily Unavailable.');
  await expect(notice).toContainText('changes cannot be saved right now');
  const failed = page.getByTestId('error-state');
  await expect(failed).toContainText('The service is temporarily unavailable. Please try again in a minute.');
  await expect(failed).not.toContainText('Failed to fetch');
  // Still out of reach: Try again finds it so, and the notice stays.
  await notice.getByRole('button', { name: 'Try again' }).click();
  await expect(notice.getByRole('button', { name: 'Try again' })).toBeEnabled();
  await expect(notice).toBeVisible();

  await restoreBackend(page);
  await notice.getByRole('button', { name: 'Try again' }).click();
  await expect(notice).toBeHidden();
  // The audit log loads without the Retry button being pressed.
  await expect(page.getByRole('region', { name: 'User Activities list' })).toBeVisible();
  await expect(failed).toBeHidden();
});

test('opened while the backend is down, the back office says so and opens by itself once it answers', async ({ page }) => {
  test.setTimeout(90_000);
  await signInAsAdmin(page);
  await cutBackend(page);
  await page.goto('/admin/blog');
  const failed = page.getByTestId('error-state');
  await expect(failed).toContainText('Temporarily Unavailable');
  await expect(failed).not.toContainText('Your access could not be checked');

  await restoreBackend(page);
  // The page asks again every 15 seconds and, once answered, checks access again: the post list opens.
  await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible({ timeout: 25_000 });
});

test('a build that never reported shows "No answer from the build since" with Retry, which starts a new build', async ({ page }) => {
  // An organization of its own, so no change another test left waiting comes first ("Changes waiting").
  const { organization, admin, remove } = await organizationOfItsOwn('E2E Silent Build');
  const startedAt = new Date(Date.now() - 45 * 60_000);
  const hookCalls: string[] = [];
  const hook = createServer((req, res) => {
    hookCalls.push(new URL(req.url ?? '/', 'http://hook').pathname);
    req.resume();
    res.end();
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = hook.address() as AddressInfo;
    // A build started 45 minutes ago (longer than a build can take) and never reported again.
    expect((await service.from('site_deploys').insert({ organization_id: organization.id, source: 'netlify', external_id: 'e2e-silent', state: 'building', started_at: startedAt.toISOString() })).error).toBeNull();
    expect((await service.from('site_rebuild_settings').insert({ organization_id: organization.id, build_hook_url: `http://127.0.0.1:${port}/build_hooks/e2e` })).error).toBeNull();

    await signInAsAdmin(page, admin.email);
    await page.getByLabel('Managing').selectOption(organization.id);
    const status = page.getByTestId('deploy-status');
    await expect(status).toHaveAttribute('data-state', 'no_answer');
    // The time, with the date when the build started on another day (45 minutes ago may be before midnight).
    const clock = startedAt.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
    const day = startedAt.toDateString() === new Date().toDateString() ? '' : `${startedAt.toLocaleDateString('en-US', { month: 'short', day: 'numeric' })}, `;
    await expect(status).toContainText(`No answer from the build since ${day}${clock}`);
    await expect(status).not.toContainText('Building');

    await status.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Rebuild started');
    await expect(status).toHaveAttribute('data-state', 'requested');
    expect(hookCalls).toEqual(['/build_hooks/e2e']);
  } finally {
    await new Promise<void>((resolve) => hook.close(() => resolve()));
    // Its deploys, requests, settings and memberships go with it.
    await remove();
  }
});
