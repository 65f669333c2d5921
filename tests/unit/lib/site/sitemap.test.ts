import { describe, expect, it } from 'vitest';
import { inSitemap, withoutTrailingSlash } from '../../../../src/lib/site/sitemap.ts';

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
