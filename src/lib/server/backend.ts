/**
 * How the functions reach the backend (Supabase's REST, Auth and Storage), and what they answer while it is
 * down. Every backend call goes through `backendFetch`: a short connect timeout (a backend that does not
 * answer costs a second, not the platform's ten), a bound on the wait for its answer (the function answers
 * before the platform ends it), and no retries of its own (supabase-js would retry a read three times with
 * backoff, seven seconds in all; the caller retries instead, told when by Retry-After).
 *
 * `withBackend` wraps a function's handler: when one of its backend calls could not reach the backend (no
 * connection, a timeout, or the gateway's 502/503/504) and the handler then answered with an error (its
 * own 500, or a 404 or 401 it could not have known to be true), the answer becomes 503 with Retry-After and
 * a plain message, whatever the handler made of the failure. A handler that succeeded despite a failed side
 * call (a best-effort mail, say) keeps its answer.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Agent } from 'undici';
import { SERVICE_UNAVAILABLE, UNAVAILABLE_STATUSES } from '../service-unavailable.ts';

/** How long connecting to the backend may take. */
export const BACKEND_CONNECT_TIMEOUT_MS = 1_000;
/** How long the backend may take to start answering a request (a synchronous function has ten seconds). */
export const BACKEND_ANSWER_TIMEOUT_MS = 8_000;
/** What a 503 asks the caller to wait before trying again. */
export const RETRY_AFTER_SECONDS = 30;
const dispatcher = new Agent({ connect: { timeout: BACKEND_CONNECT_TIMEOUT_MS }, headersTimeout: BACKEND_ANSWER_TIMEOUT_MS });
/** Per request: whether a backend call of this request failed to reach the backend. */
const requestState = new AsyncLocalStorage<{ unreachable: boolean }>();

/**
 * Marks this request's backend as unavailable: backendFetch does it for a call that could not connect, and
 * callers for a failure it cannot see as one (Storage refusing to save a file with an error of its own, say).
 * The function's error answer then becomes the 503.
 */
export function markBackendUnavailable(): void {
  const state = requestState.getStore();
  if (state) state.unreachable = true;
}

/** `fetch` for supabase-js clients on the server (global.fetch); notes a backend out of reach. */
export const backendFetch: typeof fetch = async (input, init) => {
  try {
    // The platform's own fetch (supabase-js hands it the platform's FormData and Blob), with undici's Agent
    // for the timeouts: Node's fetch takes any undici dispatcher.
    const response = await fetch(input, { ...init, dispatcher } as RequestInit);
    if (UNAVAILABLE_STATUSES.has(response.status)) markBackendUnavailable();
    return response;
  } catch (error) {
    // A request its caller cancelled is not the backend's failure.
    if (!init?.signal?.aborted) markBackendUnavailable();
    throw error;
  }
};

/**
 * A supabase-js client for one request on the server (the service role's, a caller's, a sign-in's): no
 * session kept, backendFetch, no retries of its own; `headers` go with every call.
 */
export function backendClient(url: string, key: string, headers: Record<string, string> = {}): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: backendFetch, headers },
    db: { retry: false },
  });
}

/** 503 with Retry-After and a plain message. */
export function backendUnavailable(): Response {
  return Response.json(SERVICE_UNAVAILABLE, { status: 503, headers: { 'retry-after': String(RETRY_AFTER_SECONDS), 'cache-control': 'no-store' } });
}

/**
 * Wraps a function's handler: its error answers become 503 when the backend was out of reach (see above), in
 * the shape `unavailable` gives (the functions' own by default; an API with its own error shape gives its own).
 */
export function withBackend<Rest extends unknown[]>(
  handler: (req: Request, ...rest: Rest) => Promise<Response>,
  unavailable: (req: Request) => Response = backendUnavailable,
) {
  return (req: Request, ...rest: Rest): Promise<Response> =>
    requestState.run({ unreachable: false }, async () => {
      const state = requestState.getStore()!;
      try {
        const response = await handler(req, ...rest);
        return state.unreachable && response.status >= 400 ? unavailable(req) : response;
      } catch (error) {
        if (state.unreachable) return unavailable(req);
        throw error;
      }
    });
}
