/**
 * The one SQL statement each request runs. Every statement answers with the same three columns so the
 * HTTP layer treats them alike: `total` (count for `Prefer: count=exact`, else null), `page_total` (rows in
 * this response) and `body` (the JSON text, built by Postgres itself).
 */
import { ApiError } from './errors.ts';
import type { NodeParams, QueryParams, SelectItem } from './query-params.ts';
import { buildSelect, conditionSql, renderSelect, type BuildContext, type Source } from './read-query.ts';
import type { SchemaCache, SqlFunction, Table } from './schema-cache.ts';
import { ident, Params } from './sql.ts';

/** `plain` statements return no rows: the affected row count comes from the command tag. */
export type Statement = { sql: string; params: unknown[]; plain?: boolean };

function context(cache: SchemaCache, nodes: Map<string, NodeParams>): BuildContext {
  return { cache, params: new Params(), nodes, aliasCount: 0 };
}

function qualified(cache: SchemaCache, name: string): string {
  return `${ident(cache.schema)}.${ident(name)}`;
}

/** 42P01 as PostgREST 12 reports an unknown table or view. */
export function findTable(cache: SchemaCache, name: string): Table {
  const table = cache.tables.get(name);
  if (!table) {
    throw new ApiError(404, { code: '42P01', message: `relation "${cache.schema}.${name}" does not exist` });
  }
  return table;
}

/** Wraps a row source: aggregates it into the body and, when asked, counts the unpaged rows. */
function aggregate(ctx: BuildContext, source: Source, select: SelectItem[], withCount: boolean, prefix = ''): Statement {
  const parts = buildSelect(ctx, source, select, '');
  const total = withCount
    ? `(SELECT count(*) FROM ${parts.from}${parts.where.length ? ` WHERE ${parts.where.join(' AND ')}` : ''})`
    : 'NULL::bigint';
  const sql = `${prefix}${prefix ? ', ' : 'WITH '}pgrst_source AS (${renderSelect(parts)}) `
    + `SELECT ${total} AS total, count(*) AS page_total, coalesce(json_agg(_postgrest_t), '[]')::text AS body `
    + 'FROM pgrst_source AS _postgrest_t';
  return { sql, params: ctx.params.values };
}

/** GET /table. */
export function readStatement(cache: SchemaCache, table: Table, query: QueryParams, withCount: boolean): Statement {
  const ctx = context(cache, query.nodes);
  const source: Source = { from: `${qualified(cache, table.name)} AS ${ident(table.name)}`, alias: table.name, table };
  return aggregate(ctx, source, query.select, withCount);
}

/** Filters of a PATCH/DELETE select the rows to change; the returned representation is not filtered again. */
function representationNodes(query: QueryParams): Map<string, NodeParams> {
  const nodes = new Map(query.nodes);
  nodes.set('', { conditions: [], order: query.nodes.get('')?.order ?? [], limit: null, offset: null });
  return nodes;
}

/**
 * Finishes a data-modifying statement: with a representation the changed rows (`RETURNING *`) are read
 * back with the requested select and embeds; without one nothing is returned, so SELECT policies do not
 * apply to the new rows (as in PostgREST, `return=minimal` inserts need no read access).
 */
function finishMutation(cache: SchemaCache, table: Table, query: QueryParams, ctx: BuildContext, mutation: string, representation: boolean): Statement {
  if (!representation) {
    return { sql: mutation, params: ctx.params.values, plain: true };
  }
  const readCtx: BuildContext = { ...ctx, nodes: representationNodes(query) };
  const source: Source = { from: `pgrst_mutation AS ${ident(table.name)}`, alias: table.name, table };
  return aggregate(readCtx, source, query.select, false, `WITH pgrst_mutation AS (${mutation} RETURNING ${ident(table.name)}.*)`);
}

function unknownColumn(table: Table, column: string): ApiError {
  return new ApiError(400, { code: 'PGRST204', message: `Could not find the '${column}' column of '${table.name}' in the schema cache` });
}

export type InsertOptions = {
  representation: boolean;
  resolution: 'merge-duplicates' | 'ignore-duplicates' | null;
  missingDefault: boolean;
};

/**
 * POST /table: insert (or upsert) one object or an array of objects. The body is read once for all rows, as
 * PostgREST does: `json_array_elements` splits it and each element is read into the row type once, so the
 * work grows with the body (a value per row and column taken by `$1::json->i` re-parsed the whole body
 * each time). Rows go in, and come back through RETURNING, in the body's order.
 *
 * With `Prefer: missing=default` a column no row gives is left out of the column list, so it takes its
 * DEFAULT exactly as Postgres applies it (identity and generated columns included). A column only some rows
 * give takes, in the rows without its key, the column's default expression from the schema cache: a CASE
 * keeps it one INSERT in input order, where one INSERT per key set would fire statement triggers once per
 * set, lose the order of the returned rows and let the sets' ON CONFLICT miss each other.
 */
export function insertStatement(cache: SchemaCache, table: Table, query: QueryParams, body: unknown, options: InsertOptions): Statement {
  const rows = (Array.isArray(body) ? body : [body]) as Record<string, unknown>[];
  if (rows.some((row) => row === null || typeof row !== 'object' || Array.isArray(row))) {
    throw new ApiError(400, { code: 'PGRST102', message: 'All object keys must match' });
  }
  const columns = query.columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  for (const column of columns) if (!table.columns.has(column)) throw unknownColumn(table, column);
  const given = options.missingDefault ? columns.filter((column) => rows.some((row) => column in row)) : columns;
  const ctx = context(cache, query.nodes);
  const target = `${qualified(cache, table.name)} AS ${ident(table.name)}`;
  let insert: string;
  if (rows.length === 0) {
    insert = `INSERT INTO ${target} SELECT * FROM ${qualified(cache, table.name)} WHERE FALSE`;
  } else if (given.length === 0) {
    insert = `INSERT INTO ${target} VALUES ${rows.map(() => '(DEFAULT)').join(', ')}`;
  } else {
    const json = ctx.params.add(JSON.stringify(rows));
    const value = (column: string) => {
      const read = `pgrst_body.${ident(column)}`;
      if (!options.missingDefault || rows.every((row) => column in row)) return read;
      const fallback = table.columns.get(column)!.defaultSql ?? 'NULL';
      return `CASE WHEN pgrst_element.value -> ${ctx.params.add(column)}::text IS NULL THEN ${fallback} ELSE ${read} END`;
    };
    insert = `INSERT INTO ${target} (${given.map(ident).join(', ')}) SELECT ${given.map(value).join(', ')} `
      + `FROM json_array_elements(${json}::json) AS pgrst_element, json_populate_record(NULL::${qualified(cache, table.name)}, pgrst_element.value) AS pgrst_body`;
  }
  if (options.resolution && rows.length) {
    const conflict = query.onConflict ?? table.primaryKey;
    if (!conflict.length) {
      throw new ApiError(400, { code: 'PGRST103', message: `There is no primary key on '${table.name}' to resolve duplicates: pass on_conflict` });
    }
    const updates = columns.filter((column) => !conflict.includes(column));
    insert += options.resolution === 'ignore-duplicates' || updates.length === 0
      ? ` ON CONFLICT (${conflict.map(ident).join(', ')}) DO NOTHING`
      : ` ON CONFLICT (${conflict.map(ident).join(', ')}) DO UPDATE SET ${updates.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`).join(', ')}`;
  }
  return finishMutation(cache, table, query, ctx, insert, options.representation);
}

function whereSql(ctx: BuildContext, table: Table, query: QueryParams): string {
  const conditions = (query.nodes.get('')?.conditions ?? []).map((condition) => conditionSql(ctx, table.name, condition));
  return conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
}

/**
 * PATCH /table?filters: update the matching rows with the body's columns. The body is read once, in FROM:
 * `(json_populate_record(...)).col` in SET would be evaluated again for every column of every matched row.
 */
export function updateStatement(cache: SchemaCache, table: Table, query: QueryParams, body: unknown, representation: boolean): Statement | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, { code: 'PGRST102', message: 'Empty or invalid json' });
  }
  const columns = Object.keys(body);
  if (columns.length === 0) return null;
  for (const column of columns) if (!table.columns.has(column)) throw unknownColumn(table, column);
  const ctx = context(cache, query.nodes);
  const json = ctx.params.add(JSON.stringify(body));
  const set = columns.map((column) => `${ident(column)} = pgrst_body.${ident(column)}`).join(', ');
  const update = `UPDATE ${qualified(cache, table.name)} AS ${ident(table.name)} SET ${set} `
    + `FROM json_populate_record(NULL::${qualified(cache, table.name)}, ${json}::json) AS pgrst_body${whereSql(ctx, table, query)}`;
  return finishMutation(cache, table, query, ctx, update, representation);
}

/** DELETE /table?filters. */
export function deleteStatement(cache: SchemaCache, table: Table, query: QueryParams, representation: boolean): Statement {
  const ctx = context(cache, query.nodes);
  const del = `DELETE FROM ${qualified(cache, table.name)} AS ${ident(table.name)}${whereSql(ctx, table, query)}`;
  return finishMutation(cache, table, query, ctx, del, representation);
}

// ------------------------------------------------------------------------------------------------- rpc

/** Picks the overload whose argument names fit the given ones, or fails with PGRST202 as PostgREST does. */
export function findFunction(cache: SchemaCache, name: string, given: string[]): SqlFunction {
  const overloads = cache.functions.get(name) ?? [];
  const fits = overloads.filter((fn) =>
    given.every((key) => fn.args.some((arg) => arg.name === key))
    && fn.args.every((arg) => arg.hasDefault || given.includes(arg.name)));
  const best = fits.sort((a, b) => a.args.length - b.args.length)[0];
  if (best) return best;
  const sorted = [...given].sort();
  const withParams = sorted.length ? `with parameters ${sorted.join(', ')}` : 'without parameters';
  throw new ApiError(404, {
    code: 'PGRST202',
    message: `Could not find the function ${cache.schema}.${name}${sorted.length ? `(${sorted.join(', ')})` : ' without parameters'} in the schema cache`,
    details: `Searched for the function ${cache.schema}.${name} ${withParams} or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.`,
  });
}

/** The shape of the answer of a function call, so the HTTP layer knows how to present the body. */
export type RpcShape = 'void' | 'scalar' | 'object' | 'array';

/** POST /rpc/fn or GET /rpc/fn: call with named arguments read from JSON, as PostgREST's `json_to_record`. */
export function rpcStatement(cache: SchemaCache, fn: SqlFunction, args: Record<string, unknown>, query: QueryParams, withCount: boolean): { statement: Statement; shape: RpcShape } {
  const ctx = context(cache, query.nodes);
  const names = Object.keys(args);
  const typed = names.map((key) => `${ident(key)} ${fn.args.find((arg) => arg.name === key)!.type}`);
  const argsFrom = names.length
    ? `json_to_record(${ctx.params.add(JSON.stringify(args))}::json) AS pgrst_args(${typed.join(', ')}) CROSS JOIN LATERAL `
    : '';
  const call = `${qualified(cache, fn.name)}(${names.map((key) => `${ident(key)} := pgrst_args.${ident(key)}`).join(', ')})`;
  if (fn.returnKind === 'void' || (fn.returnKind === 'scalar' && !fn.returnsSet)) {
    const value = fn.returnKind === 'void' ? 'NULL' : 'to_json(pgrst_scalar)::text';
    const sql = `SELECT NULL::bigint AS total, 1 AS page_total, ${value} AS body FROM ${argsFrom}${call} AS pgrst_scalar`;
    return { statement: { sql, params: ctx.params.values }, shape: fn.returnKind === 'void' ? 'void' : 'scalar' };
  }
  if (fn.returnKind === 'scalar') {
    const parts = buildSelect(ctx, { from: `${argsFrom}${call} AS pgrst_scalar`, alias: 'pgrst_scalar', table: pseudoTable(fn) }, [], '');
    const sql = `SELECT NULL::bigint AS total, count(*) AS page_total, coalesce(json_agg(pgrst_scalar), '[]')::text AS body FROM (${renderSelect({ ...parts, columns: ['pgrst_scalar'] })}) AS pgrst_source`;
    return { statement: { sql, params: ctx.params.values }, shape: 'array' };
  }
  const table = (fn.returnTable && cache.tables.get(fn.returnTable)) || pseudoTable(fn);
  const source: Source = { from: `${argsFrom}${call} AS ${ident(fn.name)}`, alias: fn.name, table };
  return { statement: aggregate(ctx, source, query.select, withCount), shape: fn.returnsSet ? 'array' : 'object' };
}

/** A stand-in table for functions returning `TABLE(...)`/OUT columns: no known columns or relationships. */
function pseudoTable(fn: SqlFunction): Table {
  return { name: fn.name, isView: false, columns: new Map(), primaryKey: [], uniqueKeys: [] };
}
