import { describe, expect, it } from 'vitest';
import { relatedPosts, type Relatable } from '../../../../src/lib/site/related-posts.ts';

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

/** The rule as stated, scoring and sorting every candidate: what the index must answer. */
function byTheRule(current: Relatable, all: readonly Relatable[], limit: number): Relatable[] {
  const tags = new Set(current.tags.map((tag) => tag.toLowerCase()));
  return all
    .filter((other) => other.id !== current.id)
    .map((other) => ({
      other,
      sameCategory: current.categoryId !== null && other.categoryId === current.categoryId,
      sharedTags: other.tags.filter((tag) => tags.has(tag.toLowerCase())).length,
    }))
    .filter(({ sameCategory, sharedTags }) => sameCategory || sharedTags > 0)
    .sort((a, b) => Number(b.sameCategory) - Number(a.sameCategory) || b.sharedTags - a.sharedTags || b.other.date.localeCompare(a.other.date))
    .slice(0, limit)
    .map(({ other }) => other);
}

describe('relatedPosts on a whole blog (one index per candidate list)', () => {
  // A deterministic generator: categories, tags in mixed case (some written twice), equal dates, uncategorized posts.
  let seed = 42;
  const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const blog: Relatable[] = Array.from({ length: 400 }, (_, i) =>
    post(
      `p${i}`,
      random(6) === 0 ? null : `c${random(5)}`,
      Array.from({ length: random(4) }, () => ['SEO', 'seo', 'Ads', 'local', 'Local', 'ux', 'email'][random(7)]!),
      new Date(Date.UTC(2026, 0, 1 + random(60))).toISOString(),
    ),
  );

  it('answers every post as the rule does, for the page (2), the default (3) and long lists', () => {
    for (const limit of [1, 2, 3, 25]) {
      for (const current of blog) expect(ids(relatedPosts(current, blog, limit)), `${current.id}, limit ${limit}`).toEqual(ids(byTheRule(current, blog, limit)));
    }
  });

  it('answers the same when the candidates are not newest first', () => {
    const shuffled = [...blog].reverse();
    for (const current of blog.slice(0, 50)) expect(ids(relatedPosts(current, shuffled, 3))).toEqual(ids(byTheRule(current, shuffled, 3)));
  });

  it('answers a post that is not among the candidates', () => {
    const outsider = post('outsider', 'c1', ['SEO', 'ux'], '2026-03-01T00:00:00.000Z');
    expect(ids(relatedPosts(outsider, blog, 5))).toEqual(ids(byTheRule(outsider, blog, 5)));
  });
});
