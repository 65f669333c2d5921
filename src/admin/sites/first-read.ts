/**
 * The sites board's first read, started by an inline script in the page itself (src/pages/admin/sites.astro),
 * as the browser parses the page: before the back office's JavaScript (React, supabase-js, the access check)
 * has loaded, and before the page's module scripts run (they wait for the whole document and their imports, a
 * fifth of a second later). At 500 sites the board's data is the longest read; started this early it is there,
 * and the backend is done with it, when the access check's own reads go out. One request to `sites_board` with
 * the access token supabase-js stored, without loading supabase-js; nothing is read that the database would not
 * give this session anyway (the function answers only the caller's own active sites). Taken once by the board;
 * without a stored session that is still fresh, or when the request fails or is refused, it answers null and the
 * board reads the usual way (through the back office's client, which then hears of an ended session as every
 * other request does).
 */
import { publicSupabaseConfig, sessionStorageKey } from '../../lib/supabase-config.ts';
import type { BoardSite } from '../../lib/back-office/sites-board.ts';

/** Where the read goes and where supabase-js keeps the session: given to the inline script by the build. */
export interface FirstReadConfig {
  endpoint: string;
  anonKey: string;
  storageKey: string;
}

/** The read under way, on the page's window until the board takes it. */
type FirstReadWindow = Window & { sitesBoardFirstRead?: Promise<BoardSite[] | null> };

/**
 * Starts the read (on the board's view only, not the calendar's). It runs as the page's inline script, from its
 * own text (firstReadScript), so it refers to nothing outside itself.
 */
export function startFirstRead(config: FirstReadConfig): void {
  let token: string | null;
  try {
    const stored = JSON.parse(localStorage.getItem(config.storageKey) ?? 'null') as { access_token?: unknown; expires_at?: unknown } | null;
    // Good for at least another half minute, else supabase-js refreshes it first.
    const fresh = typeof stored?.expires_at === 'number' && stored.expires_at * 1000 > Date.now() + 30_000;
    token = fresh && typeof stored.access_token === 'string' ? stored.access_token : null;
  } catch {
    token = null;
  }
  if (!token || new URLSearchParams(window.location.search).get('view') === 'calendar') return;
  (window as FirstReadWindow).sitesBoardFirstRead = fetch(config.endpoint, {
    method: 'POST',
    headers: { apikey: config.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  }).then(
    async (response) => (response.ok ? ((await response.json()) as BoardSite[]) : null),
    () => null,
  );
}

/**
 * The inline script's text: startFirstRead with this backend's endpoint and key (`<` escaped, so nothing in the
 * configuration can end the script element).
 */
export function firstReadScript(env: Record<string, string | undefined> = import.meta.env ?? {}): string {
  const { url, anonKey } = publicSupabaseConfig(env);
  const config: FirstReadConfig = { endpoint: `${url}/rest/v1/rpc/sites_board`, anonKey, storageKey: sessionStorageKey(url) };
  return `(${startFirstRead.toString()})(${JSON.stringify(config).replace(/</g, '\\u003c')});`;
}

/** The first read's answer, once (null: read the usual way). */
export async function takeFirstRead(): Promise<BoardSite[] | null> {
  const page = window as FirstReadWindow;
  const read = page.sitesBoardFirstRead;
  page.sitesBoardFirstRead = undefined;
  return read ? await read : null;
}
