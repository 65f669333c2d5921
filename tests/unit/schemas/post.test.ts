import { describe, expect, it } from 'vitest';
import { PostInputSchema, PostTagsSchema } from '../../../src/schemas/post.ts';

const base = { title: 'A title', slug: 'a-title', content_source: '# Hello\n', content_format: 'markdown' };

describe('PostInputSchema', () => {
  it('defaults to draft and stores empty optional fields as null', () => {
    expect(PostInputSchema.parse({ ...base, excerpt: '', category_id: '', tags: [], featured_image_url: '', meta_title: '' }))
      .toMatchObject({ status: 'draft', excerpt: null, category_id: null, tags: null, featured_image_url: null, meta_title: null });
  });

  it.each([
    ['blank title', { ...base, title: '   ' }],
    ['blank content', { ...base, content_source: ' \n ' }],
    ['unknown content format', { ...base, content_format: 'docx' }],
    ['bad slug', { ...base, slug: 'Not A Slug' }],
    ['unknown status', { ...base, status: 'archived' }],
    ['published without date', { ...base, status: 'published' }],
    ['non-uuid category', { ...base, category_id: 'seo' }],
  ])('refuses %s', (_case, input) => {
    expect(PostInputSchema.safeParse(input).success).toBe(false);
  });

  it('keeps the source exactly as written (no trimming)', () => {
    expect(PostInputSchema.parse({ ...base, content_source: '  indented code\n\n' }).content_source).toBe('  indented code\n\n');
  });

  it('accepts a published post with its date', () => {
    expect(PostInputSchema.safeParse({ ...base, status: 'published', published_at: '2026-10-01T12:00:00Z' }).success).toBe(true);
  });
});

describe('PostTagsSchema', () => {
  it('trims and drops duplicates, ignoring case: the first spelling stays', () => {
    expect(PostTagsSchema.parse([' SEO ', 'SEO', 'PPC', 'seo', 'Seo'])).toEqual(['SEO', 'PPC']);
  });
  it('refuses more than 20 tags and over-long tags', () => {
    expect(PostTagsSchema.safeParse(Array.from({ length: 21 }, (_, i) => `t${i}`)).success).toBe(false);
    expect(PostTagsSchema.safeParse(['x'.repeat(51)]).success).toBe(false);
  });
});
