import { describe, expect, it } from 'vitest';
import { approvalMessage, categoryNameAndSlug, tagName, taxonomyErrorMessage, TAXONOMY_MESSAGES, TaxonomyError } from '../../../../src/lib/back-office/blog-taxonomy.ts';

describe('taxonomyErrorMessage', () => {
  // What the database answers → what the user reads.
  const cases: Array<[string, { code?: string; message?: string }, string]> = [
    ['default undeletable', { code: 'P0001', message: 'default_category: the default category "Uncategorized" cannot be deleted' }, TAXONOMY_MESSAGES.defaultUndeletable],
    ['default unmergeable', { code: '22023', message: 'default_category: the default category "Uncategorized" cannot be merged into another' }, TAXONOMY_MESSAGES.defaultUnmergeable],
    ['merge into itself', { code: '22023', message: 'merge_categories: a category cannot be merged into itself' }, TAXONOMY_MESSAGES.mergeIntoItself],
    ['invalid tag', { code: '22023', message: 'invalid_tag: a tag has 1 to 50 characters' }, TAXONOMY_MESSAGES.tagNameInvalid],
    ['unknown tag', { code: 'P0002', message: 'tag_not_found: no tag "x"' }, TAXONOMY_MESSAGES.tagNotFound],
    ['slug taken', { code: '23505', message: 'duplicate key value violates unique constraint' }, TAXONOMY_MESSAGES.categorySlugTaken],
    ['bad name', { code: '23514', message: 'new row violates check constraint' }, TAXONOMY_MESSAGES.categoryNameInvalid],
    ['refused', { code: '42501', message: 'merge_categories: only an editor or admin' }, TAXONOMY_MESSAGES.notAllowed],
    ['anything else', { code: 'XX000', message: 'internal detail' }, TAXONOMY_MESSAGES.failed],
  ];
  it.each(cases)('%s', (_, error, expected) => {
    expect(taxonomyErrorMessage(error)).toBe(expected);
  });
});

describe('categoryNameAndSlug', () => {
  it('tidies the name and slugifies it', () => {
    expect(categoryNameAndSlug('  Local   SEO & Maps ')).toEqual({ name: 'Local SEO & Maps', slug: 'local-seo-maps' });
  });
  it.each([[''], ['   '], ['!!!'], ['x'.repeat(81)]])('refuses %j', (input) => {
    expect(() => categoryNameAndSlug(input)).toThrow(new TaxonomyError(TAXONOMY_MESSAGES.categoryNameInvalid));
  });
});

describe('tagName', () => {
  it('trims and keeps the spelling', () => expect(tagName('  Local SEO ')).toBe('Local SEO'));
  it.each([[''], ['  '], ['x'.repeat(51)]])('refuses %j', (input) => {
    expect(() => tagName(input)).toThrow(TAXONOMY_MESSAGES.tagNameInvalid);
  });
});

describe('approvalMessage', () => {
  it('says the category shows after the rebuild when it has published posts, else once one is published', () => {
    expect(approvalMessage({ name: 'Seo Tips', published_count: 1 })).toBe('Category "Seo Tips" approved: it shows on the site with its 1 published post after the rebuild that starts now');
    expect(approvalMessage({ name: 'Seo Tips', published_count: 3 })).toContain('with its 3 published posts after the rebuild');
    expect(approvalMessage({ name: 'Seo Tips', published_count: 0 })).toBe('Category "Seo Tips" approved: visitors see it once one of its posts is published');
  });
});
