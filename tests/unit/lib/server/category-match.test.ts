import { describe, expect, it } from 'vitest';
import { allowedTypos, categoryKey, editDistance, matchCategory } from '../../../../src/lib/server/category-match.ts';

const category = (name: string) => ({ id: name.toLowerCase().replace(/\W+/g, '-'), name });
const SEED = ['Local SEO', 'Social Media', 'Content Marketing', 'PPC', 'Web Design', 'Uncategorized'].map(category);

describe('categoryKey', () => {
  it.each([
    ['Local SEO', 'localseo'],
    ['  local-seo!! ', 'localseo'],
    ['Café & Crème', 'cafecreme'],
    ['Social_Media', 'socialmedia'],
    ['日本 語', '日本語'],
    ['!!!', ''],
  ])('%j → %j', (name, key) => expect(categoryKey(name)).toBe(key));
});

describe('allowedTypos', () => {
  it.each([
    [3, 0],
    [4, 0],
    [5, 1],
    [9, 1],
    [10, 2],
    [30, 2],
  ])('a key of %i characters allows %i edits', (length, edits) => expect(allowedTypos(length)).toBe(edits));
});

describe('editDistance', () => {
  it.each([
    ['localseo', 'localseo', 0],
    ['localseo', 'lcoalseo', 1], // two neighbours swapped
    ['webdesign', 'webdesing', 1],
    ['webdesign', 'webdesgn', 1], // one deleted
    ['socialmedia', 'socailmedai', 2],
    ['ppc', 'seo', 3],
  ])('%j → %j is %i', (a, b, distance) => expect(editDistance(a, b, 5)).toBe(distance));

  it('stops at the limit: anything further is limit + 1', () => {
    expect(editDistance('contentmarketing', 'socialmedia', 2)).toBe(3);
    expect(editDistance('a', 'abcdef', 1)).toBe(2);
  });
});

describe('matchCategory', () => {
  it.each([
    // Case, spacing and punctuation set aside.
    ['local seo', 'Local SEO', 'same-key'],
    ['LOCAL-SEO', 'Local SEO', 'same-key'],
    ['  Social   media ', 'Social Media', 'same-key'],
    ['ppc', 'PPC', 'same-key'],
    // Small typos, relative to the name's length.
    ['Lcoal SEO', 'Local SEO', 'typo'],
    ['Web Desing', 'Web Design', 'typo'],
    ['Content Marketting', 'Content Marketing', 'typo'],
    ['Socail Meida', 'Social Media', 'typo'],
  ])('%j lands in %j (%s)', (name, expected, by) => {
    expect(matchCategory(name, SEED)).toEqual({ category: SEED.find((c) => c.name === expected), by });
  });

  it.each([
    ['Email Marketing'], // a new topic
    ['PPD'], // short names match only exactly: "PPC" and "PPD" may be different things
    ['SEO'],
    ['Local SEO Atlanta Tips'], // too many edits
    ['!!!'], // nothing to compare
  ])('%j maps to nothing (created for review)', (name) => {
    expect(matchCategory(name, SEED)).toBeNull();
  });

  it('a tie between two categories at the fewest edits is ambiguous: no mapping', () => {
    const cats = ['Design Tips', 'Design Tops'].map(category);
    expect(matchCategory('Design Tps', cats)).toBeNull(); // one edit from each
    expect(matchCategory('Design Tipss', cats)).toEqual({ category: cats[0], by: 'typo' }); // one from Tips, two from Tops
  });

  it('two categories with the same key: the one spelled the same ignoring case, else none', () => {
    const cats = ['Local SEO', 'Local-SEO'].map(category);
    expect(matchCategory('local-seo', cats)).toEqual({ category: cats[1], by: 'same-key' });
    expect(matchCategory('LocalSEO', cats)).toBeNull();
  });

  it('an exact key match wins over a closer-looking typo', () => {
    const cats = ['Local SEO', 'Local SEOs'].map(category);
    expect(matchCategory('local seos', cats)).toEqual({ category: cats[1], by: 'same-key' });
  });

  it('no categories: nothing to map to', () => {
    expect(matchCategory('Local SEO', [])).toBeNull();
  });
});
