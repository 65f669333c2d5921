/**
 * post-images.ts, the build's processing of remote pictures: whatever goes wrong with a URL (not http(s), no
 * answer, an error status, bytes that are not an image, a host the build may not download from), the answer is
 * null, so the page shows the placeholder or the initials and the build goes on. The success path is the built
 * site's (tests/e2e/site-images.spec.ts and the post pages).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cardWithPicture, processRemotePicture, socialImage } from '../../../src/lib/post-images';
import { PLACEHOLDER_IMAGE } from '../../../src/lib/post-display';
import type { BlogPost } from '../../../src/lib/posts';

let server: Server;
let base = '';

beforeAll(async () => {
  const jpeg = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#4f46e5' } }).jpeg().toBuffer();
  server = createServer((request, response) => {
    const path = new URL(request.url!, 'http://test').pathname;
    if (path === '/photo.jpg') return void response.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    if (path === '/not-an-image.jpg') return void response.writeHead(200, { 'content-type': 'image/jpeg' }).end('<html>nope</html>');
    response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('processRemotePicture', () => {
  it.each([
    ['no URL', () => null],
    ['a local path', () => '/images/blog-placeholder.svg'],
    ['a 404', () => `${base}/missing.jpg`],
    ['bytes that are not an image', () => `${base}/not-an-image.jpg`],
    ['a host that does not answer', () => 'http://127.0.0.1:9/photo.jpg'],
    // A real image, but on a host outside image.remotePatterns: Astro would hand the URL back unprocessed.
    ['a host the build may not download from', () => `${base}/photo.jpg`],
  ])('gives null for %s', async (_case, url) => {
    expect(await processRemotePicture(url())).toBeNull();
    expect(await socialImage(url())).toBeNull();
  });

  it.each([
    ['/missing.jpg?log', 'HTTP 404'],
    ['/photo.jpg?log', 'its host is not in image.remotePatterns'],
  ])('says why %s is not shown in the build log', async (path, reason) => {
    await processRemotePicture(base + path);
    expect(console.warn).toHaveBeenCalledWith(`[post-images] ${base}${path} is shown as a placeholder: ${reason}`);
  });
});

describe('cardWithPicture', () => {
  it('shows the placeholder, and names no remote URL, when the featured image cannot be processed', async () => {
    const post = {
      id: 'p1', slug: 'a', title: 'A', excerpt: '', html: '', categoryId: null, category: null, categoryName: 'Uncategorized',
      author: { name: 'Ann Lee', title: null, bio: null, avatarUrl: null, website: null }, tags: [],
      image: `${base}/missing.jpg`, hasFeaturedImage: true, featuredImage: { url: `${base}/missing.jpg`, alt: '', width: null, height: null },
      readTime: 1, date: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', metaTitle: 'A', metaDescription: '',
    } satisfies BlogPost;
    expect(await cardWithPicture(post)).toMatchObject({ image: PLACEHOLDER_IMAGE, hasFeaturedImage: false, picture: null });
  });
});
