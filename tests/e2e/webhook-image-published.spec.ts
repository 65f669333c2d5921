/**
 * The writing tool's generated image, end to end on the served site: a delivery with `image_base64` through
 * the real webhook route stores the image in the Media Library; the local build (the flush the scheduler
 * runs) makes the post page, which serves the picture from the site itself as AVIF and WebP variants, with
 * the library's alt text, in the page and in its link preview.
 */
import sharp from 'sharp';
import { expect, test } from './fixtures';
import { SCALE_PRO_ID, service } from './support/backend';
import { rebuildPublicSite } from './support/rebuild';

const slug = `e2e-webhook-image-${Date.now().toString(36)}`;

test.afterAll(async () => {
  const { data: post } = await service.from('blog_posts').select('id, featured_media_id').eq('organization_id', SCALE_PRO_ID).eq('slug', slug).maybeSingle();
  await service.from('webhook_deliveries').delete().eq('slug', slug);
  if (post) await service.from('blog_posts').delete().eq('id', post.id);
  if (post?.featured_media_id) {
    const { data: media } = await service.from('media').select('storage_path').eq('id', post.featured_media_id).single();
    await service.from('media').delete().eq('id', post.featured_media_id);
    if (media) await service.storage.from('media').remove([media.storage_path]);
  }
});

test('a delivery with image_base64 ends with the image on the built post page, as AVIF and WebP from the site', async ({ page, request }) => {
  test.setTimeout(240_000);
  // A 1200×675 image unique to this run (its SHA-256 is new, so the delivery stores it).
  const png = await sharp({ create: { width: 1200, height: 675, channels: 3, background: { r: 40, g: Date.now() % 250, b: 160 } } }).png().toBuffer();
  const delivered = await request.post('/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
    data: {
      webhook_name: 'blog_post_created',
      title: `Webhook image ${slug}`,
      html: '<p>An article whose cover the writing tool generated.</p>',
      slug,
      image_base64: `data:image/png;base64,${png.toString('base64')}`,
      image_url: false,
    },
  });
  expect(delivered.status()).toBe(201);
  const { data: post } = await service.from('blog_posts').select('featured_media_id').eq('organization_id', SCALE_PRO_ID).eq('slug', slug).single();
  expect(post?.featured_media_id).toBeTruthy();
  await service.from('media').update({ alt_text: 'A generated cover in blue and violet' }).eq('id', post!.featured_media_id);

  await rebuildPublicSite(SCALE_PRO_ID);
  await page.goto(`/blog/${slug}`);
  const picture = page.locator('article picture').first();
  await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute('srcset', /\/_astro\/[^ ]+\.avif \d+w/);
  await expect(picture.locator('source[type="image/webp"]')).toHaveAttribute('srcset', /\/_astro\/[^ ]+\.webp \d+w/);
  const img = picture.locator('img');
  await expect(img).toHaveAttribute('alt', 'A generated cover in blue and violet');
  await expect(img).toHaveAttribute('width', '1200');
  await expect(img).toHaveAttribute('height', '675');
  // The browser chose a variant from the site itself and drew it.
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  expect(new URL(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).origin).toBe(new URL(page.url()).origin);
  // Nothing on the page names the storage address: the picture is the build's own file.
  expect(await page.content()).not.toContain('/storage/v1/object/public/media/');
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /\/_astro\/[^"]+\.jpg$/);
  await expect(page.locator('meta[property="og:image:alt"]')).toHaveAttribute('content', 'A generated cover in blue and violet');
});
