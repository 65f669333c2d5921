import { describe, expect, it } from 'vitest';
import { changedFields, formOf } from '../../../src/admin/blog/editor/post-form';
import type { AdminPost } from '../../../src/lib/back-office/posts';

const opened = formOf(
  { title: 'Title', slug: 'title', excerpt: 'Old excerpt', content_source: 'Body', content_format: 'markdown', category_id: null, tags: ['a'], featured_image_url: null, featured_media: null, meta_title: null, meta_description: null, sticky: false, status: 'draft', published_at: null } as unknown as AdminPost,
  'UTC',
);

describe('changedFields', () => {
  it("keeps only what this editor changed, so a newer version's other fields stay (two tabs on one post)", () => {
    const edited = { ...opened, title: 'Title from tab B', tags: ['a', 'b'] };
    const kept = changedFields(edited, opened);
    expect(kept).toEqual({ title: 'Title from tab B', tags: ['a', 'b'] });
    // Tab A saved a new excerpt meanwhile: loading that version brings B's title and tags back over it, not B's old excerpt.
    const latest = { ...opened, excerpt: 'Excerpt from tab A' };
    expect({ ...latest, ...kept }).toEqual({ ...opened, title: 'Title from tab B', tags: ['a', 'b'], excerpt: 'Excerpt from tab A' });
  });

  it('is empty when nothing changed', () => {
    expect(changedFields({ ...opened, tags: [...opened.tags] }, opened)).toEqual({});
  });
});
