import type pg from 'pg';

/** One column as the API sees it. */
export type Column = { name: string; type: string; nullable: boolean; hasDefault: boolean };

/** A table or view of the exposed schema. */
export type Table = {
  name: string;
  isView: boolean;
  columns: Map<string, Column>;
  primaryKey: string[];
  /** Primary key and unique constraints, used to tell one-to-one from one-to-many. */
  uniqueKeys: string[][];
};

/** A foreign key between two relations of the exposed schema. */
export type ForeignKey = {
  constraint: string;
  table: string;
  columns: string[];
  foreignTable: string;
  foreignColumns: string[];
};

/** A function argument; `hasDefault` arguments may be left out of a call. */
export type FunctionArg = { name: string; type: string; hasDefault: boolean };

/** A callable function of the exposed schema (`/rpc/name`). */
export type SqlFunction = {
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  /** `scalar` returns one value; `composite` returns rows (a table's row type, OUT/TABLE columns, record). */
  returnKind: 'void' | 'scalar' | 'composite';
  /** The table whose row type the function returns, so its relationships can be embedded. */
  returnTable: string | null;
  volatile: boolean;
};

/** What the handler knows about the exposed schema, as PostgREST's schema cache. */
export type SchemaCache = {
  schema: string;
  tables: Map<string, Table>;
  foreignKeys: ForeignKey[];
  functions: Map<string, SqlFunction[]>;
  /**
   * PostgREST's `db-pre-request`: a function (`schema.name`) run at the start of every request's transaction,
   * after the caller's role and claims are set, which may refuse the request by raising. Read, as hosted
   * Supabase configures it, from `alter role authenticator set pgrst.db_pre_request = '...'`.
   */
  preRequest: string | null;
};

const PRE_REQUEST_SQL = `
  select substr(setting, length('pgrst.db_pre_request=') + 1) as name
  from pg_db_role_setting s, unnest(s.setconfig) setting
  where s.setrole = 'authenticator'::regrole
    and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
    and starts_with(setting, 'pgrst.db_pre_request=')
  order by s.setdatabase desc
  limit 1`;

const COLUMNS_SQL = `
  select c.relname as table, c.relkind in ('v', 'm') as is_view, a.attname as name,
         format_type(a.atttypid, a.atttypmod) as type, not a.attnotnull as nullable,
         (a.atthasdef or a.attidentity <> '' or a.attgenerated <> '') as has_default
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
  where n.nspname = $1 and c.relkind in ('r', 'v', 'm', 'f', 'p')
  order by c.relname, a.attnum`;

const CONSTRAINTS_SQL = `
  select con.conname as name, con.contype as type, cl.relname as table,
         array(select a.attname::text from unnest(con.conkey) with ordinality k(num, i)
               join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num order by k.i) as columns,
         fcl.relname as foreign_table,
         array(select a.attname::text from unnest(con.confkey) with ordinality k(num, i)
               join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num order by k.i) as foreign_columns
  from pg_constraint con
  join pg_class cl on cl.oid = con.conrelid
  join pg_namespace n on n.oid = cl.relnamespace
  left join pg_class fcl on fcl.oid = con.confrelid
  left join pg_namespace fn on fn.oid = fcl.relnamespace
  where n.nspname = $1 and con.contype in ('p', 'u', 'f') and (con.contype <> 'f' or fn.nspname = $1)
  order by con.conname`;

const FUNCTIONS_SQL = `
  select p.proname as name, p.proretset as returns_set, p.provolatile = 'v' as volatile,
         p.prorettype = 'void'::regtype as returns_void, t.typtype in ('c', 'p') as returns_composite,
         case when rn.nspname = $1 then rt.relname end as return_table,
         coalesce(p.proargnames, '{}') as arg_names,
         array(select format_type(x, null) from unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) x) as arg_types,
         coalesce(p.proargmodes::text[], '{}') as arg_modes, p.pronargdefaults as default_count
  from pg_proc p
  join pg_namespace n on n.oid = p.pronamespace
  join pg_type t on t.oid = p.prorettype
  left join pg_class rt on rt.oid = t.typrelid
  left join pg_namespace rn on rn.oid = rt.relnamespace
  where n.nspname = $1 and p.prokind = 'f'`;

/** Reads tables, columns, keys and functions of `schema` in one go. */
export async function loadSchemaCache(pool: pg.Pool, schema: string): Promise<SchemaCache> {
  const [columns, constraints, functions, preRequest] = await Promise.all([
    pool.query(COLUMNS_SQL, [schema]),
    pool.query(CONSTRAINTS_SQL, [schema]),
    pool.query<FunctionRow>(FUNCTIONS_SQL, [schema]),
    pool.query<{ name: string }>(PRE_REQUEST_SQL),
  ]);
  const tables = new Map<string, Table>();
  for (const row of columns.rows) {
    let table = tables.get(row.table);
    if (!table) {
      table = { name: row.table, isView: row.is_view, columns: new Map(), primaryKey: [], uniqueKeys: [] };
      tables.set(row.table, table);
    }
    table.columns.set(row.name, { name: row.name, type: row.type, nullable: row.nullable, hasDefault: row.has_default });
  }
  const foreignKeys: ForeignKey[] = [];
  for (const row of constraints.rows) {
    if (row.type === 'f') {
      foreignKeys.push({
        constraint: row.name, table: row.table, columns: row.columns,
        foreignTable: row.foreign_table, foreignColumns: row.foreign_columns,
      });
      continue;
    }
    const table = tables.get(row.table);
    if (!table) continue;
    if (row.type === 'p') table.primaryKey = row.columns;
    table.uniqueKeys.push(row.columns);
  }
  const byName = new Map<string, SqlFunction[]>();
  for (const row of functions.rows) byName.set(row.name, [...(byName.get(row.name) ?? []), toSqlFunction(row)]);
  return { schema, tables, foreignKeys, functions: byName, preRequest: preRequest.rows[0]?.name || null };
}

/** A row of FUNCTIONS_SQL. */
type FunctionRow = {
  name: string; returns_set: boolean; volatile: boolean; returns_void: boolean; returns_composite: boolean;
  return_table: string | null; arg_names: string[]; arg_types: string[]; arg_modes: string[]; default_count: number;
};

function toSqlFunction(row: FunctionRow): SqlFunction {
  const modes: string[] = row.arg_modes.length ? row.arg_modes : row.arg_types.map(() => 'i');
  const inputs: { name: string; type: string }[] = [];
  modes.forEach((mode, i) => {
    if (mode === 'i' || mode === 'b' || mode === 'v') inputs.push({ name: row.arg_names[i] ?? '', type: row.arg_types[i] ?? 'unknown' });
  });
  const firstDefault = inputs.length - row.default_count;
  return {
    name: row.name,
    args: inputs.map((arg, i) => ({ ...arg, hasDefault: i >= firstDefault })),
    returnsSet: row.returns_set,
    returnKind: row.returns_void ? 'void' : row.returns_composite ? 'composite' : 'scalar',
    returnTable: row.return_table,
    volatile: row.volatile,
  };
}

/**
 * Keeps the schema cache fresh: loads it once, then reloads whenever `NOTIFY pgrst, 'reload schema'` (or
 * `'reload config'`, for the pre-request setting) arrives
 * on a dedicated connection (the bootstrap's DDL event triggers send it), like PostgREST.
 */
export class SchemaCacheKeeper {
  private current: Promise<SchemaCache>;
  private listener: pg.PoolClient | null = null;
  private closed = false;
  private readonly pool: pg.Pool;
  private readonly schema: string;

  constructor(pool: pg.Pool, schema: string) {
    this.pool = pool;
    this.schema = schema;
    this.current = loadSchemaCache(pool, schema);
    // A failed first load is retried on the next request rather than crashing the process.
    this.current.catch(() => undefined);
    this.listen().catch((error) => console.error('[rest] could not LISTEN for schema reloads:', error));
  }

  /** The cache to serve a request with; retries the load if the last attempt failed. */
  async get(): Promise<SchemaCache> {
    try {
      return await this.current;
    } catch {
      this.reload();
      return this.current;
    }
  }

  /** Starts a reload; requests that arrive meanwhile wait for it. */
  reload(): void {
    const next = loadSchemaCache(this.pool, this.schema);
    next.catch((error) => console.error('[rest] schema cache reload failed:', error));
    this.current = next;
  }

  private async listen(): Promise<void> {
    const client = await this.pool.connect();
    if (this.closed) {
      client.release();
      return;
    }
    this.listener = client;
    client.on('notification', (message) => {
      if (message.channel === 'pgrst' && (!message.payload || message.payload === 'reload schema' || message.payload === 'reload config')) this.reload();
    });
    client.on('error', (error) => {
      console.error('[rest] schema listener connection lost, reconnecting:', error.message);
      this.listener = null;
      client.release(error);
      if (!this.closed) setTimeout(() => this.listen().catch(() => undefined), 500);
    });
    await client.query('listen pgrst');
    // Catch up with changes made while we were not listening yet.
    this.reload();
  }

  /** Stops listening and gives the dedicated connection back to the pool. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.listener;
    this.listener = null;
    if (client) {
      await client.query('unlisten pgrst').catch(() => undefined);
      client.release();
    }
  }
}
