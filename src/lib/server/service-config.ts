/**
 * The service-role side of the backend configuration: only Netlify functions, build tooling, the local
 * backend and tests import this, never browser code (a lint rule in tests/eslint.config.js keeps it so, and
 * tests/integration/site-secrets.test.ts checks that the built site carries neither key nor secret).
 */
import { LOCAL_SUPABASE_PUBLIC } from '../supabase-config.ts';

/**
 * The local backend (`npm run db:start`): the Supabase CLI's well-known demo keys and JWT secret. They are
 * valid only against a local backend, but they sign service-role tokens there, so they stay server-side.
 */
export const LOCAL_SUPABASE = {
  ...LOCAL_SUPABASE_PUBLIC,
  serviceRoleKey:
    'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZS1kZW1vIiwicm9sZSI6InNlcnZpY2Vfcm9sZSIsImV4cCI6MTk4MzgxMjk5Nn0.EGIM96RAZx35lJzdJsyH-qQwv8Hdp7fsn3W0YpN81IU',
  jwtSecret: 'super-secret-jwt-token-with-at-least-32-characters-long',
} as const;

/** The service-role configuration: SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY, else the local backend's. */
export function serviceSupabaseConfig(env: Record<string, string | undefined> = process.env) {
  const url = env.SUPABASE_URL || env.PUBLIC_SUPABASE_URL || LOCAL_SUPABASE.url;
  const serviceRoleKey = env.SUPABASE_SERVICE_ROLE_KEY || (url === LOCAL_SUPABASE.url ? LOCAL_SUPABASE.serviceRoleKey : '');
  if (!serviceRoleKey) throw new Error(`SUPABASE_SERVICE_ROLE_KEY is not set for ${url}`);
  return { url, serviceRoleKey };
}
