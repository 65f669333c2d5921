import { describe, expect, it } from 'vitest';
import { blogListPath, categoryPath, postPath, searchPath, searchQuery, tagPath, tagSlug } from '../../../src/lib/blog-urls.ts';

describe('tag slugs', () => {
  it.each([
    ['SEO', 'seo'],
    ['Google Ads', 'google-ads'],
    ['Content Marketing', 'content-marketing'],
    ['B2B', 'b2b'],
    ['Café & Crème', 'cafe-creme'],
    ['  Local   SEO ', 'local-seo'],
    ['!!!', ''],
  ])('%j → %j', (tag, slug) => {
    expect(tagSlug(tag)).toBe(slug);
  });

  it('gives tags that differ only in case or punctuation one page', () => {
    expect(tagPath('Google Ads')).toBe(tagPath('google-ads'));
  });
});

describe('page addresses', () => {
  it.each([
    [blogListPath(), '/blog'],
    [blogListPath(1), '/blog'],
    [blogListPath(3), '/blog/page/3'],
    [categoryPath('local-seo'), '/blog/category/local-seo'],
    [categoryPath('local-seo', 2), '/blog/category/local-seo/page/2'],
    [tagPath('Google Ads'), '/blog/tag/google-ads'],
    [tagPath('SEO', 2), '/blog/tag/seo/page/2'],
    [postPath('core-web-vitals-explained'), '/blog/core-web-vitals-explained'],
  ])('%s is %s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('search addresses', () => {
  it.each(['', ' ', '   \t\n '])('ignores the blank query %j', (query) => {
    expect(searchPath(query)).toBeNull();
  });

  it('trims and encodes the query', () => {
    expect(searchPath('  local SEO & maps ')).toBe('/blog/search?q=local%20SEO%20%26%20maps');
  });

  it('reads the trimmed query back from the address', () => {
    expect(searchQuery('?q=%20local%20SEO%20%26%20maps%20')).toBe('local SEO & maps');
    expect(searchQuery('?q=+seo+')).toBe('seo');
    expect(searchQuery('?page=2')).toBe('');
  });
});
