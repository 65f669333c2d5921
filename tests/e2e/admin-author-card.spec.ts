/**
 * An editor's own author card, end to end: the back office's Profile page (every member has one), a photo
 * chosen from the Media Library, saved under row-level security; without a photo the card shows initials.
 */
import { expect, test } from './fixtures';
import { signInAt } from './support/sign-in';
import { createUser, removeUser, service } from './support/backend';

let email = '';
test.afterAll(async () => {
  if (email) await removeUser(email);
});

test('an editor sets their author card with a photo from the Media Library', async ({ page }) => {
  const editor = await createUser('editor');
  email = editor.email;
  await signInAt(page, '/admin/profile', editor.email);
  await expect(page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');

  const photo = page.getByTestId('author-photo');
  await expect(photo).toContainText('EE');
  await page.getByLabel('Title').fill('Content Strategist');
  await photo.getByRole('button', { name: 'Choose photo' }).click();
  const picker = page.getByRole('dialog', { name: 'Media Library' });
  await picker.getByRole('button', { name: /seo-strategies\.jpg/ }).click();
  await picker.getByRole('button', { name: 'Use this image' }).click();
  await expect(picker).toBeHidden();
  await expect(photo.getByRole('img', { name: 'Your author photo' })).toHaveAttribute('src', /\/storage\/v1\/object\/public\/media\/.+\/seo-strategies\.jpg$/);
  await page.getByRole('button', { name: 'Save Author Card' }).click();
  await expect(page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: 'Author Card Saved' })).toBeVisible();

  const { data } = await service.from('profiles').select('author_title, avatar_url').eq('id', editor.id).single();
  expect(data?.author_title).toBe('Content Strategist');
  expect(data?.avatar_url).toMatch(/\/storage\/v1\/object\/public\/media\/.+\/seo-strategies\.jpg$/);
});

test("a viewer's Profile offers no author card and no application passwords (viewers publish nothing), only the password", async ({ page }) => {
  const viewer = await createUser('viewer');
  try {
    await signInAt(page, '/admin/profile', viewer.email);
    await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
    await expect(page.getByText('Author Card')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Application Passwords' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Save Author Card' })).toHaveCount(0);
  } finally {
    await removeUser(viewer.email);
  }
});
