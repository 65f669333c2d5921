import { describe, expect, it } from 'vitest';
import { WpPostListSchema, WpUserListSchema } from '../../../src/schemas/wordpress.ts';

describe('WpPostListSchema', () => {
  it('reads ids as WordPress sends them, dates as instants, and the default order (newest first)', () => {
    expect(WpPostListSchema.parse({ categories: '3,4,3', tags: ['7'], author: 2, after: '2026-11-01T10:00:00', include: '9,8' })).toMatchObject({
      categories: [3, 4],
      tags: [7],
      author: [2],
      include: [9, 8],
      // A wall time: the API reads it in the site's time zone (wpInstant).
      after: '2026-11-01T10:00:00',
      orderby: 'date',
      order: 'desc',
      page: 1,
      per_page: 10,
    });
  });

  it('names each bad parameter: an unknown order, ids that are not ids, a date that is not one, include and relevance without what they need', () => {
    const paths = (query: Record<string, unknown>) => WpPostListSchema.safeParse(query).error?.issues.map((issue) => issue.path.join('.'));
    expect(paths({ orderby: 'popularity' })).toEqual(['orderby']);
    expect(paths({ order: 'up' })).toEqual(['order']);
    expect(paths({ categories: 'abc' })).toEqual(['categories.0']);
    expect(paths({ author: '-1' })).toEqual(['author.0']);
    expect(paths({ before: 'yesterday' })).toEqual(['before']);
    // Year 0 is a date JavaScript writes and Postgres refuses, also when an offset takes 0001 back into it.
    expect(paths({ after: '0000-01-01T00:00:00' })).toEqual(['after']);
    expect(paths({ after: '0001-01-01T00:00:00+05:00' })).toEqual(['after']);
    expect(paths({ after: '0001-01-01T00:00:00' })).toBeUndefined();
    expect(paths({ orderby: 'include' })).toEqual(['orderby']);
    expect(paths({ orderby: 'relevance' })).toEqual(['orderby']);
    expect(WpPostListSchema.safeParse({ orderby: 'relevance', search: 'seo' }).success).toBe(true);
  });
});

describe('WpUserListSchema', () => {
  it('lists by name, ascending, unless told otherwise; who is only authors', () => {
    expect(WpUserListSchema.parse({})).toMatchObject({ orderby: 'name', order: 'asc' });
    expect(WpUserListSchema.parse({ who: 'authors', include: '1,2' })).toMatchObject({ who: 'authors', include: [1, 2] });
    expect(WpUserListSchema.safeParse({ who: 'everyone' }).success).toBe(false);
    expect(WpUserListSchema.safeParse({ orderby: 'email' }).success).toBe(false);
    expect(WpUserListSchema.safeParse({ orderby: 'include' }).success).toBe(false);
  });
});
