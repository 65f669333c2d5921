/**
 * The site's own pictures: `/` loads images only from the site itself (and the local backend), the
 * hero is an AVIF/WebP `<picture>` loaded eagerly with high priority, sized so nothing shifts, and preloaded
 * from the head; an author without a photo shows initials, never a broken image.
 */
import { expect, test } from './fixtures';

/** The hosts a page may load images from: the site and the Supabase API the build read (Storage). */
function ownHosts(baseURL: string): Set<string> {
  return new Set([new URL(baseURL).host, new URL(process.env.PUBLIC_SUPABASE_URL ?? 'http://127.0.0.1:54321').host]);
}

for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
  test(`/ requests images only from its own hosts at ${viewport.width}x${viewport.height}`, async ({ page, baseURL }) => {
    await page.setViewportSize(viewport);
    const images: string[] = [];
    page.on('request', (request) => request.resourceType() === 'image' && images.push(request.url()));
    await page.goto('/');
    // Every lazy picture too: scroll the whole page.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
        window.scrollTo(0, y);
        await new Promise((done) => setTimeout(done, 50));
      }
    });
    await page.waitForLoadState('networkidle');
    const own = ownHosts(baseURL!);
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((url) => !url.startsWith('data:') && !own.has(new URL(url).host))).toEqual([]);
  });
}

test('the hero is an eager, high-priority AVIF/WebP picture with its size, preloaded from the head', async ({ page }) => {
  await page.goto('/');
  const hero = page.locator('picture > img[alt="Marketing dashboard with growth charts on a laptop"]');
  await expect(hero).toHaveAttribute('loading', 'eager');
  await expect(hero).toHaveAttribute('fetchpriority', 'high');
  await expect(hero).toHaveAttribute('width', /^\d+$/);
  await expect(hero).toHaveAttribute('height', /^\d+$/);
  await expect(hero).toHaveAttribute('srcset', / 400w, .* 1600w$/);
  const sources = hero.locator('xpath=../source');
  await expect(sources).toHaveCount(2);
  await expect(sources.nth(0)).toHaveAttribute('type', 'image/avif');
  await expect(sources.nth(1)).toHaveAttribute('type', 'image/webp');
  await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  // The browser took the AVIF source, which the preload fetched: one request, not two. A build with a deploy id
  // (Netlify's, and netlify-cli's first build under `npm run serve`) pins it to its deploy (`?dpl=<id>`); the
  // local build hook's rebuilds have none.
  expect(await hero.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\.avif(\?dpl=[\w-]+)?$/);

  const preload = page.locator('head link[rel="preload"][as="image"]');
  await expect(preload).toHaveAttribute('type', 'image/avif');
  await expect(preload).toHaveAttribute('fetchpriority', 'high');
  expect(await preload.getAttribute('imagesrcset')).toBe(await sources.nth(0).getAttribute('srcset'));
  expect(await preload.getAttribute('imagesizes')).toBe(await sources.nth(0).getAttribute('sizes'));
});

test('the about preview is a lazy picture of ours', async ({ page }) => {
  await page.goto('/');
  const team = page.locator('picture > img[alt="Our team planning a campaign around a table"]');
  await expect(team).toHaveAttribute('loading', 'lazy');
  await team.scrollIntoViewIfNeeded();
  await expect.poll(() => team.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
});

test('an author whose photo could not be fetched shows initials, not a broken image', async ({ page }) => {
  // The seed's author photos are on an external host, which this machine (no network) cannot reach at build:
  // the build logs it and the card shows the initials.
  await page.goto('/blog/core-web-vitals-explained');
  const avatar = page.locator('[data-author-avatar]');
  await expect(avatar.locator('[data-initials]')).toHaveText('AM');
  await expect(avatar.locator('[data-initials]')).toBeVisible();
  await expect(avatar.locator('img')).toHaveCount(0);
});
