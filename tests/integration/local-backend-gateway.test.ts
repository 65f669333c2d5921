import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { workerBackend, uniqueEmail, type TestBackend } from './support/local-backend-instance.ts';

let backend: TestBackend;
beforeAll(() => {
  backend = workerBackend();
});
afterAll(async () => {
  await backend?.stop();
});

const secret = new TextEncoder().encode(LOCAL_SUPABASE.jwtSecret);
const sign = (claims: Record<string, unknown>, key: Uint8Array = secret) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(key);
const get = (path: string, headers: Record<string, string>) => fetch(`${backend.apiUrl}${path}`, { headers });

describe('API keys', () => {
  it('the well-known local keys are signed with the local JWT secret', async () => {
    const { jwtVerify } = await import('jose');
    for (const [key, role] of [[LOCAL_SUPABASE.anonKey, 'anon'], [LOCAL_SUPABASE.serviceRoleKey, 'service_role']] as const) {
      const { payload } = await jwtVerify(key, secret);
      expect(payload).toMatchObject({ iss: 'supabase-demo', role });
    }
  });

  it.each([
    ['no key', {}, 'No API key found in request'],
    ['a wrong apikey', { apikey: 'not-a-key' }, 'Invalid API key'],
  ])('answers 401 to %s', async (_label, headers, message) => {
    for (const path of ['/auth/v1/health', '/rest/v1/anything']) {
      const response = await get(path, headers);
      expect(response.status).toBe(401);
      expect((await response.json()).message).toBe(message);
    }
  });

  it('refuses a supabase-js client with a wrong key', async () => {
    const { createClient } = await import('@supabase/supabase-js');
    const client = createClient(backend.apiUrl, 'wrong-key', { auth: { persistSession: false } });
    const { error } = await client.auth.signInWithPassword({ email: uniqueEmail('k'), password: 'whatever-1' });
    expect(error?.status).toBe(401);
  });

  it('lets mail links (GET /auth/v1/verify) through without a key', async () => {
    const response = await fetch(`${backend.apiUrl}/auth/v1/verify?token=nope&type=recovery`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^http:\/\/localhost:8888#error=access_denied&error_code=otp_expired/);
  });
});

describe('JWT checks', () => {
  const anon = { apikey: LOCAL_SUPABASE.anonKey };
  const now = Math.floor(Date.now() / 1000);

  it('answers /rest with PostgREST 401 PGRST301 for a forged token and PGRST303 for an expired one', async () => {
    const forged = await sign({ role: 'service_role', exp: now + 3600 }, new TextEncoder().encode('not-the-secret-not-the-secret-not-it'));
    const forgedResponse = await get('/rest/v1/blog_posts', { ...anon, authorization: `Bearer ${forged}` });
    expect(forgedResponse.status).toBe(401);
    expect(forgedResponse.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(await forgedResponse.json()).toMatchObject({ code: 'PGRST301' });

    const expired = await sign({ role: 'authenticated', sub: crypto.randomUUID(), exp: now - 60 });
    const expiredResponse = await get('/rest/v1/blog_posts', { ...anon, authorization: `Bearer ${expired}` });
    expect(expiredResponse.status).toBe(401);
    expect(await expiredResponse.json()).toEqual({ code: 'PGRST303', details: null, hint: null, message: 'JWT expired' });
  });

  it('answers /auth with GoTrue 403 bad_jwt for forged and expired tokens', async () => {
    const forged = await sign({ role: 'authenticated', sub: crypto.randomUUID(), exp: now + 3600 }, new TextEncoder().encode('x'.repeat(40)));
    const expired = await sign({ role: 'authenticated', sub: crypto.randomUUID(), exp: now - 60 });
    for (const token of [forged, expired]) {
      const response = await get('/auth/v1/user', { ...anon, authorization: `Bearer ${token}` });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: 403, error_code: 'bad_jwt' });
    }
  });

  it('uses the dated error shape when the client sends X-Supabase-Api-Version', async () => {
    const response = await fetch(`${backend.apiUrl}/auth/v1/token?grant_type=password`, {
      method: 'POST',
      headers: { ...anon, 'content-type': 'application/json', 'x-supabase-api-version': '2024-01-01' },
      body: JSON.stringify({ email: uniqueEmail('v'), password: 'nope-nope' }),
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-supabase-api-version')).toBe('2024-01-01');
    expect(await response.json()).toEqual({ code: 'invalid_credentials', msg: 'Invalid login credentials' });
  });
});

describe('gateway', () => {
  it('answers CORS preflights for any origin with Supabase headers', async () => {
    const response = await fetch(`${backend.apiUrl}/rest/v1/blog_posts`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:8888', 'access-control-request-method': 'POST', 'access-control-request-headers': 'apikey, authorization, content-type, prefer, x-client-info' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = response.headers.get('access-control-allow-headers')!.split(',').map((h) => h.trim());
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'x-client-info', 'apikey', 'content-type', 'prefer', 'range', 'accept-profile', 'content-profile', 'x-supabase-api-version']));
    expect(response.headers.get('access-control-allow-methods')).toContain('PATCH');
  });

  it('exposes Content-Range and X-Total-Count on normal responses', async () => {
    const response = await get('/auth/v1/health', { apikey: LOCAL_SUPABASE.anonKey, origin: 'http://localhost:8888' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-expose-headers')).toMatch(/Content-Range.*X-Total-Count/);
  });

  it('answers 413 to bodies over 10 MB', async () => {
    const response = await fetch(`${backend.apiUrl}/auth/v1/signup`, {
      method: 'POST',
      headers: { apikey: LOCAL_SUPABASE.anonKey, 'content-type': 'application/json' },
      body: 'x'.repeat(10 * 1024 * 1024 + 1),
    });
    expect(response.status).toBe(413);
  });

  it('hands /rest/v1 to the REST handler, which answers an unknown table with its own error body', async () => {
    const response = await get('/rest/v1/no_such_table?select=*', { apikey: LOCAL_SUPABASE.anonKey });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: expect.stringMatching(/^(PGRST205|42P01)$/), message: expect.any(String) });
  });

  it('serves the outbox only to the service role', async () => {
    expect((await get('/__local/outbox', { apikey: LOCAL_SUPABASE.anonKey })).status).toBe(403);
    const response = await get('/__local/outbox', { apikey: LOCAL_SUPABASE.serviceRoleKey });
    expect(response.status).toBe(200);
    expect(Array.isArray(await response.json())).toBe(true);
  });

  it('stores an app mail posted by the service role (POST /__local/outbox), refusing other keys and bad bodies', async () => {
    const to = uniqueEmail('app-mail');
    const mail = { to, subject: 'Join Scale Pro', text: 'Open http://localhost:8888/auth?invite=abc', html: '<p>Join</p>' };
    const postMail = (key: string, body: unknown) =>
      fetch(`${backend.apiUrl}/__local/outbox`, {
        method: 'POST',
        headers: { apikey: key, authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
    expect((await postMail(LOCAL_SUPABASE.anonKey, mail)).status).toBe(403);
    for (const bad of ['not json', [], { ...mail, to: 'nobody' }, { ...mail, subject: ' ' }, { ...mail, html: 1 }]) {
      const refused = await postMail(LOCAL_SUPABASE.serviceRoleKey, bad);
      expect(refused.status).toBe(400);
      expect((await refused.json()).message).toEqual(expect.any(String));
    }
    expect(await backend.outbox(to)).toEqual([]);

    const stored = await postMail(LOCAL_SUPABASE.serviceRoleKey, mail);
    expect(stored.status).toBe(201);
    expect(await backend.outbox(to)).toEqual([expect.objectContaining({ ...mail, link: null, type: 'app' })]);
  });

  it('answers unknown routes with 404', async () => {
    const response = await get('/functions/v1/hello', { apikey: LOCAL_SUPABASE.anonKey });
    expect(response.status).toBe(404);
  });
});

describe('database setup', () => {
  it('has Supabase roles, extensions and grants', async () => {
    const roles = await backend.sql<{ rolname: string; rolbypassrls: boolean; rolcanlogin: boolean; rolinherit: boolean }>(
      `select rolname, rolbypassrls, rolcanlogin, rolinherit from pg_roles
        where rolname in ('anon', 'authenticated', 'service_role', 'authenticator') order by rolname`,
    );
    expect(roles).toEqual([
      { rolname: 'anon', rolbypassrls: false, rolcanlogin: false, rolinherit: false },
      { rolname: 'authenticated', rolbypassrls: false, rolcanlogin: false, rolinherit: false },
      { rolname: 'authenticator', rolbypassrls: false, rolcanlogin: true, rolinherit: false },
      { rolname: 'service_role', rolbypassrls: true, rolcanlogin: false, rolinherit: false },
    ]);
    const extensions = await backend.sql<{ extname: string; nspname: string }>(
      `select extname, nspname from pg_extension join pg_namespace n on n.oid = extnamespace where extname in ('pgcrypto', 'uuid-ossp') order by 1`,
    );
    expect(extensions).toEqual([
      { extname: 'pgcrypto', nspname: 'extensions' },
      { extname: 'uuid-ossp', nspname: 'extensions' },
    ]);
    await backend.sql('create table public.grant_probe (id int)');
    const [grants] = await backend.sql(
      `select has_table_privilege('anon', 'public.grant_probe', 'select') as anon,
              has_table_privilege('authenticated', 'public.grant_probe', 'insert') as authenticated,
              has_table_privilege('anon', 'auth.users', 'select') as anon_auth_users`,
    );
    expect(grants).toEqual({ anon: true, authenticated: true, anon_auth_users: false });
    await backend.sql('drop table public.grant_probe');
  });

  it('auth.uid(), auth.role(), auth.email() and auth.jwt() read the request claims as the API role', async () => {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: `postgresql://authenticator:postgres@127.0.0.1:${backend.dbPort}/postgres` });
    await client.connect();
    try {
      const sub = crypto.randomUUID();
      await client.query('begin');
      await client.query('set local role authenticated');
      await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify({ sub, role: 'authenticated', email: 'who@example.test' })]);
      const { rows } = await client.query('select auth.uid() as uid, auth.role() as role, auth.email() as email, auth.jwt() ->> $1 as sub', ['sub']);
      expect(rows[0]).toEqual({ uid: sub, role: 'authenticated', email: 'who@example.test', sub });
      await client.query('rollback');
    } finally {
      await client.end();
    }
  });

  it('notifies pgrst to reload the schema on DDL', async () => {
    const { default: pg } = await import('pg');
    const listener = new pg.Client({ connectionString: `postgresql://postgres:postgres@127.0.0.1:${backend.dbPort}/postgres` });
    await listener.connect();
    try {
      const payloads: string[] = [];
      listener.on('notification', (n) => payloads.push(`${n.channel}:${n.payload}`));
      await listener.query('listen pgrst');
      await backend.sql('create table public.reload_probe (id int)');
      await backend.sql('drop table public.reload_probe');
      await expect.poll(() => payloads).toEqual(['pgrst:reload schema', 'pgrst:reload schema']);
    } finally {
      await listener.end();
    }
  });
});
