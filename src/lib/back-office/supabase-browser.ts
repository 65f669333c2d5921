/**
 * The browser's one Supabase client, created on first use (never during the static build or at import, so
 * pages that do not need it pay nothing). It keeps the session in localStorage, refreshes it before expiry
 * (autoRefreshToken) and picks up sessions from reset links in the URL (detectSessionInUrl, implicit flow).
 * Every API answer passes `watchRefusals`: the database refuses a request whose session, account or
 * memberships have ended (the pre-request check `private.check_request`), and the listener set with
 * `onAccessEnded` (the back office's) hears of it at the first such request.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { publicSupabaseConfig, sessionStorageKey } from '../supabase-config.ts';

/** Why the database refused a signed-in request outright (the `message` of its 401/403 answer). */
export type AccessEnded = 'session_ended' | 'account_inactive' | 'membership_ended';
const ACCESS_ENDED = new Set<string>(['session_ended', 'account_inactive', 'membership_ended']);

let client: SupabaseClient | undefined;
let listener: ((reason: AccessEnded) => void) | null = null;

/** Calls `handle` (once per page at most) when an API request is refused because access has ended. */
export function onAccessEnded(handle: (reason: AccessEnded) => void): void {
  listener = handle;
}

/** The reason a refused API answer gives, or null for any other answer. */
export async function accessEndedReason(response: Response): Promise<AccessEnded | null> {
  if (response.status !== 401 && response.status !== 403) return null;
  const body: unknown = await response.clone().json().catch(() => null);
  const message = body && typeof body === 'object' && 'message' in body ? (body as { message: unknown }).message : null;
  return typeof message === 'string' && ACCESS_ENDED.has(message) ? (message as AccessEnded) : null;
}

/** fetch, telling the listener about a refusal because access ended; the caller still gets the answer. */
async function watchRefusals(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  const reason = await accessEndedReason(response);
  if (reason && listener) {
    const handle = listener;
    listener = null;
    handle(reason);
  }
  return response;
}

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
      global: { fetch: watchRefusals },
    });
  }
  return client;
}
