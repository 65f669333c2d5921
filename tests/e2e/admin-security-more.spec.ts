/**
 * The Security tab beyond its first page and its CSV export: a user created here gets 105 activity rows and
 * 55 login attempts (the newest of all, so they fill the first pages), Load more shows more than 100 / 50,
 * and the CSV download has the dated name, a formula-safe cell, the summary sentences and every entry of the log,
 * which the Total Activities card counts too. The user and their rows are removed after.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { createUser, removeUser, SCALE_PRO_ID, service } from './support/backend';
import { openDashboard } from './support/sign-in';

// Signed in as the seed admin from the start (its sign-in is the setup project's; none of these signs out).
test.use({ signedInAs: 'seed admin' });

let subject: { id: string; email: string };
test.beforeAll(async () => {
  subject = await createUser('viewer');
  const now = Date.now();
  const at = (n: number) => new Date(now - n * 1000).toISOString();
  const activities = Array.from({ length: 105 }, (_, n) => ({
    user_id: subject.id,
    organization_id: SCALE_PRO_ID,
    action: 'audit_page_e2e',
    // A cell a spreadsheet would run as a formula unless the export defuses it.
    resource_type: n === 0 ? '=HYPERLINK("http://evil.example","x")' : 'e2e',
    created_at: at(n),
  }));
  const logins = Array.from({ length: 55 }, (_, n) => ({ email: subject.email, success: n % 5 !== 0, failure_reason: n % 5 === 0 ? 'invalid_credentials' : null, created_at: at(n) }));
  const inserted = await Promise.all([service.from('user_activity_logs').insert(activities), service.from('login_attempts').insert(logins)]);
  for (const { error } of inserted) if (error) throw new Error(`preparing the audit rows failed: ${error.message}`);
});
test.afterAll(async () => {
  await removeUser(subject.email);
});

test('Load more shows activities beyond 100 and login attempts beyond 50', async ({ page }) => {
  await openDashboard(page);
  await page.goto('/admin?tab=security');
  const activities = page.getByTestId('audit-activity');
  const logins = page.getByTestId('audit-login');
  await expect(activities).toHaveCount(100);
  // The seed admin's own attempts (the setup's sign-in at least) come after the 55 newest.
  await expect(logins).toHaveCount(50);

  await page.getByRole('button', { name: 'Load more activities' }).click();
  await expect.poll(() => activities.count()).toBeGreaterThan(100);
  await expect(activities.filter({ hasText: 'audit_page_e2e' })).toHaveCount(105);

  await page.getByRole('button', { name: 'Load more login attempts' }).click();
  await expect.poll(() => logins.count()).toBeGreaterThan(55);
  await expect(logins.filter({ hasText: subject.email })).toHaveCount(55);
});

test('Export CSV downloads every entry as audit-log-{date}.csv with formula-safe cells; the cards count the whole log', async ({ page }) => {
  const total = async () => (await service.from('user_activity_logs').select('id', { count: 'exact', head: true }).eq('organization_id', SCALE_PRO_ID)).count!;
  // The other lane adds and removes entries meanwhile (its users and their traces): each figure must lie between
  // the database's counts just before it was fetched and just after it was read; when the other lane moved the
  // count both ways in between, the figure is fetched again.
  const between = async (fetchAndRead: () => Promise<number>) => {
    let value = 0;
    await expect(async () => {
      const before = await total();
      value = await fetchAndRead();
      const after = await total();
      expect(value).toBeGreaterThanOrEqual(Math.min(before, after));
      expect(value).toBeLessThanOrEqual(Math.max(before, after));
    }).toPass({ timeout: 30_000 });
    return value;
  };
  await openDashboard(page);
  // The card counts the whole log, not the 100 entries on screen.
  const cardValue = page.getByText('Total Activities', { exact: true }).locator('..').locator('p').last();
  const card = await between(async () => {
    await page.goto('/admin?tab=security');
    await expect(page.getByTestId('audit-activity').first()).toBeVisible();
    await expect(cardValue).toHaveText(/^\d{1,3}(,\d{3})*$/);
    return Number((await cardValue.textContent())!.replace(/,/g, ''));
  });
  expect(card).toBeGreaterThan(100);
  let lines: string[] = [];
  const exported = await between(async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`audit-log-${new Date().toISOString().slice(0, 10)}.csv`);
    lines = (await readFile(await download.path(), 'utf8')).split('\r\n');
    return lines.filter((line) => line.startsWith('"activity",')).length;
  });
  expect(lines[0]).toBe('"type","created_at","email","action_or_result","resource_type","resource_id","failure_reason","ip_address","summary","user_id","details"');
  const dangerous = lines.find((line) => line.includes('HYPERLINK'));
  expect(dangerous).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  expect(lines.some((line) => line.startsWith('"login",') && line.includes(`"${subject.email}","failed","","","invalid_credentials"`))).toBe(true);
  expect(lines.some((line) => line.includes(`"Sign-in failed for ${subject.email} (invalid credentials)"`))).toBe(true);
  expect(lines.some((line) => line.includes('"audit_page_e2e"') && line.includes(`did something: audit_page_e2e","${subject.id}","{}"`))).toBe(true);
  // Every entry, not only the 100 loaded.
  expect(exported).toBeGreaterThan(100);
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Export Complete');
  await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('The whole audit log has been downloaded');
});
