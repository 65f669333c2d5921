/**
 * The Media Library end to end: an editor uploads two images with the file chooser, sees them in the grid
 * with their dimensions, describes one, and chooses it as a new post's featured image from the editor; a
 * viewer sees the library without upload, alt text or delete controls. Everything made here is removed.
 */
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { createUser, PASSWORD, removeUser, SCALE_PRO_ID, service } from './support/backend';

const marker = `e2e-media-${crypto.randomUUID().slice(0, 8)}`;
const created: string[] = [];

/** A real PNG of the given size, unique to this run (so the library does not reuse an earlier file). */
async function png(width: number, height: number, shade: number): Promise<Buffer> {
  const salt = Number.parseInt(marker.slice(-4), 16) % 200;
  return sharp({ create: { width, height, channels: 3, background: { r: shade, g: salt, b: 120 } } }).png().toBuffer();
}

test.afterAll(async () => {
  const { data: media } = await service.from('media').select('id, storage_path').eq('organization_id', SCALE_PRO_ID).like('file_name', `${marker}%`);
  await service.from('blog_posts').delete().like('slug', `${marker}%`);
  await service.from('media').delete().in('id', (media ?? []).map((m) => m.id));
  if (media?.length) await service.storage.from('media').remove(media.map((m) => m.storage_path));
  await service.from('user_activity_logs').delete().like('details::text', `%${marker}%`);
  for (const email of created) await removeUser(email);
});

async function signInAt(page: Page, path: string, role: 'editor' | 'viewer') {
  const user = await createUser(role);
  created.push(user.email);
  await page.goto(path);
  await expect(page).toHaveURL(/\/auth\?next=/);
  await page.getByRole('main').getByLabel('Email').fill(user.email);
  await page.getByRole('main').getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`${path}$`));
}

const toastWith = (page: Page, text: string) => page.getByRole('status').or(page.getByRole('alert')).filter({ hasText: text });

test('an editor uploads two images, describes one and makes it a post\'s featured image', async ({ page }) => {
  await signInAt(page, '/admin/media', 'editor');
  await expect(page.getByText('JPEG, PNG, WebP, AVIF or GIF, up to 5 MB each')).toBeVisible();

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: /Upload images/ }).click();
  await (await chooser).setFiles([
    { name: `${marker}-wide.png`, mimeType: 'image/png', buffer: await png(64, 40, 30) },
    { name: `${marker}-tall.png`, mimeType: 'image/png', buffer: await png(30, 50, 200) },
  ]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await expect(uploads.getByText('Uploaded')).toHaveCount(2);

  const images = page.getByRole('list', { name: 'Images' });
  const wide = images.getByRole('button', { name: new RegExp(`${marker}-wide\\.png`) });
  await expect(wide).toContainText('64 × 40');
  await expect(images.getByRole('button', { name: new RegExp(`${marker}-tall\\.png`) })).toContainText('30 × 50');

  await wide.click();
  const details = page.getByRole('complementary', { name: 'Image details' });
  await details.getByLabel('Alt text').fill(`${marker} a wide teal banner`);
  await details.getByLabel('Caption').fill('The banner of the spring campaign');
  await details.getByRole('button', { name: 'Save details' }).click();
  await expect(toastWith(page, 'Details saved')).toBeVisible();

  await page.goto('/admin/blog/new');
  await page.getByLabel('Title *').fill(`${marker} post`);
  await page.getByLabel('Content *').fill('A post with a featured image.');
  const featured = page.getByTestId('featured-image');
  await featured.getByRole('button', { name: 'Choose from library' }).click();
  const picker = page.getByRole('dialog', { name: 'Media Library' });
  const wideInPicker = picker.getByRole('button', { name: new RegExp(`${marker}-wide\\.png`) });
  await expect(picker.getByRole('button', { name: 'Use this image' })).toBeDisabled();
  await wideInPicker.click();
  await expect(wideInPicker).toHaveAttribute('aria-pressed', 'true');
  await expect(wideInPicker.getByTestId('selected-mark')).toBeVisible();
  await expect(picker).toContainText(`Selected: ${marker}-wide.png`);
  await picker.getByRole('button', { name: 'Use this image' }).click();
  await expect(picker).toBeHidden();
  await expect(featured).toContainText(`${marker} a wide teal banner`);

  // The same image in the text, where the caret is: with its alt text and size, shown by the preview.
  const content = page.getByLabel('Content *');
  await content.focus();
  await content.press('End');
  await page.getByRole('button', { name: 'Insert image from library' }).click();
  await picker.getByRole('button', { name: new RegExp(`${marker}-wide\\.png`) }).click();
  await picker.getByRole('button', { name: 'Use this image' }).click();
  await expect(content).toHaveValue(new RegExp(`^A post with a featured image\\.\\n\\n<img src="[^"]+" alt="${marker} a wide teal banner" width="64" height="40" loading="lazy">\\n$`));
  await expect(page.getByRole('region', { name: 'Preview' }).getByRole('img', { name: `${marker} a wide teal banner` }).last()).toHaveAttribute('width', '64');
  await page.getByRole('button', { name: 'Save Draft' }).click();
  await expect(page).toHaveURL(/\/admin\/blog\/edit\/[0-9a-f-]{36}$/);
  await expect(featured).toContainText(`${marker} a wide teal banner`);

  const { data: post } = await service.from('blog_posts').select('featured_media_id, featured_image_url, media:media!blog_posts_featured_media_fkey(file_name, alt_text)').eq('slug', `${marker}-post`).single();
  expect(post).toMatchObject({ featured_image_url: null, media: { file_name: `${marker}-wide.png`, alt_text: `${marker} a wide teal banner` } });
});

test('a viewer sees the library without upload, alt text or delete controls', async ({ page }) => {
  await signInAt(page, '/admin/media', 'viewer');
  await expect(page.getByRole('heading', { name: 'Media Library', level: 2 })).toBeVisible();
  await expect(page.getByRole('button', { name: /Upload images/ })).toHaveCount(0);
  await expect(page.getByLabel('Choose images to upload')).toHaveCount(0);
  const first = page.getByRole('list', { name: 'Images' }).getByRole('button').first();
  await first.click();
  const details = page.getByRole('complementary', { name: 'Image details' });
  await expect(details.getByLabel('Alt text')).toHaveAttribute('readonly', '');
  await expect(details.getByRole('button', { name: /Save details|Delete image/ })).toHaveCount(0);
});
