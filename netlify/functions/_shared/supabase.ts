import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { serviceSupabaseConfig } from '../../../src/lib/supabase-config.ts';

/**
 * A Supabase client with the service role: bypasses RLS, so only functions hold it. No session is kept or
 * refreshed: every call is authorized by the key alone.
 */
export function createServiceClient(env: Record<string, string | undefined> = process.env): SupabaseClient {
  const { url, serviceRoleKey } = serviceSupabaseConfig(env);
  return createClient(url, serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
}
