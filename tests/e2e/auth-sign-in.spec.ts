import type { Page } from '@playwright/test';
import { expect, test, waitForIslands } from './fixtures';
import { anonKey, backendUrl, createUser, PASSWORD, passwordSession, removeUser, service, storageKey } from './support/backend';

const created: string[] = [];
test.afterAll(async () => {
  await Promise.all(created.map(removeUser));
});

async function user(role: 'admin' | 'editor' | 'viewer') {
  const made = await createUser(role);
  created.push(made.email);
  return made;
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/auth');
  await waitForIslands(page);
  await expect(page.getByRole('heading', { name: 'Admin Access' })).toBeVisible();
  await page.getByRole('main').getByLabel('Email').fill(email);
  await page.getByRole('main').getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

const toast = (page: Page) => page.getByRole('status', { name: 'Notifications' });

test('an admin signs in, manages Scale Pro Marketing, and signs out', async ({ page }) => {
  const admin = await user('admin');
  await signIn(page, admin.email, PASSWORD);

  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  await expect(page.getByText('Managing Scale Pro Marketing')).toBeVisible();
  await expect(page.getByTestId('admin-user-email')).toHaveText(admin.email);
  await expect(toast(page)).toContainText('Admin Access Granted');
  await expect(page.getByRole('button', { name: /Switch to .* theme/ })).toBeVisible();

  // The welcome belongs to the sign-in: the pages opened after it was read do not repeat it.
  await page.waitForTimeout(2000);
  await page.goto('/admin/blog');
  await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible();
  await page.waitForTimeout(1000);
  await expect(toast(page)).toHaveCount(0);

  // Already signed in: /auth sends the user on to the back office.
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/admin$/);

  await page.goto('/admin');
  await expect(toast(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.goto('/admin', { waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/auth$/);
});

for (const role of ['editor', 'viewer'] as const) {
  test(`${role === "editor" ? "an" : "a"} ${role} signs in at /auth and lands in blog management, with no way into the dashboard`, async ({ page }) => {
    const member = await user(role);
    await signIn(page, member.email, PASSWORD);
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible();
    await expect(toast(page)).toContainText('Welcome to blog management.');
    const nav = page.getByRole('navigation', { name: 'Back office' });
    await expect(nav.getByRole('link', { name: 'Posts' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'View site' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'New Post' })).toHaveCount(role === 'editor' ? 1 : 0);
  });
}

test('a deactivated account is refused with what to do instead', async ({ page }) => {
  const editor = await user('editor');
  await service.from('organization_memberships').update({ is_active: false }).eq('user_id', editor.id);
  await signIn(page, editor.email, PASSWORD);
  await expect(toast(page)).toContainText('Your account is not an active member of any organization.');
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate((key) => localStorage.getItem(key), storageKey)).toBeNull();
});

test('a sign-in the browser cannot complete says so on screen and ends the session it opened', async ({ page }) => {
  const editor = await user('editor');
  // The password is accepted by our function, but this browser cannot reach the backend itself (as when a
  // Content-Security-Policy or a network blocks it): the second half of the sign-in fails.
  await page.route(`${backendUrl}/**`, (route) => route.abort('blockedbyclient'));
  const handedOver = page.waitForResponse((response) => response.url().endsWith('/api/auth/sign-in'));
  await signIn(page, editor.email, PASSWORD);
  const { session } = (await (await handedOver).json()) as { session: { refresh_token: string } };

  await expect(toast(page)).toContainText('Could Not Open the Back Office');
  await expect(toast(page)).toContainText('you have been signed out again');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  expect(await page.evaluate((key) => localStorage.getItem(key), storageKey)).toBeNull();
  // The session the function opened is over: its refresh token is refused by Supabase Auth.
  const refreshed = await fetch(`${backendUrl}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: session.refresh_token }),
  });
  expect(refreshed.status).toBeGreaterThanOrEqual(400);
});

test('a wrong password is refused without saying which part was wrong', async ({ page }) => {
  const admin = await user('admin');
  await signIn(page, admin.email, 'Wrong-Password-1');
  await expect(toast(page)).toContainText('Admin Access Denied');
  await expect(toast(page)).toContainText('Invalid credentials or insufficient privileges.');
  await page.getByRole('button', { name: 'Dismiss notification' }).click();
  await expect(toast(page)).toBeEmpty();
});

test('the dashboard gate: no user goes to /auth, a signed-in editor goes on to blog management and is told why', async ({ page }) => {
  await page.goto('/admin', { waitUntil: 'commit' });
  await expect(page).toHaveURL(/\/auth$/);

  const editor = await user('editor');
  const session = await passwordSession(editor.email);
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [storageKey, JSON.stringify(session)] as const);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/blog$/);
  await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible();
  // Told why, on the page it lands on; the same for an admin's other addresses.
  await expect(toast(page)).toContainText('Admins Only');
  await expect(toast(page)).toContainText('That page is for the organization\'s admins.');
  for (const address of ['/admin?tab=users', '/admin/newsletter']) {
    await page.goto(address);
    await expect(page).toHaveURL(/\/admin\/blog$/);
    await expect(toast(page)).toContainText('Admins Only');
  }
});

test('a session ended by an admin sends the user to /auth with Session Expired at the next check', async ({ page }) => {
  const admin = await user('admin');
  await page.clock.install();
  await signIn(page, admin.email, PASSWORD);
  await expect(page.getByText('Managing Scale Pro Marketing')).toBeVisible();

  const token = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), storageKey))!);
  const sessionId = JSON.parse(Buffer.from(token.access_token.split('.')[1], 'base64url').toString()).session_id;
  const { error } = await service.rpc('terminate_session', { p_session_id: sessionId });
  expect(error).toBeNull();

  await page.clock.fastForward('05:01');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(toast(page)).toContainText('Your session has expired. Please log in again.');
});

test('a session ended elsewhere is noticed at the first request, never shown as empty data', async ({ page }) => {
  const admin = await user('admin');
  await signIn(page, admin.email, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();

  const token = JSON.parse((await page.evaluate((key) => localStorage.getItem(key), storageKey))!);
  const sessionId = JSON.parse(Buffer.from(token.access_token.split('.')[1], 'base64url').toString()).session_id;
  expect((await service.rpc('terminate_session', { p_session_id: sessionId })).error).toBeNull();

  // No clock: the next request is refused by the database and the page leaves at once. That request is the
  // Content tab's, unless one the dashboard already had on its way (its overview) got there first.
  await page.getByRole('tab', { name: 'Content' }).click({ timeout: 5_000 }).catch(() => undefined);
  await expect(page).toHaveURL(/\/auth$/);
  await expect(toast(page)).toContainText('Your session has expired. Please log in again.');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  expect(await page.evaluate((key) => localStorage.getItem(key), storageKey)).toBeNull();
});
