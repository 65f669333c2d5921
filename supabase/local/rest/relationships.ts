/** Finding the foreign key an embed (`author:profiles!hint(...)`) goes through, with PostgREST's errors. */
import { ApiError } from './errors.ts';
import type { SchemaCache, Table } from './schema-cache.ts';

/** How a parent row relates to the rows of the embedded table. */
export type Relationship = {
  constraint: string;
  cardinality: 'many-to-one' | 'one-to-many' | 'one-to-one';
  /** The embedded table. */
  target: Table;
  /** Column pairs: `parentColumns[i]` equals `targetColumns[i]`. */
  parentColumns: string[];
  targetColumns: string[];
};

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((c) => b.includes(c));

/** Resolves the embed `name` (table, FK name or FK column) of `parent`, narrowed by an optional `hint`. */
export function resolveRelationship(cache: SchemaCache, parent: Table, name: string, hint: string | null): Relationship {
  const candidates: Relationship[] = [];
  for (const fk of cache.foreignKeys) {
    const outgoing = fk.table === parent.name;
    const incoming = fk.foreignTable === parent.name;
    if (outgoing && (fk.foreignTable === name || fk.constraint === name || sameColumns(fk.columns, [name]))) {
      const target = cache.tables.get(fk.foreignTable);
      if (target) {
        candidates.push({
          constraint: fk.constraint, cardinality: 'many-to-one', target,
          parentColumns: fk.columns, targetColumns: fk.foreignColumns,
        });
      }
    }
    if (incoming && fk.table === name) {
      const target = cache.tables.get(fk.table)!;
      const unique = target.uniqueKeys.some((key) => sameColumns(key, fk.columns));
      candidates.push({
        constraint: fk.constraint, cardinality: unique ? 'one-to-one' : 'one-to-many', target,
        parentColumns: fk.foreignColumns, targetColumns: fk.columns,
      });
    }
  }
  let matching = hint === null ? candidates : candidates.filter((rel) =>
    rel.constraint === hint || sameColumns(rel.parentColumns, [hint]) || sameColumns(rel.targetColumns, [hint]));
  // A column hint names the parent's own column first: on a self reference `!parent_id` means the parent row.
  const bySourceColumn = matching.filter((rel) => hint !== null && sameColumns(rel.parentColumns, [hint]));
  if (matching.length > 1 && bySourceColumn.length === 1) matching = bySourceColumn;
  if (matching.length === 1) return matching[0]!;
  if (matching.length === 0) {
    throw new ApiError(400, {
      code: 'PGRST200',
      message: `Could not find a relationship between '${parent.name}' and '${name}' in the schema cache`,
      details: `Searched for a foreign key relationship between '${parent.name}' and '${name}'${hint ? ` using the hint '${hint}'` : ''} in the schema '${cache.schema}', but no matches were found.`,
      hint: null,
    });
  }
  throw new ApiError(300, {
    code: 'PGRST201',
    message: `Could not embed because more than one relationship was found for '${parent.name}' and '${name}'`,
    details: matching.map((rel) => ({
      cardinality: rel.cardinality,
      embedding: `${parent.name} with ${rel.target.name}`,
      relationship: rel.cardinality === 'many-to-one'
        ? `${rel.constraint} using ${parent.name}(${rel.parentColumns.join(', ')}) and ${rel.target.name}(${rel.targetColumns.join(', ')})`
        : `${rel.constraint} using ${rel.target.name}(${rel.targetColumns.join(', ')}) and ${parent.name}(${rel.parentColumns.join(', ')})`,
    })),
    hint: `Try changing '${name}' to one of the following: ${matching.map((rel) => `'${name}!${rel.constraint}'`).join(', ')}. Find the desired relationship in the 'details' key.`,
  });
}
