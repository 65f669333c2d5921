/**
 * The local Supabase-compatible API: one `node:http` server on 127.0.0.1 that plays the part of Supabase's
 * gateway (API key check, CORS, body limit) in front of Auth (`/auth/v1`), the REST handler (`/rest/v1`),
 * Storage (`/storage/v1`, files under `<dataDir>/storage`) and a local-only mail outbox (`/__local/outbox`: GET lists it, POST stores a mail the app's functions
 * would send; both with the service_role key only), with Postgres started underneath.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { createAuthHandler } from './auth/handler.ts';
import { passwordHashCost } from './auth/users.ts';
import { loadAuthSettings, loadStorageSettings } from './config.ts';
import { verifyJwt } from './jwt.ts';
import { listMail, parseAppMail, storeMail } from './outbox.ts';
import { databaseUrl, startPostgres } from './postgres.ts';
import type { RequestAuth } from './request-auth.ts';
import { createRestHandler } from './rest/index.ts';
import { createStorageHandler } from './storage/handler.ts';
import { seedBuckets } from './storage/seed.ts';

/** Largest request body accepted, like a gateway's limit; larger requests get 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** How to run one instance of the local backend. */
export interface LocalBackendOptions {
  /** Instance folder: the cluster lives in `<dataDir>/postgres`, stored files in `<dataDir>/storage`. */
  dataDir: string;
  apiPort: number;
  dbPort: number;
  migrationsDir?: string;
  seedFile?: string;
  /** The Supabase config whose `[auth]` settings apply (default: the project's `supabase/config.toml`). */
  configFile?: string;
  /** Default link target in mails (SITE_URL); overrides the config file and the environment. */
  siteUrl?: string;
  onLog?: (line: string) => void;
}

/** A running instance. */
export interface LocalBackend {
  apiUrl: string;
  dbUrl: string;
  stop(): Promise<void>;
}

// Supabase's gateway lets the browser call every API from any origin with these request headers.
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'Content-Range, Content-Location, Location, Range-Unit, Preference-Applied, X-Total-Count, X-Supabase-Api-Version, Link, Content-Disposition, ETag, Content-Length',
};
const CORS_PREFLIGHT = {
  'access-control-allow-methods': 'GET, HEAD, PUT, PATCH, POST, DELETE, OPTIONS',
  'access-control-allow-headers':
    'authorization, x-client-info, apikey, content-type, content-profile, accept-profile, prefer, range, range-unit, x-upsert, x-supabase-api-version, accept, accept-encoding, content-encoding, cache-control, x-metadata',
  'access-control-max-age': '3600',
};

/** Auth routes the gateway serves without an API key: links opened from a mail. */
const OPEN_AUTH_ROUTES = new Set(['GET /auth/v1/verify', 'GET /auth/v1/callback', 'GET /auth/v1/authorize']);
/** Storage routes hosted serves without an API key: public bucket URLs and signed URLs (the token decides). */
const OPEN_STORAGE_PREFIXES = ['/storage/v1/object/public/', '/storage/v1/object/sign/'];

function isOpenRoute(method: string, path: string): boolean {
  if (OPEN_AUTH_ROUTES.has(`${method} ${path}`)) return true;
  return (method === 'GET' || method === 'HEAD') && OPEN_STORAGE_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Starts Postgres and the API server; `stop()` shuts both down. */
export async function startLocalBackend(options: LocalBackendOptions): Promise<LocalBackend> {
  const log = options.onLog ?? (() => {});
  // Read before Postgres starts: a broken config.toml stops the start with its own message.
  const settings = loadAuthSettings(options.configFile);
  passwordHashCost(); // A bad LOCAL_AUTH_HASH_COST stops the start, not a later sign-up.
  const storageSettings = loadStorageSettings(options.configFile);
  const postgres = await startPostgres({
    dataDir: join(options.dataDir, 'postgres'),
    port: options.dbPort,
    migrationsDir: options.migrationsDir,
    seedFile: options.seedFile,
    onLog: log,
  });
  const apiUrl = `http://127.0.0.1:${options.apiPort}`;
  // Each service connects as hosted's does: Auth as GoTrue's role, Storage as Storage's role (its own
  // reads and writes; a caller's go through `authenticator`, like REST), so a trigger or policy that only
  // works for a superuser fails here as it would on hosted Supabase.
  const authPool = new pg.Pool({ connectionString: databaseUrl(options.dbPort, 'supabase_auth_admin'), max: 10 });
  const storagePool = new pg.Pool({ connectionString: databaseUrl(options.dbPort, 'supabase_storage_admin'), max: 5 });
  const apiPool = new pg.Pool({ connectionString: databaseUrl(options.dbPort, 'authenticator'), max: 20 });
  const pools = [authPool, storagePool, apiPool];
  for (const pool of pools) pool.on('error', (error) => log(`[pool] ${error.message}`));

  const auth = createAuthHandler({
    db: authPool,
    apiUrl,
    ...settings,
    siteUrl: options.siteUrl ?? settings.siteUrl,
  });
  const rest = createRestHandler(apiPool);
  const storageRoot = join(options.dataDir, 'storage');
  const storage = createStorageHandler({ apiPool, adminPool: storagePool, root: storageRoot, fileSizeLimit: storageSettings.fileSizeLimit });
  if (postgres.created) {
    // Files left from an earlier database belong to rows that no longer exist.
    await rm(storageRoot, { recursive: true, force: true });
  }
  if (postgres.created && storageSettings.enabled && storageSettings.buckets.length > 0) {
    const stored = await seedBuckets(storagePool, storageRoot, storageSettings.buckets);
    log(`Seeded ${storageSettings.buckets.length} storage bucket(s) with ${stored} object(s)`);
  }

  async function route(req: Request, path: string, client: { userAgent: string | null; ip: string | null }): Promise<Response> {
    if (req.method === 'OPTIONS') return new Response(null, { status: 200, headers: CORS_PREFLIGHT });
    const open = isOpenRoute(req.method, path);
    const keyProblem = open ? undefined : await checkApiKey(req);
    if (keyProblem) return keyProblem;

    if (path.startsWith('/auth/v1/') || path === '/auth/v1') {
      return auth({ request: req, path: path.slice('/auth/v1'.length) || '/', client });
    }
    if (path.startsWith('/rest/v1/') || path === '/rest/v1') {
      const decided = await restAuth(req);
      if (decided instanceof Response) return decided;
      const url = new URL(req.url);
      const inner = new Request(`http://${url.host}${path.slice('/rest/v1'.length) || '/'}${url.search}`, {
        method: req.method,
        headers: req.headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : await req.arrayBuffer(),
      });
      return rest.handle(inner, decided);
    }
    if (storageSettings.enabled && path.startsWith('/storage/v1/')) {
      const decided = open ? null : await restAuth(req);
      if (decided instanceof Response) return decided;
      return storage.handle(req, path.slice('/storage/v1'.length), decided);
    }
    if (path === '/__local/outbox' && (req.method === 'GET' || req.method === 'POST')) {
      const decided = await restAuth(req);
      if (decided instanceof Response) return decided;
      if (decided.role !== 'service_role') return Response.json({ message: 'The outbox needs the service_role key' }, { status: 403 });
      if (req.method === 'POST') {
        const mail = parseAppMail(await req.text());
        if (typeof mail === 'string') return Response.json({ message: mail }, { status: 400 });
        await storeMail(authPool, mail);
        return Response.json({ stored: true }, { status: 201 });
      }
      const url = new URL(req.url);
      return Response.json(await listMail(authPool, { to: url.searchParams.get('to') ?? undefined }));
    }
    return Response.json({ message: 'no Route matched with those values' }, { status: 404 });
  }

  const server = createServer((req, res) => {
    void serve(req, res, route, log);
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new Error(`The API could not listen on 127.0.0.1:${options.apiPort}: ${error.message}`)));
    server.listen(options.apiPort, '127.0.0.1', resolve);
  }).catch(async (error) => {
    await Promise.allSettled(pools.map((pool) => pool.end()));
    await postgres.stop();
    throw error;
  });
  log(`API listening on ${apiUrl} (port ${(server.address() as AddressInfo).port})`);

  return {
    apiUrl,
    dbUrl: postgres.url,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rest.close();
      await Promise.allSettled(pools.map((pool) => pool.end()));
      await postgres.stop();
    },
  };
}

/** The gateway's key check: `apikey` must be one of the project's keys (else Authorization a valid JWT). */
async function checkApiKey(req: Request): Promise<Response | undefined> {
  const apikey = req.headers.get('apikey') ?? new URL(req.url).searchParams.get('apikey');
  if (apikey !== null) {
    if (apikey === LOCAL_SUPABASE.anonKey || apikey === LOCAL_SUPABASE.serviceRoleKey) return undefined;
    return invalidApiKey();
  }
  const bearer = bearerToken(req);
  if (bearer === undefined) return Response.json({ message: 'No API key found in request', hint: 'No `apikey` request header or url param was found.' }, { status: 401 });
  return 'claims' in (await verifyJwt(bearer)) ? undefined : invalidApiKey();
}

function invalidApiKey(): Response {
  return Response.json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, { status: 401 });
}

function bearerToken(req: Request): string | undefined {
  const match = /^bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  return match?.[1];
}

const API_ROLES = new Set<RequestAuth['role']>(['anon', 'authenticated', 'service_role']);

/**
 * PostgREST's view of a request: the bearer token (or else the API key) decides the role. Expired and
 * forged tokens are refused with PostgREST's error bodies and `WWW-Authenticate` header.
 */
async function restAuth(req: Request): Promise<RequestAuth | Response> {
  const token = bearerToken(req) ?? req.headers.get('apikey') ?? new URL(req.url).searchParams.get('apikey') ?? LOCAL_SUPABASE.anonKey;
  const result = await verifyJwt(token);
  if ('failure' in result) {
    const expired = result.failure === 'expired';
    const message = expired ? 'JWT expired' : 'No suitable key or wrong key type';
    return Response.json(
      { code: expired ? 'PGRST303' : 'PGRST301', details: expired ? null : result.message, hint: null, message },
      { status: 401, headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${message}"` } },
    );
  }
  const role = (result.claims.role ?? 'anon') as RequestAuth['role'];
  if (!API_ROLES.has(role)) {
    return Response.json({ code: '22023', details: null, hint: null, message: `role "${String(role)}" does not exist` }, { status: 401 });
  }
  return { role, claims: result.claims as Record<string, unknown> };
}

/** Bridges node:http to the fetch-style handlers: body limit, CORS headers, errors as 500. */
async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  route: (req: Request, path: string, client: { userAgent: string | null; ip: string | null }) => Promise<Response>,
  log: (line: string) => void,
): Promise<void> {
  let response: Response;
  try {
    const declared = Number(req.headers['content-length'] ?? 0);
    const body = declared > MAX_BODY_BYTES ? undefined : await readLimited(req);
    if (body === undefined) {
      response = Response.json({ message: 'Request size limit exceeded' }, { status: 413 });
      req.resume();
    } else {
      const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const request = new Request(url, {
        method: req.method,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' || body.length === 0 ? undefined : new Uint8Array(body),
      });
      const forwarded = req.headers['x-forwarded-for'];
      const ip = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim() || req.socket.remoteAddress || null;
      response = await route(request, url.pathname, { userAgent: req.headers['user-agent'] ?? null, ip });
    }
  } catch (error) {
    log(`[error] ${req.method} ${req.url}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    response = Response.json({ message: 'Internal server error', details: error instanceof Error ? error.message : String(error) }, { status: 500 });
  }
  const headers: Record<string, string | string[]> = { ...CORS_HEADERS };
  response.headers.forEach((value, name) => {
    headers[name] = name === 'set-cookie' ? response.headers.getSetCookie() : value;
  });
  res.writeHead(response.status, headers);
  if (response.body && req.method !== 'HEAD') {
    res.end(Buffer.from(await response.arrayBuffer()));
  } else {
    res.end();
  }
}

/** Reads a request body, or undefined once it grows past MAX_BODY_BYTES. */
async function readLimited(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
