import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageProblem, inspectImage, MEDIA_MAX_BYTES, sha256Hex } from '../../../src/lib/image-file';

const pixels = (format: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif') =>
  sharp({ create: { width: 30, height: 20, channels: 3, background: '#c2410c' } })[format]().toBuffer().then((b) => new Uint8Array(b));

describe('inspectImage', () => {
  it.each([
    ['jpeg', 'image/jpeg', 'jpg'],
    ['png', 'image/png', 'png'],
    ['webp', 'image/webp', 'webp'],
    ['avif', 'image/avif', 'avif'],
    ['gif', 'image/gif', 'gif'],
  ] as const)('reads a %s file by its bytes: type, extension and size', async (format, mimeType, extension) => {
    expect(inspectImage(await pixels(format))).toEqual({ mimeType, extension, width: 30, height: 20 });
  });

  it.each([
    ['an SVG (script could live inside)', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>'],
    ['HTML', '<!doctype html><html><body><script>alert(1)</script></body></html>'],
    ['plain text', 'hello, this is not an image at all'],
    ['nothing', ''],
  ])('refuses %s', (_, text) => {
    expect(inspectImage(new TextEncoder().encode(text))).toBeNull();
  });

  it('refuses a truncated header', async () => {
    expect(inspectImage((await pixels('png')).slice(0, 12))).toBeNull();
  });
});

describe('imageProblem', () => {
  it('accepts an image whatever its name says', async () => {
    expect(imageProblem('photo.txt', await pixels('webp'))).toBeNull();
  });

  it('names the file and the reason', async () => {
    expect(imageProblem('notes.jpg', new TextEncoder().encode('not a picture'))).toBe('notes.jpg is not an image (JPEG, PNG, WebP, AVIF or GIF)');
    expect(imageProblem('empty.png', new Uint8Array())).toBe('empty.png is empty');
    expect(imageProblem('huge.jpg', new Uint8Array(MEDIA_MAX_BYTES + 1))).toBe('huge.jpg is larger than 5 MB');
  });
});

describe('sha256Hex', () => {
  it('is the SHA-256 of the bytes in hex', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
