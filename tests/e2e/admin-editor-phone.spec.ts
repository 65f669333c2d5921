/**
 * The post editor on a phone (390 × 844): the actions (Cancel, Save Draft, Publish) are on screen without
 * scrolling through the form, wherever the page is scrolled, and nothing of the form hides under them at
 * its end; in the Media picker a tapped thumbnail is marked selected and "Use this image" is on screen
 * without scrolling past the grid; a save's toast shows above the bar. Positions are asserted with bounding
 * boxes. The editor and the post used are removed afterwards.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createUser, removeUser, service } from './support/backend';
import { submitSignIn } from './support/sign-in';

const PHONE = { width: 390, height: 844 };
const created: string[] = [];

test.afterAll(async () => {
  for (const email of created) await removeUser(email);
});

async function signInAsEditor(page: Page) {
  await page.setViewportSize(PHONE);
  const user = await createUser('editor');
  created.push(user.email);
  await submitSignIn(page, user.email);
  await expect(page).toHaveURL(/\/admin(\/|$)/);
}

/** Fails unless the element lies wholly within the viewport as it is scrolled now. */
async function expectOnScreen(element: Locator) {
  await expect(element).toBeVisible();
  const box = (await element.boundingBox())!;
  expect(box.y, 'top edge on screen').toBeGreaterThanOrEqual(0);
  expect(box.y + box.height, 'bottom edge on screen').toBeLessThanOrEqual(PHONE.height);
  expect(box.x, 'left edge on screen').toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, 'right edge on screen').toBeLessThanOrEqual(PHONE.width);
}

test('the editor\'s actions stay on screen while the form scrolls, and cover none of it', async ({ page }) => {
  await signInAsEditor(page);
  await page.goto('/admin/blog/new');
  await expect(page.getByRole('heading', { name: 'Create New Post' })).toBeVisible();
  const actions = page.getByRole('group', { name: 'Post actions' });
  const buttons = [actions.getByRole('button', { name: 'Cancel' }), actions.getByRole('button', { name: 'Save Draft' }), actions.getByRole('button', { name: 'Publish', exact: true })];
  // The form is much taller than the screen: the point is that the actions do not scroll away with it.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeGreaterThan(PHONE.height * 2);

  for (const where of ['top', 'the content field', 'the SEO settings', 'the end'] as const) {
    if (where === 'the content field') await page.getByLabel('Content *').scrollIntoViewIfNeeded();
    if (where === 'the SEO settings') await page.getByLabel('Meta Description').scrollIntoViewIfNeeded();
    if (where === 'the end') await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    for (const button of buttons) await test.step(`${await button.textContent()} at ${where}`, () => expectOnScreen(button));
  }
  // At the end of the page the last of the form (the preview) ends above the bar, not under it.
  const bar = (await actions.boundingBox())!;
  const preview = (await page.getByRole('region', { name: 'Preview' }).boundingBox())!;
  expect(preview.y + preview.height).toBeLessThanOrEqual(bar.y);

  // A save's toast shows above the bar, not over the buttons.
  await page.getByLabel('Title *').fill(`e2e-phone-${crypto.randomUUID().slice(0, 8)} with a title far longer than one line of a phone`);
  await page.getByLabel('Content *').fill('Written on a phone.');
  await buttons[1]!.click();
  const toast = page.getByRole('status', { name: 'Notifications' }).getByText('Post saved successfully!');
  await expect(toast).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/blog\/edit\/([0-9a-f-]{36})$/);
  const saved = (await page.getByRole('status', { name: 'Notifications' }).boundingBox())!;
  expect(saved.y + saved.height).toBeLessThanOrEqual((await actions.boundingBox())!.y);
  // A second save lists two revisions (with Preview and Restore): the page still fits the phone's width.
  await page.getByLabel('Content *').fill('Written on a phone, then changed.');
  await buttons[1]!.click();
  await expect(page.getByRole('region', { name: 'Revision history' }).getByRole('listitem')).toHaveCount(2);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const id = page.url().split('/').pop()!;
  await service.from('blog_posts').delete().eq('id', id);
});

test('in the Media picker a tapped thumbnail is marked selected and Use this image is on screen', async ({ page }) => {
  await signInAsEditor(page);
  await page.goto('/admin/blog/new');
  await page.getByTestId('featured-image').getByRole('button', { name: 'Choose from library' }).click();
  const picker = page.getByRole('dialog', { name: 'Media Library' });
  const use = picker.getByRole('button', { name: 'Use this image' });
  await expectOnScreen(use);
  await expect(use).toBeDisabled();

  // The seed's covers are in the library; the second thumbnail is below the first, further down the grid.
  const thumbnail = picker.getByRole('list', { name: 'Images' }).getByRole('button').nth(1);
  await thumbnail.scrollIntoViewIfNeeded();
  await thumbnail.click();
  await expect(thumbnail).toHaveAttribute('aria-pressed', 'true');
  await expect(thumbnail.getByTestId('selected-mark')).toBeVisible();
  await expect(picker.getByRole('list', { name: 'Images' }).getByRole('button', { pressed: true })).toHaveCount(1);
  const name = (await thumbnail.locator('span.truncate').textContent())!;
  await expect(picker).toContainText(`Selected: ${name}`);
  await expectOnScreen(use);
  await expect(use).toBeEnabled();

  await use.click();
  await expect(picker).toBeHidden();
  await expect(page.getByTestId('featured-image').getByRole('img')).toBeVisible();
});
