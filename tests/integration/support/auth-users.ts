/**
 * Users the auth suites create for themselves (so the seed's users and their sign-in history stay as they
 * were), and the cleanup of everything such a user leaves behind.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { backend, createMember, serviceClient } from './db-fixtures.ts';

export type Member = Awaited<ReturnType<typeof createMember>>;

/** Removes a test user with their sign-in attempts and activity entries. */
export async function removeMember(member: Pick<Member, 'id' | 'email'>): Promise<void> {
  const service = serviceClient();
  await service.from('login_attempts').delete().eq('email', member.email);
  await service.from('user_activity_logs').delete().eq('user_id', member.id);
  const { error } = await service.auth.admin.deleteUser(member.id);
  if (error && error.status !== 404) throw new Error(`deleting ${member.email} failed: ${error.message}`);
}

/** A fresh browser-like client (no storage) that adopts the given session tokens. */
export async function clientWithSession(tokens: { access_token: string; refresh_token: string }): Promise<SupabaseClient> {
  const client = createClient(backend.url, backend.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { error } = await client.auth.setSession(tokens);
  if (error) throw new Error(`setSession failed: ${error.message}`);
  return client;
}

/** The session id claim of an access token. */
export function sessionIdOfToken(accessToken: string): string {
  return JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString()).session_id;
}
