/**
 * Where the Supabase backend is, for the build, the browser and the functions.
 *
 * Unset variables mean the local backend (`npm run db:start`), whose keys are the Supabase CLI's
 * well-known demo keys: public by design, valid only against the local JWT secret. A production
 * deploy sets PUBLIC_SUPABASE_URL / PUBLIC_SUPABASE_ANON_KEY for the site and SUPABASE_URL /
 * SUPABASE_SERVICE_ROLE_KEY for the functions (the service key never reaches the browser).
 */
export const LOCAL_SUPABASE = {
  url: 'http://127.0.0.1:54321',
  anonKey:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6ImFub24iLCJleHAiOjE5ODM4MTI5OTZ9.CRXP1A7WOeoJeXxjNni43kdQwgnWNReilDMblYTn_I0',
  serviceRoleKey:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU',
  jwtSecret: 'super-secret-jwt-token-with-at-least-32-characters-long',
} as const;

/** The public URL and anon key: safe in the browser. */
export function publicSupabaseConfig(env: Record<string, string | undefined> = import.meta.env ?? {}) {
  return {
    url: env.PUBLIC_SUPABASE_URL || LOCAL_SUPABASE.url,
    anonKey: env.PUBLIC_SUPABASE_ANON_KEY || LOCAL_SUPABASE.anonKey,
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

/** The service-role configuration: only for Netlify functions and build tooling, never the browser. */
export function serviceSupabaseConfig(env: Record<string, string | undefined> = process.env) {
  const url = env.SUPABASE_URL || env.PUBLIC_SUPABASE_URL || LOCAL_SUPABASE.url;
  const serviceRoleKey = env.SUPABASE_SERVICE_ROLE_KEY || (url === LOCAL_SUPABASE.url ? LOCAL_SUPABASE.serviceRoleKey : '');
  if (!serviceRoleKey) throw new Error(`SUPABASE_SERVICE_ROLE_KEY is not set for ${url}`);
  return { url, serviceRoleKey };
}
