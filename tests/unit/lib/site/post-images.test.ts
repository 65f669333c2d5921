/**
 * post-images.ts, the build's processing of remote pictures: whatever goes wrong with a URL (not http(s), no
 * answer, an error status, bytes that are not an image, an address the build may not download, a host outside
 * image.remotePatterns), the answer is null, so the page shows the placeholder or the initials and the build
 * goes on. The success path is the built
 * site's (tests/e2e/site-images.spec.ts and the post pages).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cardWithPicture, processRemotePicture, socialImage } from '../../../../src/lib/site/post-images';
import { PLACEHOLDER_IMAGE } from '../../../../src/lib/post-display';
import type { BlogPost } from '../../../../src/lib/site/blog-model';

let server: Server;
let base = '';

beforeAll(async () => {
  const jpeg = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#4f46e5' } }).jpeg().toBuffer();
  server = createServer((request, response) => {
    const path = new URL(request.url!, 'http://test').pathname;
    if (path.endsWith('/photo.jpg')) return void response.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    if (path.endsWith('/not-an-image.jpg')) return void response.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>nope</html>');
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('processRemotePicture', () => {
  // The build's own Storage is this test server (a loopback address, downloaded directly); anything else goes
  // through the saved-address rule and the public-only guard.
  const own = (path: string) => `${base}/storage/v1/object/public/media/10000000-0000-4000-8000-000000000001${path}`;
  beforeAll(() => vi.stubEnv('PUBLIC_SUPABASE_URL', base));
  afterAll(() => vi.unstubAllEnvs());

  it.each([
    ['no URL', () => null],
    ['a local path', () => '/images/blog-placeholder.svg'],
    ['a 404', () => own('/missing.jpg')],
    ['bytes that are not an image', () => own('/not-an-image.jpg')],
    ['a host that does not answer', () => 'https://127.0.0.1:9/photo.jpg'],
    // A real image, but on a host outside image.remotePatterns: Astro would hand the URL back unprocessed.
    ['a host the build may not download from', () => own('/photo.jpg')],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/iam'],
    ['a loopback address over https', () => 'https://127.0.0.1/photo.jpg'],
    ['a local name', () => 'https://intranet.internal/photo.jpg'],
    ['an internal host that only looks like Storage', () => 'http://10.0.0.5/storage/v1/object/public/media/10000000-0000-4000-8000-000000000001/a.jpg'],
  ])('gives null for %s', async (_case, url) => {
    expect(await processRemotePicture(url())).toBeNull();
    expect(await socialImage(url())).toBeNull();
  });

  it.each([
    ['/missing.jpg?log', 'HTTP 404'],
    ['/photo.jpg?log', 'its host is not in image.remotePatterns'],
  ])('says why %s is not shown in the build log', async (path, reason) => {
    await processRemotePicture(own(path));
    expect(console.warn).toHaveBeenCalledWith(`[post-images] ${own(path)} is shown as a placeholder: ${reason}`);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/?log', 'An image address must start with https:// (or be a file of the Media Library)'],
    ['https://10.0.0.5/a.jpg?log', 'An image address must name a public host, not an IP address'],
    ['https://localhost/a.jpg?log', 'An image address must name a public host'],
  ])('refuses %s before any connection, and says why', async (url, reason) => {
    await processRemotePicture(url);
    expect(console.warn).toHaveBeenCalledWith(`[post-images] ${url} is shown as a placeholder: ${reason}`);
  });
});

describe('cardWithPicture', () => {
  it('shows the placeholder, and names no remote URL, when the featured image cannot be processed', async () => {
    const post = {
      id: 'p1', slug: 'a', title: 'A', excerpt: '', lede: null, html: '', categoryId: null, category: null, categoryName: 'Uncategorized',
      author: { kind: 'person', name: 'Ann Lee', title: null, bio: null, avatarUrl: null, website: null }, tags: [],
      image: `${base}/missing.jpg`, hasFeaturedImage: true, featuredImage: { url: `${base}/missing.jpg`, alt: '', width: null, height: null },
      readTime: 1, date: '2026-01-01T00:00:00.000Z', timeZone: 'America/New_York', updatedAt: '2026-01-01T00:00:00.000Z', metaTitle: 'A', metaDescription: '', sticky: false,
    } satisfies BlogPost;
    expect(await cardWithPicture(post)).toMatchObject({ image: PLACEHOLDER_IMAGE, hasFeaturedImage: false, picture: null });
  });
});
