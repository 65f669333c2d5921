import { describe, expect, it } from 'vitest';
import { validatePost, PostSaveError, type PostDraft } from '../../../../src/lib/back-office/posts.ts';

const MEDIA = '3f1c2a9e-5b7d-4c1e-9a2b-0d4e6f8a1b2c';
const draft = (over: Partial<PostDraft> = {}): PostDraft => ({
  title: 'Hello', slug: 'hello', excerpt: '', content_source: 'Body', content_format: 'markdown', status: 'draft',
  category_id: '', tags: [], featured_image_url: '', meta_title: '', meta_description: '', published_at: null, ...over,
});

describe('featured image on save (validatePost)', () => {
  it.each([
    ['no image', {}, { featured_media_id: null, featured_image_url: null }],
    ['a library image', { featured_media_id: MEDIA }, { featured_media_id: MEDIA, featured_image_url: null }],
    ['a legacy address kept', { featured_image_url: 'https://cdn.example.com/a.jpg' }, { featured_media_id: null, featured_image_url: 'https://cdn.example.com/a.jpg' }],
    ['a library image replaces the legacy address', { featured_media_id: MEDIA, featured_image_url: 'https://cdn.example.com/a.jpg' }, { featured_media_id: MEDIA, featured_image_url: null }],
  ] as const)('%s', (_name, over, expected) => {
    expect(validatePost(draft(over))).toMatchObject(expected);
  });

  it('refuses a media id that is not an id', () => {
    expect(() => validatePost(draft({ featured_media_id: 'cover.jpg' }))).toThrow(PostSaveError);
  });
});
