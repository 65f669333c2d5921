/**
 * Search terms as `ilike` patterns that match the term as typed: `%` and `_` are LIKE's wildcards and `\` its
 * escape, so each is escaped. One module for every search in the product: the back office's lists (posts,
 * media, users) and the WordPress API's `search` parameter.
 */

/** The term with LIKE's wildcards and escape escaped, for one column's filter: `.ilike(column, `%${likeLiteral(term)}%`)`. */
export function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The term as a PostgREST `ilike` pattern inside a double-quoted value, for `.or(...)` filters over several
 * columns: quotes and backslashes are escaped too, so commas or parentheses in the term cannot break the filter.
 */
export function ilikePattern(term: string): string {
  return `"*${likeLiteral(term).replace(/["\\]/g, (c) => `\\${c}`)}*"`;
}
