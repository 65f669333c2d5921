import { describe, expect, it } from 'vitest';
import { checkMediaFile, detectImageType, formatBytes, formatDimensions, MEDIA_ACCEPT, MEDIA_MAX_BYTES, MediaError, sha256Hex, usageByMedia } from '../../../src/lib/media.ts';

const bytes = (...parts: Array<string | number[]>) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)));
/** An ISO-BMFF ftyp box: size, 'ftyp', major brand, minor version, compatible brands. */
const ftyp = (major: string, ...compatible: string[]) => bytes([0, 0, 0, 16 + 4 * compatible.length], 'ftyp', major, [0, 0, 0, 0], ...compatible);

describe('detectImageType', () => {
  const cases: Array<[string, Uint8Array, string | null]> = [
    ['JPEG', bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'), 'image/jpeg'],
    ['PNG', bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d], 'IHDR'), 'image/png'],
    ['GIF87a', bytes('GIF87a', [1, 0, 1, 0]), 'image/gif'],
    ['GIF89a', bytes('GIF89a', [1, 0, 1, 0]), 'image/gif'],
    ['WebP', bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '), 'image/webp'],
    ['AVIF (major brand)', ftyp('avif', 'mif1', 'miaf'), 'image/avif'],
    ['AVIF sequence', ftyp('avis', 'msf1'), 'image/avif'],
    ['AVIF as a compatible brand', ftyp('mif1', 'miaf', 'avif'), 'image/avif'],
    ['HEIC (ftyp, other brand)', ftyp('heic', 'mif1', 'heic'), null],
    ['MP4 video', ftyp('isom', 'iso2', 'mp41'), null],
    ['RIFF but WAVE', bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '), null],
    ['text renamed .jpg', bytes('hello, this is not a photo'), null],
    ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'), null],
    ['PDF', bytes('%PDF-1.7'), null],
    ['truncated PNG signature', bytes([0x89], 'PN'), null],
    ['empty', new Uint8Array(), null],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(detectImageType(input)).toBe(expected);
  });
});

describe('checkMediaFile', () => {
  const png = bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]);
  it('returns the type found in the content, whatever the name or declared type says', async () => {
    await expect(checkMediaFile(new File([png], 'photo.jpg', { type: 'image/jpeg' }))).resolves.toBe('image/png');
  });
  it.each([
    ['a text file', new File(['just words'], 'photo.txt', { type: 'text/plain' }), 'photo.txt is not an image (JPEG, PNG, WebP, AVIF or GIF)'],
    ['a text file named like an image', new File(['just words'], 'fake.png', { type: 'image/png' }), 'fake.png is not an image (JPEG, PNG, WebP, AVIF or GIF)'],
    ['a file over the limit', new File([png, new Uint8Array(MEDIA_MAX_BYTES)], 'big.jpg'), 'big.jpg is larger than 5 MB'],
    ['an empty file', new File([], 'empty.gif'), 'empty.gif is empty'],
  ])('refuses %s with a clear message', async (_name, file, message) => {
    const refusal = checkMediaFile(file);
    await expect(refusal).rejects.toBeInstanceOf(MediaError);
    await expect(refusal).rejects.toThrow(message);
  });
  it('takes a file of exactly 5 MB', async () => {
    await expect(checkMediaFile(new File([png, new Uint8Array(MEDIA_MAX_BYTES - png.length)], 'limit.png'))).resolves.toBe('image/png');
  });
});

describe('helpers', () => {
  it('the limit is the bucket limit and the picker accepts the five types', () => {
    expect(MEDIA_MAX_BYTES).toBe(5_242_880);
    expect(MEDIA_ACCEPT).toBe('image/jpeg,image/png,image/webp,image/avif,image/gif');
  });
  it.each([
    [512, '512 B'],
    [34 * 1024, '34 KB'],
    [1536 * 1024, '1.5 MB'],
    [5 * 1024 * 1024, '5 MB'],
    [12 * 1024 * 1024, '12 MB'],
  ])('formatBytes(%i) = %s', (size, text) => expect(formatBytes(size)).toBe(text));
  it('formats dimensions, or null when unknown', () => {
    expect(formatDimensions({ width: 1200, height: 800 })).toBe('1200 × 800');
    expect(formatDimensions({ width: null, height: null })).toBeNull();
  });
  it('hashes with SHA-256 as lower-case hex', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc').buffer as ArrayBuffer)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('groups usage by file', () => {
    const use = (media_id: string, post_id: string) => ({ media_id, post_id, post_title: post_id, post_status: 'draft', in_content: false });
    const grouped = usageByMedia([use('m1', 'a'), use('m2', 'b'), use('m1', 'c')]);
    expect(grouped.get('m1')?.map((u) => u.post_id)).toEqual(['a', 'c']);
    expect(grouped.get('m3')).toBeUndefined();
  });
});
