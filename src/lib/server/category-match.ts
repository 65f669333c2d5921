/**
 * Which existing category a category name sent by the writing tool means. The tool's user types category
 * names by hand, so "local seo", "Local-SEO" and "Lcoal SEO" all mean the organization's "Local SEO"; a name
 * that means none of them is created by the delivery, flagged for an editor's review. The rule, in order:
 * 1. Same name once case, accents, spacing and punctuation are set aside (the key: letters and digits only).
 *    Several categories with that key: the one spelled the same ignoring case, else none (ambiguous).
 * 2. Else a small typo: the fewest edits (insert, delete, replace, or swap two neighbours) between the keys,
 *    at most one edit for a key of 5 to 9 characters and two from 10 (a shorter key must match exactly:
 *    "SEO" and "SEM" are different topics). Only a single category at that fewest distance matches; a tie
 *    is ambiguous, and an ambiguous name maps to nothing.
 * Pure, so the server and the unit tests share it.
 */

/** A category the name may map to. */
export interface CategoryCandidate {
  id: string;
  name: string;
}

/** Why a name matched: the same key, or a small typo away. */
export type CategoryMatch<C extends CategoryCandidate> = { category: C; by: 'same-key' | 'typo' };

/** The comparison key: lower-case letters and digits, accents removed ("Local-SEO!" → "localseo"). */
export function categoryKey(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Edits a key of this length may be away from a category's and still match it. */
export function allowedTypos(keyLength: number): number {
  if (keyLength < 5) return 0;
  return keyLength < 10 ? 1 : 2;
}

/** The existing category `name` means, or null when it means none or it is ambiguous. */
export function matchCategory<C extends CategoryCandidate>(name: string, categories: readonly C[]): CategoryMatch<C> | null {
  const key = categoryKey(name);
  if (key === '') return null;
  const sameKey = categories.filter((category) => categoryKey(category.name) === key);
  if (sameKey.length > 0) {
    const sameName = sameKey.length === 1 ? sameKey : sameKey.filter((category) => category.name.trim().toLowerCase() === name.trim().toLowerCase());
    return single(sameName, 'same-key');
  }
  const allowed = allowedTypos([...key].length);
  if (allowed === 0) return null;
  let best: C[] = [];
  let bestDistance = allowed + 1;
  for (const category of categories) {
    const distance = editDistance(key, categoryKey(category.name), allowed);
    if (distance < bestDistance) [best, bestDistance] = [[category], distance];
    else if (distance === bestDistance) best.push(category);
  }
  return single(best, 'typo');
}

/** The match when exactly one category qualifies; none or several (ambiguous) is no match. */
function single<C extends CategoryCandidate>(found: readonly C[], by: CategoryMatch<C>['by']): CategoryMatch<C> | null {
  const [category, ...others] = found;
  return category && others.length === 0 ? { category, by } : null;
}

/**
 * The optimal-string-alignment distance between two keys (Levenshtein plus swapping two neighbouring
 * characters, the commonest typo), or `limit + 1` as soon as it is known to exceed `limit`.
 */
export function editDistance(a: string, b: string, limit: number): number {
  const s = [...a];
  const t = [...b];
  if (Math.abs(s.length - t.length) > limit) return limit + 1;
  // Rows of the distance table, read through `at` (every index read is inside the rows).
  const at = (row: number[], j: number) => row[j] ?? Infinity;
  let before: number[] = [];
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let value = Math.min(at(previous, j) + 1, at(current, j - 1) + 1, at(previous, j - 1) + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) value = Math.min(value, at(before, j - 2) + 1);
      current.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    [before, previous] = [previous, current];
  }
  return Math.min(at(previous, t.length), limit + 1);
}
