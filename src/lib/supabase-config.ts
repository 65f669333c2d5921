/**
 * Where the Supabase backend is, as the browser and the build see it: the URL and the anon key, nothing else.
 * The service-role half lives in `server/service-config.ts`, which browser code may not import.
 *
 * Unset variables mean the local backend (`npm run db:start`) with the Supabase CLI's well-known anon key. A
 * production deploy sets PUBLIC_SUPABASE_URL / PUBLIC_SUPABASE_ANON_KEY for the site.
 */
export const LOCAL_SUPABASE_PUBLIC = {
  url: 'http://127.0.0.1:54321',
  anonKey:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
} as const;

/** The public URL and anon key: safe in the browser. */
export function publicSupabaseConfig(env: Record<string, string | undefined> = import.meta.env ?? {}) {
  return {
    url: env.PUBLIC_SUPABASE_URL || LOCAL_SUPABASE_PUBLIC.url,
    anonKey: env.PUBLIC_SUPABASE_ANON_KEY || LOCAL_SUPABASE_PUBLIC.anonKey,
  };
}

/**
 * The localStorage key under which supabase-js keeps the browser's session: its own default
 * (`sb-<first label of the host>-auth-token`), named here so the header can tell "someone is signed in" without
 * loading supabase-js, and passed to the client so the two can never differ.
 */
export function sessionStorageKey(url: string = publicSupabaseConfig().url): string {
  return `sb-${new URL(url).hostname.split('.')[0]}-auth-token`;
}

/** Whether supabase-js keeps a session in this browser: known without loading supabase-js. */
export function hasStoredSession(): boolean {
  return localStorage.getItem(sessionStorageKey()) !== null;
}
