/**
 * Calling the back office's Netlify functions (`/api/admin/*`) as the signed-in admin: the session's
 * access token goes along as a bearer token, and the function decides whether the caller may act.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { backendFetch } from './supabase-browser.ts';

/** A function's answer: the HTTP status, and the JSON body (or the raw text when it is not JSON). */
export interface FunctionAnswer {
  ok: boolean;
  status: number;
  body: unknown;
  text: string;
}

/**
 * POSTs `body` as JSON to `path` with the admin's token. Resolves with any HTTP answer; rejects only when
 * there is no session or the request could not be sent (network failure).
 */
export async function postAdminFunction(client: SupabaseClient, path: string, body: unknown, fetchImpl: typeof fetch = backendFetch): Promise<FunctionAnswer> {
  const { data } = await client.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error(`Calling ${path} needs a signed-in session`);
  const response = await fetchImpl(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (e.g. a proxy's error page): the text is the answer.
  }
  return { ok: response.ok, status: response.status, body: parsed, text };
}

/** The `message` of a `{ message }` answer, else its text. */
export function answerMessage(answer: FunctionAnswer): string {
  const body = answer.body as { message?: unknown } | null;
  return typeof body?.message === 'string' ? body.message : answer.text;
}
