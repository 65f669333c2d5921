/**
 * The Sessions tab as a person uses it: sessions grouped by person, one entry per browser however often it
 * signed in, this device marked, ending someone else's (every sign-in of that browser is signed out at once,
 * the audit log says who did it), and signing yourself out from a phone behind a confirmation. Created users are
 * removed after.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { describeUserAgent } from '../../src/lib/back-office/user-agent.ts';
import { createUser, removeUser } from './support/backend';
import { signInAsAdmin } from './support/sign-in';

const created: string[] = [];
test.afterAll(async () => {
  await Promise.all(created.map(removeUser));
});

const toast = (page: Page) => page.getByRole('status', { name: 'Notifications' });
const groupOf = (page: Page, name: string) => page.getByRole('region', { name: `Sessions of ${name}` });

async function openSessions(page: Page) {
  await page.goto('/admin?tab=sessions');
  await expect(page.getByRole('heading', { name: 'Active Sessions' })).toBeVisible();
  await expect(page.getByText(/\d+ active session\(s\) found/)).toBeVisible();
}

test('sessions are grouped by person and browser, this device is marked, and terminating one signs that browser out', async ({ page, browser, baseURL }) => {
  const name = `E2E admin ${crypto.randomUUID().slice(0, 6)}`;
  const member = await createUser('admin', name);
  created.push(member.email);
  // The member signs in twice in the same browser (two windows of one browser announce the same user agent).
  const windows = [await browser.newContext({ baseURL }), await browser.newContext({ baseURL })];
  try {
    const otherPages = await Promise.all(windows.map((context) => context.newPage()));
    for (const otherPage of otherPages) await signInAsAdmin(otherPage, member.email);

    await signInAsAdmin(page);
    await openSessions(page);
    // Your own group comes first, with this browser's session marked and first in it.
    const groups = page.getByTestId('session-group');
    await expect(groups.first()).toHaveAccessibleName('Sessions of Alex Morgan');
    await expect(groups.first().getByTestId('session').first()).toContainText('This device');
    await expect(page.getByText('This device', { exact: true })).toHaveCount(1);

    const group = groupOf(page, name);
    await expect(group).toContainText(member.email);
    await expect(group).toContainText('1 session');
    const card = group.getByTestId('session');
    await expect(card).toHaveCount(1);
    // The browser and system the other browser announced (Playwright's desktop Chrome says Windows), signed in twice.
    await expect(card).toContainText(describeUserAgent(await otherPages[0]!.evaluate(() => navigator.userAgent)));
    await expect(card).toContainText(/Chrome \d+ on /);
    await expect(card).toContainText('First sign-in');
    await expect(card).toContainText('Sign-ins2');
    await expect(card).toContainText('Last activity');
    await expect(card).not.toContainText('Expires');
    await expect(card.getByText('Active', { exact: true })).toBeVisible();

    await card.getByRole('button', { name: `Terminate session of ${member.email}` }).click();
    await expect(page.getByRole('dialog')).toContainText(`${name} (${member.email}) will be signed out`);
    await page.getByRole('dialog').getByRole('button', { name: 'Terminate' }).click();
    await expect(toast(page)).toContainText('User session has been terminated successfully');
    await expect(group).toHaveCount(0);

    // Both windows are signed out on their next visit.
    for (const otherPage of otherPages) {
      // Only until the page starts: the back office sends it on to /auth, perhaps before its load event.
      await otherPage.goto('/admin', { waitUntil: 'commit' });
      await expect(otherPage).toHaveURL(/\/auth$/);
    }

    // The audit log says who ended whose sessions, in one entry.
    await page.goto('/admin?tab=security');
    await expect(page.getByTestId('audit-activity').filter({ hasText: `Alex Morgan ended ${name}'s 2 sessions in one browser` })).toHaveCount(1);
  } finally {
    await Promise.all(windows.map((context) => context.close()));
  }
});

test.describe('on a phone', () => {
  // A phone is its own browser (its own user agent): signing it out leaves the seed admin's desktop sessions,
  // which the other browser tests use, signed in.
  test.use({ userAgent: `Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 E2E/${crypto.randomUUID().slice(0, 8)}` });

  test('signing out this device is reachable, asks first, and lands on /auth', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await signInAsAdmin(page);
    await openSessions(page);
    const button = page.getByRole('button', { name: 'Sign out this device' });
    await button.scrollIntoViewIfNeeded();
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
    // Nothing on the tab is wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await button.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('you will be signed out');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/tab=sessions/);

    await button.click();
    await dialog.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    await page.goto('/admin', { waitUntil: 'commit' });
    await expect(page).toHaveURL(/\/auth$/);
  });
});
