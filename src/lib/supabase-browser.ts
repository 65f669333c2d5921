/**
 * The browser's one Supabase client, created on first use (never during the static build or at import, so
 * pages that do not need it pay nothing). It keeps the session in localStorage, refreshes it before expiry
 * (autoRefreshToken) and picks up sessions from reset links in the URL (detectSessionInUrl, implicit flow).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { publicSupabaseConfig, sessionStorageKey } from './supabase-config.ts';

let client: SupabaseClient | undefined;

/** The shared browser client. */
export function supabaseBrowser(): SupabaseClient {
  if (!client) {
    const { url, anonKey } = publicSupabaseConfig();
    client = createClient(url, anonKey, {
      auth: {
        storageKey: sessionStorageKey(url),
        persistSession: true,
        autoRefreshToken: true,
        detectSessionInUrl: true,
        flowType: 'implicit',
      },
    });
  }
  return client;
}
