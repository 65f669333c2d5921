/**
 * The client calendar page (/client-calendar#<token>), in the browser: reads what the link shows through the
 * public API (`client_calendar`, as anon: the token is the only key, and the database refuses any unknown,
 * expired or revoked one alike) and lays the posts out by day in the site's time zone. No supabase-js: one
 * request with the public anon key.
 */
import { ClientCalendarSchema, ClientLinkTokenSchema, type ClientCalendar } from '../schemas/client-calendar.ts';

export type ClientCalendarAnswer =
  | { kind: 'shown'; calendar: ClientCalendar }
  /** The link is not (or no longer) valid: the database's words, the same for every reason. */
  | { kind: 'refused'; message: string }
  /** No answer, or one the page cannot read: worth another try. */
  | { kind: 'failed' };

/** What the page says when the address has no token (a link cut short when it was pasted). */
export const INCOMPLETE_LINK = 'This link is incomplete: open the whole link you were sent, including everything after "#".';

/** The token after `#`, or null when it cannot be one. */
export function tokenFromHash(hash: string): string | null {
  const token = hash.replace(/^#/, '').trim();
  return ClientLinkTokenSchema.safeParse(token).success ? token : null;
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
    const parsed = ClientCalendarSchema.safeParse(body);
    return parsed.success ? { kind: 'shown', calendar: parsed.data } : { kind: 'failed' };
  }
  const refused = body && typeof body === 'object' && (body as { code?: unknown }).code === '28000';
  return refused ? { kind: 'refused', message: String((body as { message?: unknown }).message) } : { kind: 'failed' };
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
