/**
 * The client calendar page (/client-calendar#<token>), in the browser: reads what the link shows through the
 * public API (`client_calendar`, as anon: the token is the only key, and the database refuses any unknown,
 * expired or revoked one alike) and lays the posts out by day in the site's time zone. A public page stays light
 * (a few KB of script, no React, no supabase-js, no zod): one request with the public anon key, and the answer's
 * shape checked here by hand.
 */

/** What a valid link shows: the site, the link's own name and end, and the posts going out. */
export interface ClientCalendar {
  site: { name: string; time_zone: string };
  link: { label: string; expires_at: string };
  posts: { title: string; published_at: string; queued: boolean }[];
}

export type ClientCalendarAnswer =
  | { kind: 'shown'; calendar: ClientCalendar }
  /** The link is not (or no longer) valid: the database's words, the same for every reason. */
  | { kind: 'refused'; message: string }
  /** No answer, or one the page cannot read: worth another try. */
  | { kind: 'failed' };

/** What the page says when the address has no token (a link cut short when it was pasted). */
export const INCOMPLETE_LINK = 'This link is incomplete: open the whole link you were sent, including everything after "#".';

/** The token after `#` (32 random bytes in base64url), or null when it cannot be one. */
export function tokenFromHash(hash: string): string | null {
  const token = hash.replace(/^#/, '').trim();
  return /^[A-Za-z0-9_-]{43}$/.test(token) ? token : null;
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The answer of `client_calendar` as the page shows it, or null when it has another shape. */
export function readClientCalendar(body: unknown): ClientCalendar | null {
  if (!isRecord(body) || !isRecord(body.site) || !isRecord(body.link) || !Array.isArray(body.posts)) return null;
  const { site, link, posts } = body;
  if (!isText(site.name) || !isText(site.time_zone) || !isText(link.label) || !isText(link.expires_at)) return null;
  const read = posts.map((post) => (isRecord(post) && isText(post.title) && isText(post.published_at) && typeof post.queued === 'boolean' ? { title: post.title, published_at: post.published_at, queued: post.queued } : null));
  if (read.includes(null)) return null;
  return { site: { name: site.name, time_zone: site.time_zone }, link: { label: link.label, expires_at: link.expires_at }, posts: read as ClientCalendar['posts'] };
}

/** Asks the backend what the link shows. */
export async function loadClientCalendar(token: string, backend: { url: string; anonKey: string }, fetchImpl: typeof fetch = fetch): Promise<ClientCalendarAnswer> {
  let response: Response;
  try {
    response = await fetchImpl(`${backend.url}/rest/v1/rpc/client_calendar`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, authorization: `Bearer ${backend.anonKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ p_token: token }),
    });
  } catch {
    return { kind: 'failed' };
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const calendar = readClientCalendar(body);
    return calendar ? { kind: 'shown', calendar } : { kind: 'failed' };
  }
  return isRecord(body) && body.code === '28000' && isText(body.message) ? { kind: 'refused', message: body.message } : { kind: 'failed' };
}

/** One day of the calendar: its date in the site's zone, and its posts in time order. */
export interface CalendarDay {
  /** yyyy-mm-dd in the site's zone. */
  key: string;
  /** "Tuesday, December 1, 2026". */
  label: string;
  posts: { title: string; time: string; queued: boolean; at: string }[];
}

/** The posts by day in the zone, days in order (the answer is already in time order). */
export function calendarDays(posts: ClientCalendar['posts'], timeZone: string): CalendarDay[] {
  const days = new Map<string, CalendarDay>();
  const dayKey = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dayLabel = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
  const time = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', minute: '2-digit' });
  for (const post of posts) {
    const at = new Date(post.published_at);
    const key = dayKey.format(at);
    const day = days.get(key) ?? { key, label: dayLabel.format(at), posts: [] };
    day.posts.push({ title: post.title, time: time.format(at), queued: post.queued, at: post.published_at });
    days.set(key, day);
  }
  return [...days.values()];
}
