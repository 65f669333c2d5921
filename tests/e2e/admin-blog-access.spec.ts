/**
 * Blog management notices lost access at its next request to the backend: the header's site status reads every
 * 5 seconds, and access is checked again every 5 minutes, like /admin. An editor deactivated meanwhile (their
 * only membership) is signed out to /auth with what to do, and a session ended meanwhile goes to the sign-in
 * that returns to the blog with 'Session Expired'.
 * The page clock is installed before the first navigation and fast-forwarded past the interval. The users
 * created here are removed afterwards.
 */
import type { Page } from '@playwright/test';
import { expect, test, waitForIslands } from './fixtures';
import { createUser, passwordSession, removeUser, service, storageKey } from './support/backend';

const created: string[] = [];
test.afterAll(async () => {
  for (const email of created) await removeUser(email);
});

const toast = (page: Page) => page.getByRole('status', { name: 'Notifications' });

/** A new editor of Scale Pro, signed in through supabase-js's stored session, on /admin/blog. */
async function openBlogAsEditor(page: Page) {
  const editor = await createUser('editor');
  created.push(editor.email);
  const session = await passwordSession(editor.email);
  await page.clock.install();
  await page.goto('/');
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [storageKey, JSON.stringify(session)] as const);
  await page.goto('/admin/blog');
  await expect(page.getByRole('heading', { name: 'Blog Management' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New Post' })).toBeVisible();
  return { ...editor, session };
}

test('an editor deactivated while on /admin/blog is signed out to /auth at the next request', async ({ page }) => {
  const editor = await openBlogAsEditor(page);
  const { error } = await service.from('organization_memberships').update({ is_active: false }).eq('user_id', editor.id);
  expect(error).toBeNull();

  // The next read of the site status is refused (membership_ended): the page leaves within seconds.
  await page.clock.fastForward('00:06');
  await expect(page).toHaveURL(/\/auth$/);
  await waitForIslands(page);
  await expect(toast(page)).toContainText('Your account is not an active member of any organization.');
  expect(await page.evaluate((key) => localStorage.getItem(key), storageKey)).toBeNull();
});

test('a session ended while on /admin/blog goes to the blog sign-in with Session Expired at the next check', async ({ page }) => {
  const editor = await openBlogAsEditor(page);
  const sessionId = JSON.parse(Buffer.from(editor.session.access_token.split('.')[1]!, 'base64url').toString()).session_id;
  const { error } = await service.rpc('terminate_session', { p_session_id: sessionId });
  expect(error).toBeNull();

  await page.clock.fastForward('05:01');
  await expect(page).toHaveURL(/\/auth\?next=%2Fadmin%2Fblog$/);
  await expect(toast(page)).toContainText('Your session has expired. Please log in again.');
  await expect(page.getByText('Sign in to continue where you were.')).toBeVisible();
});
