/**
 * supabase-js clients for the REST conformance suite, one per identity. The backend is REST_TEST_URL when
 * set (an instance or hosted project loaded with tests/fixtures/rest-migrations); otherwise each test file
 * starts its own local instance with that fixture through the CLI and removes it afterwards (SUPABASE_URL
 * names the product's backend, which does not hold the fixture). User tokens
 * are signed with SUPABASE_JWT_SECRET as Supabase Auth signs them.
 */
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll } from 'vitest';
import { LOCAL_SUPABASE } from '../../../src/lib/server/service-config.ts';

/** Starts a fixture instance on the REST suite's ports (REST_TEST_API_PORT / REST_TEST_DB_PORT). */
function startFixtureBackend(): string {
  const root = resolve(import.meta.dirname, '../../..');
  const apiPort = process.env.REST_TEST_API_PORT ?? '26421';
  const dbPort = process.env.REST_TEST_DB_PORT ?? '26422';
  const dataDir = mkdtempSync(join(tmpdir(), 'rest-fixture-'));
  const cli = (...args: string[]) => spawnSync(process.execPath, [join(root, 'supabase/local/cli.ts'), ...args, '--data-dir', dataDir], { encoding: 'utf8', cwd: root });
  const started = cli('start', '--api-port', apiPort, '--db-port', dbPort, '--migrations', join(root, 'tests/fixtures/rest-migrations'));
  if (started.status !== 0) throw new Error(`REST fixture backend did not start: ${started.stderr}${started.stdout}`);
  afterAll(() => {
    cli('stop');
    rmSync(dataDir, { recursive: true, force: true });
  });
  return `http://127.0.0.1:${apiPort}`;
}

const url = process.env.REST_TEST_URL ?? startFixtureBackend();
const anonKey = process.env.SUPABASE_ANON_KEY ?? LOCAL_SUPABASE.anonKey;
const serviceRoleKey = process.env.SUPABASE_SERVICE_ROLE_KEY ?? LOCAL_SUPABASE.serviceRoleKey;
const jwtSecret = process.env.SUPABASE_JWT_SECRET ?? LOCAL_SUPABASE.jwtSecret;

/** The fixture's users (tests/fixtures/rest-migrations). */
export const USERS = {
  ada: '00000000-0000-4000-8000-000000000001',
  eddie: '00000000-0000-4000-8000-000000000002',
  rita: '00000000-0000-4000-8000-000000000003',
} as const;

/** The REST endpoint, for the few checks supabase-js cannot express (raw headers, malformed queries). */
export const restUrl = `${url}/rest/v1`;
export { anonKey, serviceRoleKey };

const options = { auth: { persistSession: false, autoRefreshToken: false } };

export const anon: SupabaseClient = createClient(url, anonKey, options);
export const service: SupabaseClient = createClient(url, serviceRoleKey, options);

/** An access token for `sub`, shaped like Supabase Auth's. */
export function userToken(sub: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({
    sub, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600, email: `${sub}@example.test`,
  })}`;
  return `${body}.${createHmac('sha256', jwtSecret).update(body).digest('base64url')}`;
}

/** A client acting as the signed-in user `sub`. */
export function asUser(sub: string): SupabaseClient {
  const token = userToken(sub);
  return createClient(url, anonKey, { ...options, accessToken: async () => token });
}
