import { describe, expect, it } from 'vitest';
import { toBlogPost } from '../../../../src/lib/site/blog-model.ts';
import { articleJsonLd } from '../../../../src/lib/site/structured-data.ts';

const organization = { id: 'o', name: 'Scale Pro Marketing', slug: 'scale-pro', domain: null, settings: {} };
const post = toBlogPost(
  {
    id: '40000000-0000-4000-8000-000000000001',
    slug: 'a-post',
    title: 'A Post',
    excerpt: 'The excerpt.',
    content: '<p>Body</p>',
    category_id: null,
    author_id: null,
    tags: ['SEO', 'Maps'],
    featured_image_url: null,
    featured_media: null,
    meta_title: null,
    meta_description: 'Meta description.',
    published_at: '2026-10-28T14:00:00Z',
    created_at: '2026-10-01T00:00:00Z',
    updated_at: '2026-10-29T00:00:00Z',
    sticky: false,
  },
  new Map(),
  new Map(),
  organization,
);

describe('articleJsonLd', () => {
  it('describes the post as a schema.org Article with absolute URLs', () => {
    expect(articleJsonLd(post, organization, 'https://example.com')).toEqual({
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: 'A Post',
      description: 'Meta description.',
      image: ['https://example.com/images/blog-placeholder.svg'],
      datePublished: '2026-10-28T14:00:00.000Z',
      dateModified: '2026-10-29T00:00:00.000Z',
      // No author: the organization's own post, named as the Organization it is.
      author: { '@type': 'Organization', name: 'Scale Pro Marketing' },
      publisher: { '@type': 'Organization', name: 'Scale Pro Marketing' },
      mainEntityOfPage: { '@type': 'WebPage', '@id': 'https://example.com/blog/a-post' },
      articleSection: 'Uncategorized',
      keywords: 'SEO, Maps',
      url: 'https://example.com/blog/a-post',
    });
  });
});
