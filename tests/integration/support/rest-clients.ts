/**
 * supabase-js clients for the REST conformance suite, one per identity. The backend is whatever
 * SUPABASE_URL points at (the local server started with the REST fixture, or a hosted project loaded with
 * tests/fixtures/rest-migrations); user tokens are signed with SUPABASE_JWT_SECRET as GoTrue would sign them.
 */
import { createHmac } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE } from '../../../src/lib/supabase-config.ts';

const url = process.env.SUPABASE_URL ?? LOCAL_SUPABASE.url;
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
