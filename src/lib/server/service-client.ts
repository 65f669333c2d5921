/**
 * The service-role Supabase client: the only place functions create one. The key bypasses RLS, so it
 * stays on the server (a lint rule keeps browser and build code from importing src/lib/server/).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { backendClient } from './backend.ts';
import { serviceSupabaseConfig } from './service-config.ts';

/**
 * A fresh service-role client for one request; no session is kept. `actor: 'operator'` is for the operator's
 * commands (site:add): the audit log names the operator as the writer of the entries its calls make.
 */
export function serviceClient(env: Record<string, string | undefined> = process.env, { actor }: { actor?: 'operator' } = {}): SupabaseClient {
  const { url, serviceRoleKey } = serviceSupabaseConfig(env);
  return backendClient(url, serviceRoleKey, actor ? { 'x-app-actor': actor } : {});
}
