import { serviceClient } from '../../src/lib/server/service-client';
import { expect, test, waitForIslands } from './fixtures';

/** The backend the served functions use (SUPABASE_URL when it runs on other ports). */
const db = serviceClient();

test('the footer newsletter subscribes once, says so, and rejects a bad address', async ({ page }) => {
  const email = `e2e.${Date.now()}@example.com`;
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
  await expect(status).toHaveText('Thanks for subscribing!');
  const { data, error } = await db.from('newsletter_subscribers').select('email, organizations!inner(slug)').eq('email', email);
  expect(error).toBeNull();
  expect(data).toEqual([{ email, organizations: { slug: 'scale-pro' } }]);

  await input.fill(email);
  await form.getByRole('button', { name: 'Subscribe' }).click();
  await expect(status).toHaveText("You're already subscribed.");
  const again = await db.from('newsletter_subscribers').select('id').eq('email', email);
  expect(again.data).toHaveLength(1);

  await db.from('newsletter_subscribers').delete().eq('email', email);
});
