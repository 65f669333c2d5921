/**
 * A search term as a PostgREST `ilike` pattern inside a double-quoted value (for `.or(...)` filters): LIKE
 * wildcards in the term are matched literally, and quotes/backslashes are escaped so commas or parentheses
 * cannot break the filter. The posts list and the Media Library search both use it.
 */
export function ilikePattern(term: string): string {
  const literal = term.replace(/[\\%_]/g, (c) => `\\${c}`);
  return `"*${literal.replace(/["\\]/g, (c) => `\\${c}`)}*"`;
}
