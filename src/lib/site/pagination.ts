/**
 * Blog pagination (6 posts per page; Previous/Next with numbered pages: the first, the last and the
 * current one plus and minus one, with ellipses between gaps). Pure, so the static pages and the search
 * island number their pages the same way.
 */

/** Posts per list page. */
export const PAGE_SIZE = 6;

/** One entry of the numbered page list: a page number, or an ellipsis standing for the skipped pages. */
export type PageItem = { kind: 'page'; page: number; current: boolean } | { kind: 'ellipsis'; key: string };

/** How many pages `count` items fill; an empty list still has one (empty) page. */
export function pageCount(count: number, size: number = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(count / size));
}

/** The items shown on a 1-based page. */
export function pageSlice<T>(items: readonly T[], page: number, size: number = PAGE_SIZE): T[] {
  return items.slice((page - 1) * size, page * size);
}

/**
 * The numbered page list for `current` of `total` pages: first, last, current ± 1, and an ellipsis
 * wherever numbers are skipped (a gap of exactly one page shows that page instead: 1 2 3 is clearer than 1 … 3).
 */
export function pageItems(current: number, total: number): PageItem[] {
  if (total < 1) return [];
  const page = Math.min(Math.max(1, current), total);
  const shown = new Set([1, total, page - 1, page, page + 1].filter((n) => n >= 1 && n <= total));
  // Fill single-page gaps so an ellipsis always stands for at least two pages.
  for (const n of [...shown]) if (shown.has(n + 2) && !shown.has(n + 1)) shown.add(n + 1);
  const numbers = [...shown].sort((a, b) => a - b);
  const items: PageItem[] = [];
  numbers.forEach((n, index) => {
    const previous = numbers[index - 1];
    if (previous !== undefined && n - previous > 1) items.push({ kind: 'ellipsis', key: `after-${previous}` });
    items.push({ kind: 'page', page: n, current: n === page });
  });
  return items;
}

/** The page numbers after the first that `count` items need (page 1 is the list's own address). */
export function laterPages(count: number, size: number = PAGE_SIZE): number[] {
  return Array.from({ length: pageCount(count, size) - 1 }, (_, index) => index + 2);
}
