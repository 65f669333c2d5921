import { describe, expect, it } from 'vitest';
import { IMAGE_SIZES, IMAGE_WIDTHS, initialsOf, isRemoteImageUrl, storageRemotePattern } from '../../../src/lib/images';

describe('storageRemotePattern', () => {
  it.each([
    ['the local backend', 'http://127.0.0.1:54321', { protocol: 'http', hostname: '127.0.0.1', port: '54321' }],
    ['a hosted project', 'https://abcd.supabase.co', { protocol: 'https', hostname: 'abcd.supabase.co' }],
    ['a URL with a path', 'https://abcd.supabase.co/', { protocol: 'https', hostname: 'abcd.supabase.co' }],
  ])('allows only public Storage objects of %s', (_case, url, host) => {
    expect(storageRemotePattern(url)).toEqual({ ...host, pathname: '/storage/v1/object/public/**' });
  });
});

describe('isRemoteImageUrl', () => {
  it.each([
    ['https://abcd.supabase.co/storage/v1/object/public/media/a.jpg', true],
    ['http://127.0.0.1:54321/storage/v1/object/public/media/a.png', true],
    ['https://images.unsplash.com/photo-1?auto=format', true],
    ['https://', false],
    ['/images/blog-placeholder.svg', false],
    ['javascript:alert(1)', false],
    ['https://a b.example/x.jpg', false],
    ['', false],
    [null, false],
    [undefined, false],
  ])('%s → %s', (url, expected) => {
    expect(isRemoteImageUrl(url)).toBe(expected);
  });
});

describe('initialsOf', () => {
  it.each([
    ['Sarah Johnson', 'SJ'],
    ['  mike   chen  ', 'MC'],
    ['Ana María de la Cruz', 'AM'],
    ['Prince', 'P'],
    ['Émile Zola', 'ÉZ'],
  ])('%s → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});

describe('responsive settings', () => {
  it('builds 400/800/1200/1600 variants, ascending', () => {
    expect(IMAGE_WIDTHS).toEqual([400, 800, 1200, 1600]);
  });

  it('ends every sizes list with an unconditional width', () => {
    for (const sizes of Object.values(IMAGE_SIZES)) expect(sizes.split(', ').at(-1)).toMatch(/^\d+(px|vw)$/);
  });
});
