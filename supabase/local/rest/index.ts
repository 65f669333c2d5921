/**
 * The PostgREST-compatible handler behind `/rest/v1`: one transaction per request, run as the caller's role
 * with its JWT claims, answering with PostgREST 12's bodies, headers and status codes.
 */
import type pg from 'pg';
import type { RequestAuth } from '../request-auth.ts';
import { ApiError, errorResponse } from './errors.ts';
import { parseQueryParams, type QueryParams } from './query-params.ts';
import { SchemaCacheKeeper, type SchemaCache } from './schema-cache.ts';
import {
  deleteStatement, findFunction, findTable, insertStatement, readStatement, rpcStatement, updateStatement,
  type RpcShape, type Statement,
} from './statements.ts';

/** The schema PostgREST exposes (Supabase's default `db-schemas`, supabase/config.toml `[api] schemas`). */
const EXPOSED_SCHEMA = 'public';
/** Every schema a client may name in Accept-Profile / Content-Profile; graphql_public has nothing we serve. */
const PROFILE_SCHEMAS = [EXPOSED_SCHEMA, 'graphql_public'];
const ROLES = new Set(['anon', 'authenticated', 'service_role']);
const OBJECT_MEDIA_TYPE = 'application/vnd.pgrst.object+json';

/** The handler the local server mounts at `/rest/v1`; `close` stops the schema-reload listener. */
export function createRestHandler(pool: pg.Pool): { handle(req: Request, auth: RequestAuth): Promise<Response>; close(): Promise<void> } {
  const schema = new SchemaCacheKeeper(pool, EXPOSED_SCHEMA);
  return {
    async handle(req, auth) {
      try {
        return await handleRequest(pool, await schema.get(), req, auth);
      } catch (error) {
        return errorResponse(error, auth.role);
      }
    },
    close: () => schema.close(),
  };
}

/** `Prefer` header values, e.g. `return=representation, count=exact`. */
type Preferences = Record<string, string>;

function preferences(req: Request): Preferences {
  const result: Preferences = {};
  for (const part of (req.headers.get('prefer') ?? '').split(',')) {
    const [key, value] = part.trim().split('=');
    if (key) result[key] = value ?? '';
  }
  return result;
}

async function readJsonBody(req: Request): Promise<unknown> {
  const text = await req.text();
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, { code: 'PGRST102', message: 'Empty or invalid json', details: (error as Error).message });
  }
}

/** PostgREST refuses a request that names a schema it does not expose (private helpers stay unreachable). */
function checkProfile(req: Request): void {
  for (const header of ['accept-profile', 'content-profile']) {
    const named = req.headers.get(header);
    if (named !== null && !PROFILE_SCHEMAS.includes(named)) {
      throw new ApiError(406, {
        code: 'PGRST106',
        message: `Invalid schema: ${named}`,
        hint: `Only the following schemas are exposed: ${PROFILE_SCHEMAS.join(', ')}`,
      });
    }
  }
}

/** What the SQL answered, before it becomes an HTTP response. */
type Outcome = { total: number | null; pageTotal: number; body: string | null };

async function handleRequest(pool: pg.Pool, cache: SchemaCache, req: Request, auth: RequestAuth): Promise<Response> {
  const url = new URL(req.url);
  const segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const [first = '', second = ''] = segments;
  const method = req.method.toUpperCase();
  const prefer = preferences(req);
  const wantsObject = (req.headers.get('accept') ?? '').includes(OBJECT_MEDIA_TYPE);
  const withCount = ['exact', 'planned', 'estimated'].includes(prefer.count ?? '');
  const representation = prefer.return === 'representation';
  checkProfile(req);

  if (segments.length === 2 && first === 'rpc') {
    if (!['GET', 'HEAD', 'POST'].includes(method)) throw methodNotAllowed(method);
    const overloads = cache.functions.get(second) ?? [];
    const query = parseQueryParams(url.searchParams, method === 'POST' ? undefined : (name) => overloads.some((fn) => fn.args.some((arg) => arg.name === name)));
    const body = method === 'POST' ? await readJsonBody(req) : Object.fromEntries(query.rpcArgs);
    if (body !== null && (typeof body !== 'object' || Array.isArray(body))) {
      throw new ApiError(400, { code: 'PGRST102', message: 'Function arguments must be a JSON object' });
    }
    const args = (body ?? {}) as Record<string, unknown>;
    const fn = findFunction(cache, second, Object.keys(args));
    const { statement, shape } = rpcStatement(cache, fn, args, query, withCount);
    const outcome = await execute(pool, cache, req, auth, statement, method !== 'POST', prefer.tx === 'rollback', wantsObject);
    return rpcResponse(shape, outcome, wantsObject, method === 'HEAD');
  }
  if (segments.length !== 1) {
    throw new ApiError(404, { code: 'PGRST125', message: `Invalid path specified in request URL` });
  }
  const table = findTable(cache, first);
  const query = parseQueryParams(url.searchParams);
  applyRangeHeader(req, query);
  let statement: Statement | null;
  switch (method) {
    case 'GET':
    case 'HEAD':
      statement = readStatement(cache, table, query, withCount);
      break;
    case 'POST': {
      const body = await readJsonBody(req);
      statement = insertStatement(cache, table, query, body ?? {}, {
        representation: representation || prefer.return === 'headers-only',
        resolution: prefer.resolution === 'merge-duplicates' || prefer.resolution === 'ignore-duplicates' ? prefer.resolution : null,
        missingDefault: prefer.missing === 'default',
      });
      break;
    }
    case 'PATCH':
      statement = updateStatement(cache, table, query, (await readJsonBody(req)) ?? {}, representation);
      break;
    case 'DELETE':
      statement = deleteStatement(cache, table, query, representation);
      break;
    default:
      throw methodNotAllowed(method);
  }
  const outcome: Outcome = statement
    ? await execute(pool, cache, req, auth, statement, method === 'GET' || method === 'HEAD', prefer.tx === 'rollback', wantsObject)
    : { total: null, pageTotal: 0, body: '[]' };
  if (method === 'GET' || method === 'HEAD') return readResponse(outcome, query, wantsObject, method === 'HEAD');
  return mutationResponse(method, outcome, wantsObject, prefer, table.name, table.primaryKey);
}

function methodNotAllowed(method: string): ApiError {
  return new ApiError(405, { code: 'PGRST117', message: `Unsupported HTTP method: ${method}` });
}

/** `Range: 0-9` (with `Range-Unit: items`) pages like `offset=0&limit=10` when the query string does not. */
function applyRangeHeader(req: Request, query: QueryParams): void {
  const match = /^(?:items=)?(\d+)-(\d*)$/.exec(req.headers.get('range') ?? '');
  const root = query.nodes.get('')!;
  if (!match || req.method.toUpperCase() !== 'GET') return;
  const from = Number(match[1]);
  root.offset ??= from;
  if (match[2] !== '' && root.limit === null) root.limit = Number(match[2]) - from + 1;
}

/**
 * Runs one statement in its own transaction as the caller: `role` and `request.*` settings are local to the
 * transaction, so a pooled connection never carries one caller's identity into another's request. The
 * pre-request function, when one is configured, runs first and may refuse the request by raising.
 */
async function execute(pool: pg.Pool, cache: SchemaCache, req: Request, auth: RequestAuth, statement: Statement, readOnly: boolean, rollback: boolean, singleObject: boolean): Promise<Outcome> {
  if (!ROLES.has(auth.role)) throw new ApiError(401, { code: 'PGRST301', message: `Unknown role "${auth.role}"` });
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query(readOnly ? 'BEGIN READ ONLY' : 'BEGIN');
    try {
      const url = new URL(req.url);
      await client.query(
        `SELECT set_config('role', $1, true), set_config('request.jwt.claims', $2, true),
                set_config('request.method', $3, true), set_config('request.path', $4, true),
                set_config('request.headers', $5, true)`,
        [auth.role, JSON.stringify(auth.claims), req.method, url.pathname, JSON.stringify(Object.fromEntries(req.headers))],
      );
      if (cache.preRequest) await client.query(`SELECT ${qualifiedName(cache.preRequest)}()`);
      const result = await client.query(statement.sql, statement.params);
      const outcome: Outcome = statement.plain
        ? { total: null, pageTotal: result.rowCount ?? 0, body: null }
        : { total: result.rows[0].total === null ? null : Number(result.rows[0].total), pageTotal: Number(result.rows[0].page_total), body: result.rows[0].body };
      // PostgREST rolls back a mutation whose single-object answer would be refused.
      const refused = singleObject && outcome.pageTotal !== 1 && !statement.plain;
      await client.query(rollback || refused ? 'ROLLBACK' : 'COMMIT');
      return outcome;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => { broken = rollbackError; });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

/** `schema.name` as a quoted SQL identifier, so a configured name can never be more than a name. */
function qualifiedName(name: string): string {
  return name.split('.').map((part) => `"${part.replace(/"/g, '""')}"`).join('.');
}

function singleObjectError(rows: number): ApiError {
  return new ApiError(406, {
    code: 'PGRST116',
    message: 'JSON object requested, multiple (or no) rows returned',
    details: `The result contains ${rows} rows`,
  });
}

/** The single element of a JSON array that Postgres produced. */
function onlyElement(body: string): string {
  return JSON.stringify((JSON.parse(body) as unknown[])[0]);
}

function jsonResponse(status: number, body: string | null, headers: Record<string, string>, asObject: boolean): Response {
  return new Response(body, {
    status,
    headers: { 'content-type': `${asObject ? OBJECT_MEDIA_TYPE : 'application/json'}; charset=utf-8`, ...headers },
  });
}

function contentRange(offset: number, rows: number, total: number | null): string {
  const range = rows === 0 ? '*' : `${offset}-${offset + rows - 1}`;
  return `${range}/${total ?? '*'}`;
}

function readResponse(outcome: Outcome, query: QueryParams, asObject: boolean, head: boolean): Response {
  const offset = query.nodes.get('')!.offset ?? 0;
  const { total, pageTotal } = outcome;
  if (total !== null && offset > 0 && offset >= total && total > 0) {
    throw new ApiError(416, {
      code: 'PGRST103', message: 'Requested range not satisfiable',
      details: `An offset of ${offset} was requested, but there are only ${total} rows.`,
    }, { 'content-range': `*/${total}` });
  }
  if (asObject && pageTotal !== 1) throw singleObjectError(pageTotal);
  const partial = total !== null && pageTotal < total;
  const body = asObject ? onlyElement(outcome.body!) : outcome.body;
  return jsonResponse(partial ? 206 : 200, head ? null : body, { 'content-range': contentRange(offset, pageTotal, total) }, asObject);
}

function mutationResponse(method: string, outcome: Outcome, asObject: boolean, prefer: Preferences, tableName: string, primaryKey: string[]): Response {
  const created = method === 'POST';
  const range = created ? '*/*' : contentRange(0, outcome.pageTotal, null);
  if (prefer.return === 'representation') {
    if (asObject && outcome.pageTotal !== 1) throw singleObjectError(outcome.pageTotal);
    const body = asObject ? onlyElement(outcome.body!) : outcome.body;
    return jsonResponse(created ? 201 : 200, body, { 'content-range': range, 'preference-applied': 'return=representation' }, asObject);
  }
  const headers: Record<string, string> = { 'content-range': range };
  if (created && prefer.return === 'headers-only' && outcome.body) {
    const first = (JSON.parse(outcome.body) as Record<string, unknown>[])[0];
    if (first && primaryKey.length) {
      headers.location = `/${tableName}?${primaryKey.map((key) => `${key}=eq.${encodeURIComponent(String(first[key]))}`).join('&')}`;
    }
  }
  return new Response(null, { status: created ? 201 : 204, headers });
}

function rpcResponse(shape: RpcShape, outcome: Outcome, asObject: boolean, head: boolean): Response {
  if (shape === 'void') return new Response(null, { status: 204 });
  if (shape === 'array') {
    if (asObject) {
      if (outcome.pageTotal !== 1) throw singleObjectError(outcome.pageTotal);
      return jsonResponse(200, head ? null : onlyElement(outcome.body!), {}, true);
    }
    return jsonResponse(200, head ? null : outcome.body, { 'content-range': contentRange(0, outcome.pageTotal, outcome.total) }, false);
  }
  const body = shape === 'object' ? (outcome.pageTotal ? onlyElement(outcome.body!) : 'null') : outcome.body ?? 'null';
  return jsonResponse(200, head ? null : body, {}, asObject);
}
