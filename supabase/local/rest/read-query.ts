/**
 * Builds the SQL of a read: the selected columns, embeds as lateral joins whose JSON Postgres builds
 * (`row_to_json` for to-one, `json_agg` for to-many, as PostgREST does), filters, order and paging.
 */
import type { Condition, Field, NodeParams, OrderTerm, SelectItem } from './query-params.ts';
import { resolveRelationship } from './relationships.ts';
import type { SchemaCache, Table } from './schema-cache.ts';
import { ident, Params } from './sql.ts';

/** Where rows come from: a table, a CTE of mutated rows, or a function call; `alias` names it in SQL. */
export type Source = { from: string; alias: string; table: Table };

/** The pieces of one SELECT, kept apart so the caller can add a count or strip paging. */
export type SelectParts = { columns: string[]; from: string; where: string[]; orderBy: string; limit: string };

/** Shared state of one statement: parameters and unique aliases. */
export type BuildContext = { cache: SchemaCache; params: Params; nodes: Map<string, NodeParams>; aliasCount: number };

const EMPTY_NODE: NodeParams = { conditions: [], order: [], limit: null, offset: null };

/** SQL for a column reference with its JSON path: `"t"."data"->'a'->>'b'`. */
export function fieldSql(ctx: BuildContext, alias: string, field: Field): string {
  let sql = `${ident(alias)}.${ident(field.name)}`;
  for (const step of field.jsonPath) {
    const key = /^-?\d+$/.test(step.key) ? `${ctx.params.add(Number(step.key))}::int` : `${ctx.params.add(step.key)}::text`;
    sql = `${sql}${step.arrow}${key}`;
  }
  return sql;
}

const COMPARISONS: Record<string, string> = {
  eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=', like: 'LIKE', ilike: 'ILIKE', match: '~',
  imatch: '~*', isdistinct: 'IS DISTINCT FROM', cs: '@>', cd: '<@', ov: '&&', sl: '<<', sr: '>>', nxl: '&<',
  nxr: '&>', adj: '-|-',
};
const TEXT_SEARCH: Record<string, string> = {
  fts: 'to_tsquery', plfts: 'plainto_tsquery', phfts: 'phraseto_tsquery', wfts: 'websearch_to_tsquery',
};

/** SQL for one filter or logic tree against the rows of `alias`. */
export function conditionSql(ctx: BuildContext, alias: string, condition: Condition): string {
  if (condition.kind !== 'filter') {
    const parts = condition.children.map((child) => conditionSql(ctx, alias, child));
    const joined = parts.length ? `(${parts.join(condition.kind === 'and' ? ' AND ' : ' OR ')})` : condition.kind === 'and' ? 'TRUE' : 'FALSE';
    return condition.negate ? `NOT ${joined}` : joined;
  }
  const column = fieldSql(ctx, alias, condition.field);
  const value = condition.value;
  let sql: string;
  if (condition.op === 'in') {
    sql = `${column} = ANY(${ctx.params.add(value)})`;
  } else if (condition.op === 'is') {
    const word = (value as string).toLowerCase();
    sql = `${column} IS ${word === 'not_null' ? 'NOT NULL' : word.toUpperCase()}`;
  } else if (condition.op in TEXT_SEARCH) {
    const language = condition.language ? `${ctx.params.add(condition.language)}::regconfig, ` : '';
    sql = `${column} @@ ${TEXT_SEARCH[condition.op]}(${language}${ctx.params.add(value)})`;
  } else {
    // `*` is PostgREST's URL-safe wildcard for like/ilike.
    const text = condition.op === 'like' || condition.op === 'ilike' ? (value as string).replaceAll('*', '%') : value;
    sql = `${column} ${COMPARISONS[condition.op]} ${ctx.params.add(text)}`;
  }
  return condition.negate ? `NOT (${sql})` : sql;
}

function orderSql(ctx: BuildContext, alias: string, terms: OrderTerm[]): string {
  if (!terms.length) return '';
  const parts = terms.map((term) => `${fieldSql(ctx, alias, term.field)} ${term.descending ? 'DESC' : 'ASC'}${term.nulls ? ` NULLS ${term.nulls.toUpperCase()}` : ''}`);
  return ` ORDER BY ${parts.join(', ')}`;
}

function pagingSql(ctx: BuildContext, node: NodeParams): string {
  return `${node.limit !== null ? ` LIMIT ${ctx.params.add(node.limit)}` : ''}${node.offset ? ` OFFSET ${ctx.params.add(node.offset)}` : ''}`;
}

/** The output name of a selected field: its alias, else the last JSON key, else the column. */
function outputName(item: Extract<SelectItem, { kind: 'field' }>): string {
  return item.alias ?? item.field.jsonPath.at(-1)?.key ?? item.field.name;
}

/**
 * Builds the SELECT for `source` at embed `path`. `extraWhere` carries the join condition of an embed.
 * Inside an embed, a `count` that is not a column is PostgREST's `rel(count)` aggregate.
 */
export function buildSelect(ctx: BuildContext, source: Source, items: SelectItem[], path: string, extraWhere: string[] = []): SelectParts {
  const node = ctx.nodes.get(path) ?? EMPTY_NODE;
  const alias = source.alias;
  const columns: string[] = [];
  const joins: string[] = [];
  const where = [...extraWhere];
  for (const item of items) {
    if (item.kind === 'star') {
      columns.push(`${ident(alias)}.*`);
    } else if (item.kind === 'field') {
      if (item.field.name === 'count' && !item.field.jsonPath.length && !source.table.columns.has('count') && path !== '') {
        columns.push(`count(*) AS ${ident(item.alias ?? 'count')}`);
        continue;
      }
      const expression = fieldSql(ctx, alias, item.field);
      columns.push(`${item.cast ? `(${expression})::${item.cast}` : expression} AS ${ident(outputName(item))}`);
    } else {
      const embedded = buildEmbed(ctx, source, item, path);
      joins.push(embedded.join);
      columns.push(`${embedded.value} AS ${ident(item.alias ?? item.name)}`);
      if (embedded.innerCondition) where.push(embedded.innerCondition);
    }
  }
  for (const condition of node.conditions) where.push(conditionSql(ctx, alias, condition));
  return {
    columns,
    from: [source.from, ...joins].join(' '),
    where,
    orderBy: orderSql(ctx, alias, node.order),
    limit: pagingSql(ctx, node),
  };
}

/** Renders parts as one SELECT statement. */
export function renderSelect(parts: SelectParts, withPaging = true): string {
  const where = parts.where.length ? ` WHERE ${parts.where.join(' AND ')}` : '';
  return `SELECT ${parts.columns.join(', ') || 'NULL'} FROM ${parts.from}${where}${withPaging ? parts.orderBy + parts.limit : ''}`;
}

function buildEmbed(ctx: BuildContext, parent: Source, item: Extract<SelectItem, { kind: 'embed' }>, parentPath: string) {
  const relationship = resolveRelationship(ctx.cache, parent.table, item.name, item.hint);
  const path = parentPath ? `${parentPath}.${item.alias ?? item.name}` : item.alias ?? item.name;
  ctx.aliasCount += 1;
  const alias = `${relationship.target.name}_${ctx.aliasCount}`;
  const joinOn = relationship.parentColumns.map((column, i) =>
    `${ident(alias)}.${ident(relationship.targetColumns[i]!)} = ${ident(parent.alias)}.${ident(column)}`);
  const child: Source = { from: `${ident(ctx.cache.schema)}.${ident(relationship.target.name)} AS ${ident(alias)}`, alias, table: relationship.target };
  const parts = buildSelect(ctx, child, item.select.length ? item.select : [{ kind: 'star' }], path, joinOn);
  if (relationship.cardinality !== 'one-to-many') {
    const lateral = `${alias}_row`;
    return {
      join: `${item.inner ? 'INNER' : 'LEFT'} JOIN LATERAL (${renderSelect(parts)}) AS ${ident(lateral)} ON TRUE`,
      value: `row_to_json(${ident(lateral)}.*)`,
      innerCondition: null,
    };
  }
  const lateral = `${alias}_agg`;
  return {
    join: `LEFT JOIN LATERAL (SELECT json_agg(${ident(alias)}) AS body FROM (${renderSelect(parts)}) AS ${ident(alias)}) AS ${ident(lateral)} ON TRUE`,
    value: `COALESCE(${ident(lateral)}.body, '[]')`,
    innerCondition: item.inner ? `${ident(lateral)}.body IS NOT NULL` : null,
  };
}
