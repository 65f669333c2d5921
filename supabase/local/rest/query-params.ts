/**
 * Parsing of PostgREST's query-string language: `select`, horizontal filters, `or`/`and` trees, `order`,
 * `limit`/`offset`, each possibly scoped to an embedded resource (`comments.order=...`).
 */
import { parseError } from './errors.ts';

/** One step of a JSON path: `->key` keeps JSON, `->>key` yields text. */
export type JsonStep = { arrow: '->' | '->>'; key: string };

/** A column reference with an optional JSON path (`data->a->>b`). */
export type Field = { name: string; jsonPath: JsonStep[] };

/** One entry of `select=`. */
export type SelectItem =
  | { kind: 'star' }
  | { kind: 'field'; field: Field; alias: string | null; cast: string | null }
  | { kind: 'embed'; name: string; alias: string | null; hint: string | null; inner: boolean; select: SelectItem[] };

/** A single comparison such as `age=gte.18` or `not.tags=cs.{a}`. */
export type Filter = {
  kind: 'filter';
  field: Field;
  negate: boolean;
  op: string;
  /** A string for most operators, a list for `in`. */
  value: string | string[];
  /** Text search configuration for `fts(english)`. */
  language: string | null;
};

/** `or=(...)` / `and=(...)`, nested. */
export type LogicTree = { kind: 'and' | 'or'; negate: boolean; children: Condition[] };

export type Condition = Filter | LogicTree;

export type OrderTerm = { field: Field; descending: boolean; nulls: 'first' | 'last' | null };

/** Filters, order and paging that apply at one level of the embedding tree. */
export type NodeParams = { conditions: Condition[]; order: OrderTerm[]; limit: number | null; offset: number | null };

export const OPERATORS = new Set([
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'is', 'isdistinct', 'in',
  'cs', 'cd', 'ov', 'sl', 'sr', 'nxl', 'nxr', 'adj', 'fts', 'plfts', 'phfts', 'wfts',
]);

// ---------------------------------------------------------------------------------------------- select

/** Parses a `select=` value into a tree of columns and embeds. */
export function parseSelect(input: string): SelectItem[] {
  const text = stripWhitespace(input);
  if (text === '') return [{ kind: 'star' }];
  const cursor = { pos: 0 };
  const items = parseSelectList(text, cursor);
  if (cursor.pos !== text.length) {
    throw parseError(`"failed to parse select parameter (${input})" (line 1, column ${cursor.pos + 1})`,
      `unexpected "${text[cursor.pos]}" expecting end of input`);
  }
  return items;
}

/** Removes whitespace outside double quotes (supabase-js does the same before sending). */
function stripWhitespace(text: string): string {
  let quoted = false;
  let out = '';
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    if (!quoted && /\s/.test(ch)) continue;
    out += ch;
  }
  return out;
}

function parseSelectList(text: string, cursor: { pos: number }): SelectItem[] {
  const items: SelectItem[] = [];
  for (;;) {
    items.push(parseSelectItem(text, cursor));
    if (text[cursor.pos] !== ',') return items;
    cursor.pos++;
  }
}

function readName(text: string, cursor: { pos: number }): string {
  if (text[cursor.pos] === '"') {
    const end = text.indexOf('"', cursor.pos + 1);
    if (end < 0) throw parseError(`"failed to parse select parameter (${text})"`, 'unterminated quoted name');
    const name = text.slice(cursor.pos + 1, end);
    cursor.pos = end + 1;
    return name;
  }
  const start = cursor.pos;
  while (cursor.pos < text.length) {
    const ch = text[cursor.pos]!;
    if (',()!:."'.includes(ch) || (ch === '-' && text[cursor.pos + 1] === '>')) break;
    cursor.pos++;
  }
  if (cursor.pos === start) {
    throw parseError(`"failed to parse select parameter (${text})" (line 1, column ${start + 1})`,
      `unexpected ${text[start] === undefined ? 'end of input' : `"${text[start]}"`} expecting field name (* or [a..z0..9_$])`);
  }
  return text.slice(start, cursor.pos);
}

function parseSelectItem(text: string, cursor: { pos: number }): SelectItem {
  if (text[cursor.pos] === '*') {
    cursor.pos++;
    return { kind: 'star' };
  }
  let name = readName(text, cursor);
  let alias: string | null = null;
  if (text[cursor.pos] === ':' && text[cursor.pos + 1] !== ':') {
    cursor.pos++;
    alias = name;
    name = readName(text, cursor);
  }
  if (text[cursor.pos] === '!' || text[cursor.pos] === '(') {
    let hint: string | null = null;
    let inner = false;
    while (text[cursor.pos] === '!') {
      cursor.pos++;
      const word = readName(text, cursor);
      if (word === 'inner') inner = true;
      else if (word !== 'left') hint = word;
    }
    if (text[cursor.pos] !== '(') throw parseError(`"failed to parse select parameter (${text})"`, `expecting "(" after "${name}"`);
    cursor.pos++;
    const select = text[cursor.pos] === ')' ? [] : parseSelectList(text, cursor);
    if (text[cursor.pos] !== ')') throw parseError(`"failed to parse select parameter (${text})"`, `expecting ")" to close "${name}("`);
    cursor.pos++;
    return { kind: 'embed', name, alias, hint, inner, select };
  }
  const jsonPath = parseJsonPath(text, cursor);
  let cast: string | null = null;
  if (text.startsWith('::', cursor.pos)) {
    cursor.pos += 2;
    const match = /^[A-Za-z_][A-Za-z0-9_]*(\[\])?/.exec(text.slice(cursor.pos));
    if (!match) throw parseError(`"failed to parse select parameter (${text})"`, 'expecting a type name after "::"');
    cast = match[0];
    cursor.pos += match[0].length;
  }
  return { kind: 'field', field: { name, jsonPath }, alias, cast };
}

function parseJsonPath(text: string, cursor: { pos: number }): JsonStep[] {
  const path: JsonStep[] = [];
  while (text.startsWith('->', cursor.pos)) {
    const arrow = text.startsWith('->>', cursor.pos) ? '->>' : '->';
    cursor.pos += arrow.length;
    path.push({ arrow, key: readName(text, cursor) });
  }
  return path;
}

/** Parses a column reference in a filter or order key (`name`, `data->a->>b`). */
export function parseField(text: string): Field {
  const cursor = { pos: 0 };
  const name = readName(text, cursor);
  const jsonPath = parseJsonPath(text, cursor);
  if (cursor.pos !== text.length) throw parseError(`"failed to parse field (${text})"`, `unexpected "${text[cursor.pos]}"`);
  return { name, jsonPath };
}

// --------------------------------------------------------------------------------------------- filters

/** Parses the value side of a filter (`not.in.(1,2)`) for `field`. */
export function parseFilter(field: Field, expression: string): Filter {
  let rest = expression;
  let negate = false;
  if (rest.startsWith('not.')) {
    negate = true;
    rest = rest.slice(4);
  }
  const match = /^([a-z]+)(?:\(([A-Za-z_]+)\))?\.([\s\S]*)$/.exec(rest);
  if (!match || !OPERATORS.has(match[1] ?? '')) {
    throw parseError(`"failed to parse filter (${expression})" (line 1, column ${expression.length + 1})`,
      'unexpected end of input expecting operator (eq, gt, ...)');
  }
  const op = match[1]!;
  const language = match[2] ?? null;
  const raw = match[3] ?? '';
  if (language && !['fts', 'plfts', 'phfts', 'wfts'].includes(op)) {
    throw parseError(`"failed to parse filter (${expression})"`, `operator ${op} takes no language`);
  }
  if (op === 'in') {
    if (!raw.startsWith('(') || !raw.endsWith(')')) {
      throw parseError(`"failed to parse filter (${expression})"`, 'expecting a list like (1,2,3)');
    }
    return { kind: 'filter', field, negate, op, value: splitList(raw.slice(1, -1)).map(unquote), language };
  }
  if (op === 'is' && !/^(null|not_null|true|false|unknown)$/i.test(raw)) {
    throw parseError(`"failed to parse filter (${expression})"`, 'expecting null, not_null, true, false or unknown');
  }
  return { kind: 'filter', field, negate, op, value: raw, language };
}

/** Splits on top-level commas, keeping `"..."`, `(...)` and `{...}` together. */
function splitList(text: string): string[] {
  if (text === '') return [];
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && quoted) {
      i++;
      continue;
    }
    if (ch === '"') quoted = !quoted;
    else if (quoted) continue;
    else if (ch === '(' || ch === '{' || ch === '[') depth++;
    else if (ch === ')' || ch === '}' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  if (quoted || depth !== 0) throw parseError(`"failed to parse logic tree or list (${text})"`, 'unbalanced quotes or parentheses');
  parts.push(text.slice(start));
  return parts;
}

/** `"a,b"` → `a,b`, with backslash escapes, as PostgREST reads quoted list and logic-tree values. */
function unquote(text: string): string {
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1).replace(/\\(.)/g, '$1');
  return text;
}

/** Parses the `(...)` of `or=` / `and=` (also nested `and(...)`, `not.or(...)`). */
export function parseLogicTree(kind: 'and' | 'or', negate: boolean, text: string): LogicTree {
  if (!text.startsWith('(') || !text.endsWith(')')) {
    throw parseError(`"failed to parse logic tree (${text})" (line 1, column 1)`, 'unexpected input expecting "("');
  }
  const children = splitList(text.slice(1, -1)).map((part): Condition => {
    const nested = /^(not\.)?(and|or)(\(.*\))$/s.exec(part);
    if (nested) return parseLogicTree(nested[2] as 'and' | 'or', Boolean(nested[1]), nested[3]!);
    const dot = part.indexOf('.');
    if (dot < 0) throw parseError(`"failed to parse logic tree (${text})"`, `"${part}" is not a filter`);
    const filter = parseFilter(parseField(part.slice(0, dot)), part.slice(dot + 1));
    if (typeof filter.value === 'string') filter.value = unquote(filter.value);
    return filter;
  });
  return { kind, negate, children };
}

// ----------------------------------------------------------------------------------------------- order

/** Parses `order=a.desc.nullslast,b`. */
export function parseOrder(text: string): OrderTerm[] {
  return splitList(text).map((term) => {
    const parts = term.split('.');
    const field = parseField(parts[0] ?? '');
    let descending = false;
    let nulls: OrderTerm['nulls'] = null;
    for (const modifier of parts.slice(1)) {
      if (modifier === 'asc') descending = false;
      else if (modifier === 'desc') descending = true;
      else if (modifier === 'nullsfirst') nulls = 'first';
      else if (modifier === 'nullslast') nulls = 'last';
      else throw parseError(`"failed to parse order (${text})"`, `unexpected "${modifier}" expecting "asc", "desc", "nullsfirst" or "nullslast"`);
    }
    return { field, descending, nulls };
  });
}

function parseCount(name: string, value: string): number {
  if (!/^\d+$/.test(value)) throw parseError(`"failed to parse ${name} parameter (${value})"`, 'expecting a non-negative integer');
  return Number(value);
}

// ------------------------------------------------------------------------------------------- all params

/** Everything the query string says, grouped by the embed path it applies to ('' is the top level). */
export type QueryParams = {
  select: SelectItem[];
  nodes: Map<string, NodeParams>;
  onConflict: string[] | null;
  columns: string[] | null;
  /** Parameters left over for `GET /rpc/fn` arguments. */
  rpcArgs: Map<string, string>;
};

/** Reads the query string; `isArgument` claims parameters that are function arguments (GET /rpc). */
export function parseQueryParams(search: URLSearchParams, isArgument: (name: string) => boolean = () => false): QueryParams {
  const nodes = new Map<string, NodeParams>();
  const node = (path: string): NodeParams => {
    let found = nodes.get(path);
    if (!found) {
      found = { conditions: [], order: [], limit: null, offset: null };
      nodes.set(path, found);
    }
    return found;
  };
  node('');
  const rpcArgs = new Map<string, string>();
  let select: SelectItem[] = [{ kind: 'star' }];
  let onConflict: string[] | null = null;
  let columns: string[] | null = null;
  for (const [key, value] of search) {
    if (key === 'select') select = parseSelect(value);
    else if (key === 'on_conflict') onConflict = splitList(value).map((name) => unquote(name.trim()));
    else if (key === 'columns') columns = splitList(value).map((name) => unquote(name.trim()));
    else if (isArgument(key)) rpcArgs.set(key, value);
    else {
      // `comments.order` scopes a parameter to an embed; `author.name` filters an embed's column.
      const segments = key.split('.');
      const last = segments.at(-1)!;
      if (last === 'or' || last === 'and') {
        const negate = segments.at(-2) === 'not';
        node(segments.slice(0, negate ? -2 : -1).join('.')).conditions.push(parseLogicTree(last, negate, value));
        continue;
      }
      const target = node(segments.slice(0, -1).join('.'));
      if (last === 'order') target.order.push(...parseOrder(value));
      else if (last === 'limit') target.limit = parseCount('limit', value);
      else if (last === 'offset') target.offset = parseCount('offset', value);
      else target.conditions.push(parseFilter(parseField(last), value));
    }
  }
  return { select, nodes, onConflict, columns, rpcArgs };
}
