import { readFile } from 'node:fs/promises';
import { expect, test, waitForIslands } from './fixtures';
import { latestMail, service } from './support/backend';
import { signInAsAdmin } from './support/sign-in';

const CHECK_INBOX = 'Almost done: we sent a link to that address. Open it to confirm your subscription.';

test('a reader signs up in the footer, confirms from the mail, and the admin sees and exports the address', async ({ page, browser, baseURL }) => {
  test.setTimeout(120_000);
  const email = `e2e.${Date.now()}@example.com`;
  try {
    await page.goto('/privacy');
    const form = page.getByRole('form', { name: 'Newsletter' });
    await form.scrollIntoViewIfNeeded();
    await waitForIslands(page);
    const input = form.getByPlaceholder('Your email address');
    const status = form.locator('[aria-live="polite"]');

    await input.fill('not-an-email');
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(status).toHaveText('Please enter a valid email address.');

    await input.fill(email.toUpperCase());
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(status).toHaveText(CHECK_INBOX);
    // The same answer again: the form tells nobody whether an address is on the list.
    await input.fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await expect(status).toHaveText(CHECK_INBOX);
    const { data: pending } = await service.from('newsletter_subscribers').select('email, confirmed_at').eq('email', email);
    expect(pending).toEqual([{ email, confirmed_at: null }]);

    const mail = await latestMail(email);
    expect(mail?.subject).toBe('Confirm your subscription to the Scale Pro Marketing newsletter');
    const confirm = /https?:\/\/\S+\/api\/newsletter\/confirm\?token=[\w-]+/.exec(mail!.text)![0];
    await page.goto(new URL(new URL(confirm).pathname + new URL(confirm).search, baseURL).href);
    await expect(page.getByRole('heading', { name: 'Confirm your subscription' })).toBeVisible();
    await page.getByRole('button', { name: 'Confirm subscription' }).click();
    await expect(page).toHaveURL(/\/newsletter\/confirmed$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are subscribed');

    const admin = await (await browser.newContext({ acceptDownloads: true })).newPage();
    await signInAsAdmin(admin);
    await admin.getByRole('link', { name: 'Newsletter' }).click();
    await expect(admin).toHaveURL(/\/admin\/newsletter$/);
    const row = admin.getByTestId('newsletter-row').filter({ hasText: email });
    await expect(row).toContainText('Subscribed');
    await admin.getByRole('combobox', { name: 'Show' }).selectOption('subscribed');
    const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: /^Export CSV/ }).click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('"email","state","signed_up_at","confirmed_at","unsubscribed_at"');
    expect(csv).toContain(`"${email}","subscribed"`);
    // On a phone each address is a card: nothing scrolls sideways, Remove is on the screen, the address on one line.
    await admin.setViewportSize({ width: 375, height: 800 });
    await expect.poll(() => admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const remove = row.getByRole('button', { name: `Remove ${email}` });
    const box = (await remove.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    const address = row.getByText(email);
    expect((await address.boundingBox())!.height).toBeLessThan(30);
    await admin.context().close();
  } finally {
    await service.from('newsletter_subscribers').delete().eq('email', email);
  }
});
