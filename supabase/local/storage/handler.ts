/**
 * The Storage API behind `/storage/v1`: the routes supabase-js' StorageFileApi and StorageBucketApi call.
 * Every read or write of `storage.objects` / `storage.buckets` on behalf of a caller runs in one transaction
 * as the caller's role with its JWT claims (as the REST handler does), so row-level security decides exactly
 * as on hosted Supabase. Only what hosted's Storage reads as its own role is read with the admin pool (connected
 * as `supabase_storage_admin`, the tables' owner): a bucket's limits and public flag, and objects reached
 * through a public bucket or a signed URL.
 *
 * A write's row commits only after its file is in place (temporary file + rename), and the file is written
 * only after Postgres accepted the row, so a refused write leaves neither. Deletes remove the file after the
 * row's delete committed: at worst an unreachable orphan file, never a row without its bytes.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type pg from 'pg';
import { signJwt, verifyJwt } from '../jwt.ts';
import type { RequestAuth } from '../request-auth.ts';
import {
  bucketNotFound, invalidJwt, invalidKey, invalidRequest, mimeRefused, objectNotFound, rlsRefused, storageErrorResponse, tooLarge,
} from './errors.ts';
import { ObjectFiles, unsafeKey } from './files.ts';

/** Served files may never run script in the API's origin. */
const FILE_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; sandbox" };
const DEFAULT_CACHE_CONTROL = 'max-age=3600';

type Bucket = { id: string; public: boolean; file_size_limit: string | null; allowed_mime_types: string[] | null };
type ObjectRow = { id: string; name: string; bucket_id: string; metadata: ObjectMetadata };
/** Hosted's `storage.objects.metadata`. */
export type ObjectMetadata = {
  eTag: string; size: number; mimetype: string; cacheControl: string; lastModified: string; contentLength: number; httpStatusCode: number;
};

/** The storage handler of one instance; `auth` is null for routes hosted serves without a key. */
export function createStorageHandler(options: { apiPool: pg.Pool; adminPool: pg.Pool; root: string; fileSizeLimit: number | string }) {
  const globalLimit = sizeLimit(options.fileSizeLimit)!;
  const files = new ObjectFiles(options.root);
  const { apiPool, adminPool } = options;

  /** Runs `work` in one transaction as the caller; commits only when it returns. */
  async function asCaller<T>(auth: RequestAuth, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await apiPool.connect();
    let broken: Error | undefined;
    try {
      await client.query('begin');
      try {
        await client.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [auth.role, JSON.stringify(auth.claims)]);
        const result = await work(client);
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch((rollbackError: Error) => { broken = rollbackError; });
        throw error;
      }
    } finally {
      client.release(broken);
    }
  }

  async function findBucket(id: string): Promise<Bucket> {
    const { rows } = await adminPool.query<Bucket>('select id, public, file_size_limit, allowed_mime_types from storage.buckets where id = $1', [id]);
    if (!rows[0]) throw bucketNotFound();
    return rows[0];
  }

  /** Reads the upload's bytes and type from a multipart form (supabase-js' Blob/File uploads) or a raw body. */
  async function readUpload(req: Request): Promise<{ bytes: Uint8Array; contentType: string; cacheControl: string }> {
    const type = req.headers.get('content-type') ?? '';
    if (type.startsWith('multipart/form-data')) {
      const form = await req.formData();
      const file = [...form.values()].find((value): value is File => typeof value !== 'string');
      if (!file) throw invalidRequest('The multipart body has no file');
      const cache = form.get('cacheControl');
      return {
        bytes: new Uint8Array(await file.arrayBuffer()),
        contentType: file.type || 'application/octet-stream',
        cacheControl: typeof cache === 'string' && cache ? `max-age=${cache}` : DEFAULT_CACHE_CONTROL,
      };
    }
    return {
      bytes: new Uint8Array(await req.arrayBuffer()),
      contentType: type || 'application/octet-stream',
      cacheControl: req.headers.get('cache-control') || DEFAULT_CACHE_CONTROL,
    };
  }

  function checkLimits(bucket: Bucket, size: number, contentType: string): void {
    const limit = Math.min(globalLimit, bucket.file_size_limit === null ? Infinity : Number(bucket.file_size_limit));
    if (size > limit) throw tooLarge();
    const allowed = bucket.allowed_mime_types;
    if (allowed && allowed.length > 0) {
      const mime = contentType.split(';')[0]!.trim().toLowerCase();
      const ok = allowed.some((pattern) => {
        const p = pattern.toLowerCase();
        return p === mime || (p.endsWith('/*') && mime.startsWith(p.slice(0, -1)));
      });
      if (!ok) throw mimeRefused(contentType);
    }
  }

  async function upload(req: Request, auth: RequestAuth, bucketId: string, name: string, upsert: boolean): Promise<Response> {
    const bucket = await findBucket(bucketId);
    const { bytes, contentType, cacheControl } = await readUpload(req);
    checkLimits(bucket, bytes.length, contentType);
    const metadata: ObjectMetadata = {
      eTag: `"${createHash('md5').update(bytes).digest('hex')}"`,
      size: bytes.length,
      mimetype: contentType,
      cacheControl,
      lastModified: new Date().toUTCString(),
      contentLength: bytes.length,
      httpStatusCode: 200,
    };
    const sub = typeof auth.claims.sub === 'string' ? auth.claims.sub : null;
    const row = await asCaller(auth, async (db) => {
      const conflict = upsert
        ? `on conflict (bucket_id, name) do update set metadata = excluded.metadata, owner = excluded.owner, owner_id = excluded.owner_id,
             version = excluded.version, updated_at = now(), last_accessed_at = now()`
        : '';
      const { rows } = await db.query<{ id: string }>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, version)
         values ($1, $2, (select auth.uid()), $3, $4, $5) ${conflict} returning id`,
        [bucketId, name, sub, JSON.stringify(metadata), randomUUID()],
      );
      if (!rows[0]) throw rlsRefused();
      // The file goes in place before the row commits; a failed commit is the only way to an orphan file.
      await files.write(bucketId, name, bytes);
      return rows[0];
    });
    return Response.json({ Id: row.id, Key: `${bucketId}/${name}` });
  }

  /** Answers with an object's bytes and hosted's headers. */
  async function serveFile(req: Request, row: ObjectRow): Promise<Response> {
    const path = files.path(row.bucket_id, row.name);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch {
      throw objectNotFound();
    }
    const meta = row.metadata ?? ({} as ObjectMetadata);
    const headers: Record<string, string> = {
      ...FILE_HEADERS,
      'content-type': meta.mimetype || 'application/octet-stream',
      'cache-control': meta.cacheControl || DEFAULT_CACHE_CONTROL,
      etag: meta.eTag ?? `"${createHash('md5').update(bytes).digest('hex')}"`,
      'last-modified': meta.lastModified ?? (await stat(path)).mtime.toUTCString(),
      'accept-ranges': 'bytes',
    };
    const download = new URL(req.url).searchParams.get('download');
    if (download !== null) {
      const filename = download || row.name.split('/').pop()!;
      headers['content-disposition'] = `attachment; filename=${encodeURIComponent(filename)}; filename*=UTF-8''${encodeURIComponent(filename)}`;
    }
    if (req.headers.get('if-none-match') === headers.etag) return new Response(null, { status: 304, headers });
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.get('range') ?? '');
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(0, bytes.length - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
      if (start >= bytes.length || start > end) {
        return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${bytes.length}` } });
      }
      const part = bytes.subarray(start, end + 1);
      return new Response(new Uint8Array(part), {
        status: 206,
        headers: { ...headers, 'content-length': String(part.length), 'content-range': `bytes ${start}-${end}/${bytes.length}` },
      });
    }
    return new Response(new Uint8Array(bytes), { status: 200, headers: { ...headers, 'content-length': String(bytes.length) } });
  }

  async function objectAsCaller(auth: RequestAuth, bucketId: string, name: string): Promise<ObjectRow> {
    const row = await asCaller(auth, async (db) =>
      (await db.query<ObjectRow>('select id, name, bucket_id, metadata from storage.objects where bucket_id = $1 and name = $2', [bucketId, name])).rows[0]);
    if (!row) throw objectNotFound();
    return row;
  }

  async function objectAsAdmin(bucketId: string, name: string): Promise<ObjectRow> {
    const { rows } = await adminPool.query<ObjectRow>('select id, name, bucket_id, metadata from storage.objects where bucket_id = $1 and name = $2', [bucketId, name]);
    if (!rows[0]) throw objectNotFound();
    return rows[0];
  }

  async function list(req: Request, auth: RequestAuth, bucketId: string): Promise<Response> {
    await findBucket(bucketId);
    const body = (await readJson(req)) as {
      prefix?: string; limit?: number; offset?: number; search?: string; sortBy?: { column?: string; order?: string };
    };
    const prefix = (body.prefix ?? '').replace(/^\/+|\/+$/g, '');
    const base = prefix ? `${prefix}/` : '';
    const limit = Math.min(Math.max(Number(body.limit ?? 100), 0), 1000);
    const offset = Math.max(Number(body.offset ?? 0), 0);
    const search = (body.search ?? '').toLowerCase();
    const column = ['name', 'updated_at', 'created_at', 'last_accessed_at'].includes(body.sortBy?.column ?? '') ? body.sortBy!.column! : 'name';
    const descending = body.sortBy?.order?.toLowerCase() === 'desc';
    const rows = await asCaller(auth, async (db) =>
      (await db.query<Record<string, unknown> & { name: string }>(
        `select name, id, updated_at, created_at, last_accessed_at, metadata from storage.objects
         where bucket_id = $1 and starts_with(name, $2) order by name collate "C"`,
        [bucketId, base],
      )).rows);
    const entries = new Map<string, Record<string, unknown>>();
    for (const row of rows) {
      const rest = row.name.slice(base.length);
      const slash = rest.indexOf('/');
      const entryName = slash === -1 ? rest : rest.slice(0, slash);
      if (search && !entryName.toLowerCase().startsWith(search)) continue;
      if (slash === -1) entries.set(`f:${entryName}`, { ...row, name: entryName });
      else if (!entries.has(`d:${entryName}`)) {
        // Hosted returns a folder as an entry with every other field null.
        entries.set(`d:${entryName}`, { name: entryName, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });
      }
    }
    const sorted = [...entries.values()].sort((a, b) => {
      const x = String(a[column] ?? ''), y = String(b[column] ?? '');
      const order = x < y ? -1 : x > y ? 1 : String(a.name) < String(b.name) ? -1 : 1;
      return descending ? -order : order;
    });
    return Response.json(sorted.slice(offset, offset + limit));
  }

  async function remove(req: Request, auth: RequestAuth, bucketId: string): Promise<Response> {
    await findBucket(bucketId);
    const { prefixes } = (await readJson(req)) as { prefixes?: unknown };
    if (!Array.isArray(prefixes) || !prefixes.every((p) => typeof p === 'string')) throw invalidRequest('body/prefixes must be an array of strings');
    const deleted = await asCaller(auth, async (db) =>
      (await db.query<ObjectRow>(
        `delete from storage.objects where bucket_id = $1 and name = any($2::text[])
         returning id, name, bucket_id, owner, owner_id, version, metadata, user_metadata, created_at, updated_at, last_accessed_at`,
        [bucketId, prefixes],
      )).rows);
    // Rows are gone for good: a leftover file would only be an unreachable orphan.
    for (const row of deleted) await files.remove(row.bucket_id, row.name);
    return Response.json(deleted);
  }

  async function moveOrCopy(req: Request, auth: RequestAuth, kind: 'move' | 'copy'): Promise<Response> {
    const body = (await readJson(req)) as { bucketId?: string; sourceKey?: string; destinationKey?: string; destinationBucket?: string };
    const { bucketId, sourceKey, destinationKey } = body;
    if (typeof bucketId !== 'string' || typeof sourceKey !== 'string' || typeof destinationKey !== 'string') {
      throw invalidRequest('bucketId, sourceKey and destinationKey are required');
    }
    const destinationBucket = body.destinationBucket ?? bucketId;
    for (const key of [sourceKey, destinationKey]) if (unsafeKey(key)) throw invalidKey(key);
    await findBucket(bucketId);
    if (destinationBucket !== bucketId) await findBucket(destinationBucket);
    const from = { bucket: bucketId, name: sourceKey };
    const to = { bucket: destinationBucket, name: destinationKey };
    if (kind === 'move') {
      await asCaller(auth, async (db) => {
        const { rows } = await db.query(
          `update storage.objects set bucket_id = $3, name = $4, updated_at = now() where bucket_id = $1 and name = $2 returning id`,
          [bucketId, sourceKey, destinationBucket, destinationKey],
        );
        if (!rows[0]) throw objectNotFound();
        await files.move(from, to);
      });
      return Response.json({ message: 'Successfully moved' });
    }
    const sub = typeof auth.claims.sub === 'string' ? auth.claims.sub : null;
    const copied = await asCaller(auth, async (db) => {
      const { rows } = await db.query<{ id: string }>(
        `insert into storage.objects (bucket_id, name, owner, owner_id, metadata, user_metadata, version)
         select $3, $4, (select auth.uid()), $5, metadata, user_metadata, gen_random_uuid()::text
         from storage.objects where bucket_id = $1 and name = $2 returning id`,
        [bucketId, sourceKey, destinationBucket, destinationKey, sub],
      );
      if (!rows[0]) throw objectNotFound();
      await files.copy(from, to);
      return rows[0];
    });
    return Response.json({ Id: copied.id, Key: `${destinationBucket}/${destinationKey}` });
  }

  async function signedUrl(bucketId: string, name: string, expiresIn: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const token = await signJwt({ url: `${bucketId}/${name}`, iat: now, exp: now + expiresIn });
    // Unencoded, as hosted returns it: supabase-js encodes the whole URL.
    return `/object/sign/${bucketId}/${name}?token=${token}`;
  }

  async function sign(req: Request, auth: RequestAuth, bucketId: string, name: string | null): Promise<Response> {
    await findBucket(bucketId);
    const body = (await readJson(req)) as { expiresIn?: unknown; paths?: unknown };
    const expiresIn = Number(body.expiresIn);
    if (!Number.isInteger(expiresIn) || expiresIn < 1) throw invalidRequest('body/expiresIn must be a positive integer');
    if (name !== null) {
      await objectAsCaller(auth, bucketId, name);
      return Response.json({ signedURL: await signedUrl(bucketId, name, expiresIn) });
    }
    if (!Array.isArray(body.paths) || !body.paths.every((p) => typeof p === 'string')) throw invalidRequest('body/paths must be an array of strings');
    const paths = body.paths as string[];
    const visible = new Set(await asCaller(auth, async (db) =>
      (await db.query<{ name: string }>('select name from storage.objects where bucket_id = $1 and name = any($2::text[])', [bucketId, paths])).rows.map((r) => r.name)));
    return Response.json(await Promise.all(paths.map(async (path) => visible.has(path)
      ? { error: null, path, signedURL: await signedUrl(bucketId, path, expiresIn) }
      : { error: 'Either the object does not exist or you do not have access to it', path, signedURL: null })));
  }

  async function serveSigned(req: Request, bucketId: string, name: string): Promise<Response> {
    const token = new URL(req.url).searchParams.get('token');
    if (!token) throw invalidJwt('Missing token');
    const verified = await verifyJwt(token);
    if ('failure' in verified) throw invalidJwt(verified.failure === 'expired' ? 'jwt expired' : 'invalid signature');
    if (verified.claims.url !== `${bucketId}/${name}`) throw invalidJwt('Invalid token for this object');
    return serveFile(req, await objectAsAdmin(bucketId, name));
  }

  // BUCKETS ------------------------------------------------------------------------------------------------
  // file_size_limit as a JSON number, as hosted answers (node-postgres would give a bigint as a string).
  const BUCKET_COLUMNS = 'id, name, owner, public, file_size_limit::float8 as file_size_limit, allowed_mime_types, created_at, updated_at';

  async function buckets(req: Request, auth: RequestAuth, id: string | null, action: string | null): Promise<Response> {
    const method = req.method;
    if (id === null && method === 'GET') {
      return Response.json(await asCaller(auth, async (db) => (await db.query(`select ${BUCKET_COLUMNS} from storage.buckets order by name`)).rows));
    }
    if (id === null && method === 'POST') {
      const body = (await readJson(req)) as { id?: string; name?: string; public?: boolean; file_size_limit?: number | string | null; allowed_mime_types?: string[] | null };
      const bucketId = body.id ?? body.name;
      // A leading dot would reach the store's own `.tmp` folder.
      if (typeof bucketId !== 'string' || unsafeKey(bucketId) || bucketId.includes('/') || bucketId.startsWith('.')) throw invalidRequest('Bucket name invalid');
      await asCaller(auth, async (db) => {
        const { rows } = await db.query(
          `insert into storage.buckets (id, name, owner, public, file_size_limit, allowed_mime_types)
           values ($1, $1, (select auth.uid()), $2, $3, $4) returning id`,
          [bucketId, body.public ?? false, sizeLimit(body.file_size_limit), body.allowed_mime_types ?? null],
        );
        if (!rows[0]) throw rlsRefused();
      });
      return Response.json({ name: bucketId });
    }
    if (id === null) throw invalidRequest('Route not found');
    if (action === 'empty' && method === 'POST') {
      await findBucket(id);
      const deleted = await asCaller(auth, async (db) =>
        (await db.query<ObjectRow>('delete from storage.objects where bucket_id = $1 returning bucket_id, name', [id])).rows);
      for (const row of deleted) await files.remove(row.bucket_id, row.name);
      return Response.json({ message: 'Successfully emptied' });
    }
    if (action !== null) throw invalidRequest('Route not found');
    if (method === 'GET') {
      const row = await asCaller(auth, async (db) => (await db.query(`select ${BUCKET_COLUMNS} from storage.buckets where id = $1`, [id])).rows[0]);
      if (!row) throw bucketNotFound();
      return Response.json(row);
    }
    if (method === 'PUT') {
      const body = (await readJson(req)) as { public?: boolean; file_size_limit?: number | string | null; allowed_mime_types?: string[] | null };
      const updated = await asCaller(auth, async (db) => (await db.query(
        `update storage.buckets set public = coalesce($2, public), file_size_limit = $3, allowed_mime_types = $4, updated_at = now()
         where id = $1 returning id`,
        [id, body.public ?? null, sizeLimit(body.file_size_limit), body.allowed_mime_types ?? null],
      )).rows[0]);
      if (!updated) throw bucketNotFound();
      return Response.json({ message: 'Successfully updated' });
    }
    if (method === 'DELETE') {
      const { rows } = await adminPool.query('select 1 from storage.objects where bucket_id = $1 limit 1', [id]);
      if (rows[0]) throw invalidRequest('The bucket you tried to delete is not empty');
      const deleted = await asCaller(auth, async (db) => (await db.query('delete from storage.buckets where id = $1 returning id', [id])).rows[0]);
      if (!deleted) throw bucketNotFound();
      await files.removeBucket(id);
      return Response.json({ message: 'Successfully deleted' });
    }
    throw invalidRequest('Route not found');
  }

  /** Routes one request; `path` is what follows `/storage/v1`. */
  async function route(req: Request, path: string, auth: RequestAuth | null): Promise<Response> {
    const [area, ...rest] = path.replace(/^\/+/, '').split('/').map(decodeURIComponent);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (area === 'object') {
      const [first = '', second = ''] = rest;
      const keyAfter = (n: number) => {
        const bucket = rest[n] ?? '';
        const name = rest.slice(n + 1).join('/');
        if (!bucket || unsafeKey(bucket) !== undefined) throw bucketNotFound();
        if (unsafeKey(name) !== undefined) throw invalidKey(name);
        return { bucket, name };
      };
      if (first === 'public' && method === 'GET') {
        const { bucket, name } = keyAfter(1);
        const found = await adminPool.query<{ public: boolean }>('select public from storage.buckets where id = $1', [bucket]);
        if (!found.rows[0]?.public) throw bucketNotFound();
        return serveFile(req, await objectAsAdmin(bucket, name));
      }
      if (first === 'sign' && method === 'GET') {
        const { bucket, name } = keyAfter(1);
        return serveSigned(req, bucket, name);
      }
      if (!auth) throw invalidJwt('No authorization');
      if (first === 'list' && method === 'POST') return list(req, auth, second);
      if ((first === 'move' || first === 'copy') && method === 'POST' && rest.length === 1) return moveOrCopy(req, auth, first);
      if (first === 'sign' && method === 'POST') {
        if (rest.length === 2) return sign(req, auth, second, null);
        const { bucket, name } = keyAfter(1);
        return sign(req, auth, bucket, name);
      }
      if ((first === 'authenticated' || first === 'info') && method === 'GET') {
        const { bucket, name } = keyAfter(1);
        const row = await objectAsCaller(auth, bucket, name);
        if (first === 'info') return Response.json({ id: row.id, name: row.name, bucket_id: row.bucket_id, metadata: row.metadata });
        return serveFile(req, row);
      }
      if (method === 'DELETE' && rest.length === 1) return remove(req, auth, first);
      const { bucket, name } = keyAfter(0);
      if (method === 'GET') return serveFile(req, await objectAsCaller(auth, bucket, name));
      if (method === 'POST') return upload(req, auth, bucket, name, req.headers.get('x-upsert') === 'true');
      if (method === 'PUT') return update(req, auth, bucket, name);
    }
    if (area === 'bucket' && auth) return buckets(req, auth, rest[0] ?? null, rest[1] ?? null);
    return Response.json({ statusCode: '404', error: 'Not Found', message: 'Route not found' }, { status: 404 });
  }

  /** PUT replaces an existing object: the row must exist and the caller may update it. */
  async function update(req: Request, auth: RequestAuth, bucket: string, name: string): Promise<Response> {
    await objectAsCaller(auth, bucket, name);
    return upload(req, auth, bucket, name, true);
  }

  return {
    root: files.root,
    async handle(req: Request, path: string, auth: RequestAuth | null): Promise<Response> {
      try {
        return await route(req, path, auth);
      } catch (error) {
        return storageErrorResponse(error);
      }
    },
  };
}

/** A bucket's `file_size_limit` in bytes from a number or the CLI's "50MiB" form. */
export function sizeLimit(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  // The CLI's units: "50MiB", "1GB" (both binary, as the CLI reads them).
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]i?)?b?$/i.exec(value.trim());
  if (!match) throw invalidRequest(`Invalid file_size_limit ${value}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] ?? '').slice(0, 1).toLowerCase() as ''];
  return Math.floor(Number(match[1]) * unit);
}

async function readJson(req: Request): Promise<Record<string, unknown>> {
  const text = await req.text();
  if (!text.trim()) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Falls through to the refusal below.
  }
  throw invalidRequest('Body is not a JSON object');
}
