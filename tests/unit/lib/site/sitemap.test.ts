import { describe, expect, it } from 'vitest';
import { inSitemap, sitemapLastmods, withoutTrailingSlash } from '../../../../src/lib/site/sitemap.ts';

describe('inSitemap', () => {
  it.each([
    ['https://example.com/', true],
    ['https://example.com/blog/', true],
    ['https://example.com/blog/page/2/', true],
    ['https://example.com/blog/category/local-seo/', true],
    ['https://example.com/blog/a-post/', true],
    ['https://example.com/services/seo/', true],
    ['https://example.com/privacy/', false],
    ['https://example.com/terms', false],
    ['https://example.com/404/', false],
    ['https://example.com/service-not-found/', false],
    ['https://example.com/blog/search/', false],
    ['https://example.com/blog/tag/seo/', false],
    ['https://example.com/blog/tag/seo/page/2/', false],
    ['https://example.com/blog/old-slug/', false],
    ['https://example.com/auth/', false],
    ['https://example.com/admin/', false],
    ['https://example.com/admin/blog/new/', false],
    ['https://example.com/docs/zimmwriter-webhook-setup/', false],
  ])('%s → %s', (url, expected) => {
    expect(inSitemap(url, new Set(['/blog/old-slug']))).toBe(expected);
  });
});

describe('withoutTrailingSlash', () => {
  it.each([
    ['https://example.com/', 'https://example.com/'],
    ['https://example.com/blog/', 'https://example.com/blog'],
    ['https://example.com/blog/a-post', 'https://example.com/blog/a-post'],
  ])('%s → %s', (url, expected) => {
    expect(withoutTrailingSlash(url)).toBe(expected);
  });
});

describe('sitemapLastmods', () => {
  const post = (slug: string, date: string, updatedAt: string, category: string | null) => ({ slug, date, updatedAt, category: category ? { slug: category } : null });
  const posts = [
    post('c', '2026-11-03T10:00:00.000Z', '2026-11-03T10:00:00.000Z', 'seo'),
    post('b', '2026-11-02T10:00:00.000Z', '2026-11-05T08:00:00.000Z', 'ppc'),
    post('a', '2026-11-01T10:00:00.000Z', '2026-10-30T10:00:00.000Z', 'seo'),
  ];

  it("dates a post by its last change (an edit after publication, else its publication), a list page by its newest post's", () => {
    const dates = sitemapLastmods({ posts, categories: [{ slug: 'seo' }, { slug: 'ppc' }] }, 2);
    expect(Object.fromEntries(dates)).toEqual({
      '/blog/c': '2026-11-03T10:00:00.000Z',
      '/blog/b': '2026-11-05T08:00:00.000Z',
      '/blog/a': '2026-11-01T10:00:00.000Z',
      '/blog': '2026-11-05T08:00:00.000Z',
      '/blog/page/2': '2026-11-01T10:00:00.000Z',
      '/blog/category/seo': '2026-11-03T10:00:00.000Z',
      '/blog/category/ppc': '2026-11-05T08:00:00.000Z',
    });
  });

  it('dates nothing for an empty blog', () => {
    expect(sitemapLastmods({ posts: [], categories: [] }).size).toBe(0);
  });
});
