import { describe, expect, it } from 'vitest';
import { relatedPosts, type Relatable } from '../../../src/lib/related-posts.ts';

const post = (id: string, categoryId: string | null, tags: string[], date: string): Relatable => ({ id, categoryId, tags, date });

const current = post('current', 'seo', ['SEO', 'Google'], '2026-06-01T00:00:00.000Z');
const candidates = [
  current,
  post('other-category-one-tag', 'ppc', ['google'], '2026-09-01T00:00:00.000Z'),
  post('same-category-old', 'seo', [], '2026-01-01T00:00:00.000Z'),
  post('same-category-new', 'seo', [], '2026-05-01T00:00:00.000Z'),
  post('same-category-two-tags', 'seo', ['SEO', 'Google'], '2025-01-01T00:00:00.000Z'),
  post('other-category-two-tags', 'content', ['seo', 'GOOGLE'], '2026-02-01T00:00:00.000Z'),
  post('unrelated', 'web', ['UX'], '2026-10-01T00:00:00.000Z'),
];
const ids = (posts: Relatable[]) => posts.map((p) => p.id);

describe('relatedPosts', () => {
  it('ranks the same category first, then shared tags (more first), then newer first', () => {
    expect(ids(relatedPosts(current, candidates, 10))).toEqual([
      'same-category-two-tags',
      'same-category-new',
      'same-category-old',
      'other-category-two-tags',
      'other-category-one-tag',
    ]);
  });

  it('returns 3 by default and never the post itself or unrelated posts', () => {
    const related = relatedPosts(current, candidates);
    expect(related).toHaveLength(3);
    expect(ids(related)).not.toContain('current');
    expect(ids(relatedPosts(current, candidates, 10))).not.toContain('unrelated');
  });

  it('takes the limit the post page asks for (2)', () => {
    expect(ids(relatedPosts(current, candidates, 2))).toEqual(['same-category-two-tags', 'same-category-new']);
  });

  it('relates uncategorized posts only through tags', () => {
    const loose = post('loose', null, ['UX'], '2026-01-01T00:00:00.000Z');
    const others = [post('also-uncategorized', null, [], '2026-02-01T00:00:00.000Z'), ...candidates];
    expect(ids(relatedPosts(loose, others))).toEqual(['unrelated']);
  });

  it('finds nothing when nothing is related', () => {
    expect(relatedPosts(post('alone', 'x', ['y'], '2026-01-01T00:00:00.000Z'), candidates)).toEqual([]);
  });
});
