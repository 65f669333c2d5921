import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_MAX_BYTES } from '../../../../src/lib/image-file';
import { decodeImageBase64, fetchImage, ImageProblem, mediaFileName } from '../../../../src/lib/server/webhook-images';

const png = new Uint8Array(await sharp({ create: { width: 8, height: 6, channels: 3, background: '#123456' } }).png().toBuffer());
const base64 = Buffer.from(png).toString('base64');

describe('decodeImageBase64', () => {
  it('takes plain base64 and data URLs', () => {
    expect(decodeImageBase64(base64)).toEqual(png);
    expect(decodeImageBase64(`data:image/png;base64,${base64}`)).toEqual(png);
    expect(decodeImageBase64(`  ${base64.slice(0, 20)}\n${base64.slice(20)}  `)).toEqual(png);
  });
  it.each([
    ['text that is not base64', 'not base64 at all!', 'it is not base64'],
    ['base64 of something else', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>').toString('base64'), 'it is not an image (JPEG, PNG, WebP, AVIF or GIF)'],
    ['an empty data URL', 'data:image/png;base64,', 'it is not base64'],
    ['more than the limit', Buffer.alloc(MEDIA_MAX_BYTES + 10).toString('base64'), 'it is larger than 5 MB'],
  ])('refuses %s', (_, value, message) => {
    expect(() => decodeImageBase64(value)).toThrow(new ImageProblem(message));
  });
});

describe('fetchImage', () => {
  let server: Server;
  let origin: string;
  const loopbackAllowed = { isAllowedAddress: (address: string) => address === '127.0.0.1' };
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/cover.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (req.url === '/page.html') return void res.writeHead(200, { 'content-type': 'image/png' }).end('<html></html>');
      if (req.url === '/moved') return void res.writeHead(302, { location: '/cover.png' }).end();
      if (req.url === '/to-metadata') return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
      if (req.url === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
      if (req.url === '/huge') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(png);
        return void res.end(Buffer.alloc(MEDIA_MAX_BYTES));
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('refuses loopback, private and metadata hosts by default, by name or by address', async () => {
    await expect(fetchImage(`${origin}/cover.png`)).rejects.toThrow('127.0.0.1 is not a public host');
    await expect(fetchImage(`http://localhost:${new URL(origin).port}/cover.png`)).rejects.toThrow('localhost is not a public host');
    await expect(fetchImage('http://169.254.169.254/latest/meta-data')).rejects.toThrow('169.254.169.254 is not a public host');
    await expect(fetchImage('http://[::1]/x.png')).rejects.toThrow('::1 is not a public host');
  });

  it('refuses other schemes and credentials', async () => {
    await expect(fetchImage('ftp://example.com/a.png')).rejects.toThrow('only http and https addresses are fetched');
    await expect(fetchImage('http://user:pw@example.com/a.png')).rejects.toThrow('addresses with credentials are not fetched');
  });

  it('fetches an image from an allowed host, following a redirect', async () => {
    expect(await fetchImage(`${origin}/cover.png`, loopbackAllowed)).toEqual(png);
    expect(await fetchImage(`${origin}/moved`, loopbackAllowed)).toEqual(png);
  });

  it('checks every redirect target and stops redirect loops', async () => {
    await expect(fetchImage(`${origin}/to-metadata`, loopbackAllowed)).rejects.toThrow('169.254.169.254 is not a public host');
    await expect(fetchImage(`${origin}/loop`, loopbackAllowed)).rejects.toThrow('more than 3 redirects');
  });

  it('judges the content, not the declared type, and stops at the size limit', async () => {
    await expect(fetchImage(`${origin}/page.html`, loopbackAllowed)).rejects.toThrow('it is not an image');
    await expect(fetchImage(`${origin}/huge`, loopbackAllowed)).rejects.toThrow('it is larger than 5 MB');
    await expect(fetchImage(`${origin}/missing.png`, loopbackAllowed)).rejects.toThrow('the server answered 404');
  });
});

describe('mediaFileName', () => {
  it('keeps the URL file name with the real extension, else the slug', () => {
    expect(mediaFileName(png, 'my-post', 'https://blog.example.com/wp-content/uploads/Cover%20Image.jpg')).toBe('Cover-Image.png');
    expect(mediaFileName(png, 'my-post')).toBe('my-post.png');
  });
});
