/** Small helpers for building parameterized SQL: identifiers are quoted, values always become `$n`. */

/** Quotes an identifier the way Postgres' `quote_ident` does, always (so no keyword can slip through). */
export function ident(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The parameter list of one statement; `add` returns the placeholder to write into the SQL text. */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
