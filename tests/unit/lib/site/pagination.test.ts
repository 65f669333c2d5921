import { describe, expect, it } from 'vitest';
import { laterPages, PAGE_SIZE, pageCount, pageItems, pageSlice, type PageItem } from '../../../../src/lib/site/pagination.ts';

/** Page items as a compact string: current page in brackets, ellipses as '…'. */
const render = (items: PageItem[]) => items.map((item) => (item.kind === 'ellipsis' ? '…' : item.current ? `[${item.page}]` : String(item.page))).join(' ');

describe('pageItems', () => {
  it.each<[number, number, string]>([
    [1, 1, '[1]'],
    [1, 2, '[1] 2'],
    [2, 3, '1 [2] 3'],
    [1, 3, '[1] 2 3'],
    [1, 5, '[1] 2 … 5'],
    [3, 5, '1 2 [3] 4 5'],
    [5, 5, '1 … 4 [5]'],
    [5, 10, '1 … 4 [5] 6 … 10'],
    [4, 10, '1 2 3 [4] 5 … 10'],
    [10, 10, '1 … 9 [10]'],
    [1, 4, '[1] 2 3 4'],
    [12, 5, '1 … 4 [5]'],
    [0, 5, '[1] 2 … 5'],
  ])('page %i of %i is %s', (current, total, expected) => {
    expect(render(pageItems(current, total))).toBe(expected);
  });

  it('gives nothing for zero pages', () => {
    expect(pageItems(1, 0)).toEqual([]);
  });

  it('gives every ellipsis a distinct key', () => {
    const keys = pageItems(6, 20).flatMap((item) => (item.kind === 'ellipsis' ? [item.key] : []));
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });
});

describe('page counts and slices', () => {
  it('shows 6 posts per page', () => {
    expect(PAGE_SIZE).toBe(6);
  });

  it.each([
    [0, 1],
    [1, 1],
    [6, 1],
    [7, 2],
    [16, 3],
  ])('%i posts fill %i page(s)', (count, pages) => {
    expect(pageCount(count)).toBe(pages);
  });

  it('slices the items of a 1-based page', () => {
    const items = Array.from({ length: 16 }, (_, i) => i + 1);
    expect(pageSlice(items, 1)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(pageSlice(items, 3)).toEqual([13, 14, 15, 16]);
    expect(pageSlice(items, 4)).toEqual([]);
  });

  it('lists the pages after the first', () => {
    expect(laterPages(0)).toEqual([]);
    expect(laterPages(6)).toEqual([]);
    expect(laterPages(16)).toEqual([2, 3]);
  });
});
