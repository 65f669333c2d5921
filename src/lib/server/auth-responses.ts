/** What the sign-in and invitation functions share: where Auth is, and how they answer. */
import { publicSupabaseConfig } from '../supabase-config.ts';
import { serviceSupabaseConfig } from './service-config.ts';
import { AUTH_MESSAGES, type Notice } from '../auth-messages.ts';
import type { AuthEndpoint } from './sign-in.ts';

/** Supabase Auth as the functions reach it (the server-side URL, the public anon key). */
export function authEndpoint(env: Record<string, string | undefined> = process.env): AuthEndpoint {
  return { url: serviceSupabaseConfig(env).url, anonKey: publicSupabaseConfig(env).anonKey };
}

/** A JSON answer `{ title, message, ...extra }`: the toast the browser shows, plus data for the flow. */
export function noticeResponse(status: number, notice: Notice, extra: Record<string, unknown> = {}, headers?: HeadersInit): Response {
  return Response.json({ title: notice.title, message: notice.description, ...extra }, { status, headers });
}

/** 429 'Too Many Attempts', with `retry-after` in seconds until the lockout ends. */
export function lockedOutResponse(until: Date): Response {
  const retryAfter = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return noticeResponse(429, AUTH_MESSAGES.lockedOut, {}, { 'retry-after': String(retryAfter) });
}

/**
 * Waits until at least `floorMs` have passed since `startedAt`, so refusals take about the same time whether
 * the address is unknown, the password wrong or the account locked (no timing hint about accounts).
 */
export async function answerNoSoonerThan(startedAt: number, floorMs: number): Promise<void> {
  const remaining = startedAt + floorMs - Date.now();
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
}
