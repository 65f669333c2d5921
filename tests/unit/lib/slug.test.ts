import { describe, expect, it } from 'vitest';
import { SLUG_PATTERN } from '../../../src/schemas/common.ts';
import { categorySlug, postSlug, slugify } from '../../../src/lib/slug.ts';

describe('slugify', () => {
  it.each([
    ['SEO Strategies That Actually Work in 2026', 'seo-strategies-that-actually-work-in-2026'],
    ['  --Hello, World!--  ', 'hello-world'],
    ['Café & Crème brûlée', 'cafe-creme-brulee'],
    ['Already-a-slug', 'already-a-slug'],
    ['a___b...c   d', 'a-b-c-d'],
    ['100% ROI: 5 Tips', '100-roi-5-tips'],
    ['!!!', ''],
  ])('%j becomes %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('cuts long titles to 200 characters without a trailing hyphen', () => {
    const slug = slugify(`${'word '.repeat(39)}abcdefgh more`);
    expect(slug.length).toBeLessThanOrEqual(200);
    expect(slug).toMatch(SLUG_PATTERN);
  });
});

describe('postSlug', () => {
  it('prefers the given slug, normalized', () => {
    expect(postSlug('Some Title', 'My Custom Slug!')).toBe('my-custom-slug');
  });
  it('falls back to the title when the slug is absent or has no usable characters', () => {
    expect(postSlug('Local SEO in Atlanta')).toBe('local-seo-in-atlanta');
    expect(postSlug('Local SEO in Atlanta', '***')).toBe('local-seo-in-atlanta');
  });
  it('gives a title without Latin letters or digits a stable hashed slug', () => {
    const slug = postSlug('日本語のタイトル');
    expect(slug).toMatch(/^post-[0-9a-f]{8}$/);
    expect(postSlug('日本語のタイトル')).toBe(slug);
    expect(postSlug('別のタイトル')).not.toBe(slug);
  });
});

describe('categorySlug', () => {
  it('slugifies the given slug, else the name', () => {
    expect(categorySlug('Local SEO')).toBe('local-seo');
    expect(categorySlug('Local SEO', 'Near Me')).toBe('near-me');
    expect(categorySlug('Local SEO', '')).toBe('local-seo');
  });

  it('gives a name with nothing to slugify the same category-<hash> every time, whatever its case', () => {
    const slug = categorySlug('東京');
    expect(slug).toMatch(/^category-[0-9a-f]{8}$/);
    expect(slug).toMatch(SLUG_PATTERN);
    expect(categorySlug('東京')).toBe(slug);
    expect(categorySlug('Ω!!')).toBe(categorySlug('ω!!'));
    expect(categorySlug('大阪')).not.toBe(slug);
  });
});
