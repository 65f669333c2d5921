/**
 * The browser's one Supabase client, created on first use (never during the static build or at import, so
 * pages that do not need it pay nothing). It keeps the session in localStorage, refreshes it before expiry
 * (autoRefreshToken) and picks up sessions from reset links in the URL (detectSessionInUrl, implicit flow).
 * Every API answer passes `backendFetch`: the database refuses a request whose session, account or
 * memberships have ended (the pre-request check `private.check_request`), and the listener set with
 * `onAccessEnded` (the back office's) hears of it at the first such request; and every request tells the
 * listener set with `onReachability` whether the backend answered, so the back office can say it is
 * temporarily unavailable (no connection, or a gateway's 502/503/504) and notice when it is back.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { publicSupabaseConfig, sessionStorageKey } from '../supabase-config.ts';
import { UNAVAILABLE_STATUSES } from '../service-unavailable.ts';

/** Why the database refused a signed-in request outright (the `message` of its 401/403 answer). */
export type AccessEnded = 'session_ended' | 'account_inactive' | 'membership_ended';
const ACCESS_ENDED = new Set<string>(['session_ended', 'account_inactive', 'membership_ended']);

let client: SupabaseClient | undefined;
let listener: ((reason: AccessEnded) => void) | null = null;
let reachabilityListener: ((reachable: boolean) => void) | null = null;

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

/** Calls `handle` after every request to the backend or the functions: whether the backend answered. */
export function onReachability(handle: (reachable: boolean) => void): void {
  reachabilityListener = handle;
}

/**
 * fetch for everything the back office asks of the backend (the Supabase client and the `/api/admin/*`
 * functions): tells the reachability listener whether an answer came (a request its caller cancelled tells
 * nothing), and the access listener about a refusal because access ended; the caller still gets the answer.
 */
export async function backendFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(input, init);
  } catch (error) {
    if (!init?.signal?.aborted) reachabilityListener?.(false);
    throw error;
  }
  reachabilityListener?.(!UNAVAILABLE_STATUSES.has(response.status));
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
      global: { fetch: backendFetch },
    });
  }
  return client;
}

/** Asks the backend whether it answers again (Auth's health check); the answer reaches `onReachability`. */
export async function probeBackend(): Promise<void> {
  const { url, anonKey } = publicSupabaseConfig();
  await backendFetch(`${url}/auth/v1/health`, { headers: { apikey: anonKey }, cache: 'no-store' }).catch(() => undefined);
}
