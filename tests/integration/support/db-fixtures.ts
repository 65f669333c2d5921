import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { LOCAL_SUPABASE } from '../../../src/lib/server/service-config.ts';
import { signIn } from '../../../src/lib/server/sign-in.ts';
import { DEMO_PASSWORD } from '../../fixtures/demo-logins.ts';

/** Where the backend under test is: env variables, else the local backend's defaults. */
export const backend = {
  url: process.env.SUPABASE_URL || LOCAL_SUPABASE.url,
  anonKey: process.env.SUPABASE_ANON_KEY || LOCAL_SUPABASE.anonKey,
  serviceRoleKey: process.env.SUPABASE_SERVICE_ROLE_KEY || LOCAL_SUPABASE.serviceRoleKey,
  dbUrl: process.env.SUPABASE_DB_URL || 'postgresql://postgres:postgres@127.0.0.1:54322/postgres',
};

/** Fixed ids from supabase/seed.sql. */
export const seed = {
  scalePro: '10000000-0000-4000-8000-000000000001',
  evergreen: '10000000-0000-4000-8000-000000000002',
  users: {
    admin: { id: '20000000-0000-4000-8000-000000000001', email: 'admin@scale-pro.test' },
    editor: { id: '20000000-0000-4000-8000-000000000002', email: 'editor@scale-pro.test' },
    viewer: { id: '20000000-0000-4000-8000-000000000003', email: 'viewer@scale-pro.test' },
    otherAdmin: { id: '20000000-0000-4000-8000-000000000004', email: 'admin@evergreen.test' },
  },
  password: DEMO_PASSWORD,
  category: '30000000-0000-4000-8000-100000000000',
  publishedPost: '40000000-0000-4000-8000-000000000001',
  draftPost: '40000000-0000-4000-8000-000000000017',
  scheduledPost: '40000000-0000-4000-8000-000000000019',
  invitation: '50000000-0000-4000-8000-000000000001',
  webhookToken: 'dev-zimmwriter-token-scale-pro',
} as const;

const clientOptions = { auth: { persistSession: false, autoRefreshToken: false } };

export const anonClient = (): SupabaseClient => createClient(backend.url, backend.anonKey, clientOptions);
export const serviceClient = (): SupabaseClient => createClient(backend.url, backend.serviceRoleKey, clientOptions);

/**
 * A client signed in as the given user (a new session each call), through the sign-in path the app uses
 * (src/lib/server/sign-in.ts): only sessions it vouches for read data. Blog area: any active member.
 */
export async function signedInClient(email: string, password: string = seed.password): Promise<SupabaseClient> {
  const outcome = await signIn(serviceClient(), backend, { email, password }, { ip: null, userAgent: 'integration-tests' });
  if (outcome.kind !== 'granted') throw new Error(`sign-in as ${email} failed: ${outcome.kind}`);
  const client = anonClient();
  const { error } = await client.auth.setSession(outcome.session);
  if (error) throw new Error(`adopting the session of ${email} failed: ${error.message}`);
  return client;
}

/** A client holding a session taken straight from Supabase Auth's token endpoint, as an attacker would. */
export async function directTokenClient(email: string, password: string = seed.password): Promise<SupabaseClient> {
  const client = anonClient();
  const { error } = await client.auth.signInWithPassword({ email, password });
  if (error) throw new Error(`direct sign-in as ${email} failed: ${error.message}`);
  return client;
}

/** The session id inside a signed-in client's access token. */
export async function sessionIdOf(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('client has no session');
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()).session_id;
}

/** Creates a confirmed user in an organization with a role (through the Auth admin API), for one test. */
export async function createMember(role: 'admin' | 'editor' | 'viewer', organizationId: string = seed.scalePro) {
  const service = serviceClient();
  const email = `test-${role}-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
  const { data, error } = await service.auth.admin.createUser({ email, password: seed.password, email_confirm: true });
  if (error || !data.user) throw new Error(`createUser ${email} failed: ${error?.message}`);
  const { error: updateError } = await service
    .from('profiles')
    .update({ organization_id: organizationId, role, full_name: `Test ${role}` })
    .eq('id', data.user.id);
  if (updateError) throw new Error(`profile of ${email}: ${updateError.message}`);
  return { id: data.user.id, email, remove: () => service.auth.admin.deleteUser(data.user.id) };
}

/** Runs a callback with a direct Postgres connection (catalog checks). */
export async function withDatabase<T>(run: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: backend.dbUrl });
  await db.connect();
  try {
    return await run(db);
  } finally {
    await db.end();
  }
}
