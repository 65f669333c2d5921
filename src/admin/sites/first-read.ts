/**
 * The sites board's first read, started by the page's own small script (src/pages/admin/sites.astro) before the
 * back office's JavaScript (React, supabase-js, the access check) has loaded, so that at 500 sites the board's
 * data (the longest read) is there when the access check is done, rather than asked for only then. One request to `sites_board` with the access token supabase-js stored, without loading
 * supabase-js; nothing is read that the database would not give this session anyway (the function answers only
 * the caller's own active sites). Taken once by the board; without a stored session that is still fresh, or when
 * the request fails or is refused, it answers null and the board reads the usual way (through the back office's
 * client, which then hears of an ended session as every other request does).
 */
import { publicSupabaseConfig, sessionStorageKey } from '../../lib/supabase-config.ts';
import type { BoardSite } from '../../lib/back-office/sites-board.ts';

let firstRead: Promise<BoardSite[] | null> | null = null;

/** A stored access token that is good for at least another half minute, or null. */
function storedAccessToken(): string | null {
  try {
    const stored = JSON.parse(localStorage.getItem(sessionStorageKey()) ?? 'null') as { access_token?: unknown; expires_at?: unknown } | null;
    const fresh = typeof stored?.expires_at === 'number' && stored.expires_at * 1000 > Date.now() + 30_000;
    return fresh && typeof stored.access_token === 'string' ? stored.access_token : null;
  } catch {
    return null;
  }
}

/** Starts the read (on the board's page only, not the calendar's). */
export function startFirstRead(): void {
  const token = storedAccessToken();
  if (!token || new URLSearchParams(window.location.search).get('view') === 'calendar') return;
  const { url, anonKey } = publicSupabaseConfig();
  firstRead = fetch(`${url}/rest/v1/rpc/sites_board`, {
    method: 'POST',
    headers: { apikey: anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  }).then(
    async (response) => (response.ok ? ((await response.json()) as BoardSite[]) : null),
    () => null,
  );
}

/** The first read's answer, once (null: read the usual way). */
export async function takeFirstRead(): Promise<BoardSite[] | null> {
  const read = firstRead;
  firstRead = null;
  return read ? await read : null;
}
