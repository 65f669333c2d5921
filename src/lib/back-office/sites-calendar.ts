/**
 * The calendar across sites (/admin/sites?view=calendar): every scheduled and queued post of the sites a person
 * belongs to, by week or by month, in the person's own time zone, each site in its colour and with its own zone
 * shown. `sites_calendar(from, to)` answers the sites and the posts of a range in one call; editors and admins
 * move a post to another day with `move_post_to_day` (a queued post to its queue's first slot on that day, the
 * queue re-flowing; a post at a time of its own keeps its time of day). Migration 20261129003200_sites_calendar.sql.
 */
import { TZDate } from '@date-fns/tz';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { MemberRole } from './memberships.ts';

export type CalendarSite = { organization_id: string; name: string; role: MemberRole; time_zone: string };
export type CalendarPost = { id: string; organization_id: string; title: string; published_at: string; queued: boolean };
export type SitesCalendar = { sites: CalendarSite[]; posts: CalendarPost[] };

export type CalendarView = 'week' | 'month';

/** A day of the calendar: its date (yyyy-MM-dd) in the person's zone, and whether it is in the month shown. */
export type CalendarDay = { date: string; inMonth: boolean };

/** The days a view shows around `anchor` (a yyyy-MM-dd), weeks from Monday, and the instants they span. */
export function calendarRange(view: CalendarView, anchor: string, timeZone: string): { days: CalendarDay[]; from: Date; to: Date; title: string } {
  const [year, month, day] = anchor.split('-').map(Number) as [number, number, number];
  const start = view === 'week' ? new Date(Date.UTC(year, month - 1, day)) : new Date(Date.UTC(year, month - 1, 1));
  // Back to Monday (getUTCDay: Sunday 0).
  start.setUTCDate(start.getUTCDate() - ((start.getUTCDay() + 6) % 7));
  const count = view === 'week' ? 7 : 42;
  const days = Array.from({ length: count }, (_, index) => {
    const date = new Date(start);
    date.setUTCDate(start.getUTCDate() + index);
    return { date: date.toISOString().slice(0, 10), inMonth: view === 'week' || date.getUTCMonth() === month - 1 };
  });
  const midnight = (date: string) => {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    return new Date(new TZDate(y, m - 1, d, 0, 0, 0, timeZone).getTime());
  };
  const after = new Date(Date.parse(`${days.at(-1)!.date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  const title =
    view === 'month'
      ? new Date(Date.UTC(year, month - 1, 1)).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' })
      : `Week of ${new Date(`${days[0]!.date}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' })}`;
  return { days, from: midnight(days[0]!.date), to: midnight(after), title };
}

/** The date (yyyy-MM-dd) of an instant in a zone. */
export function dayIn(iso: string | Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
}

/** The anchor a step back or forward leads to: a week, or the first of the month before or after. */
export function stepAnchor(view: CalendarView, anchor: string, step: -1 | 1): string {
  const [year, month, day] = anchor.split('-').map(Number) as [number, number, number];
  const date = view === 'week' ? new Date(Date.UTC(year, month - 1, day + 7 * step)) : new Date(Date.UTC(year, month - 1 + step, 1));
  return date.toISOString().slice(0, 10);
}

/** Each site's colour on the calendar, by its place in the list (the same site keeps it while the list does). */
export const SITE_COLOURS = ['bg-sky-600', 'bg-emerald-600', 'bg-amber-600', 'bg-fuchsia-600', 'bg-rose-600', 'bg-indigo-600', 'bg-teal-600', 'bg-orange-700'] as const;

export function siteColour(sites: readonly CalendarSite[], organizationId: string): string {
  const index = sites.findIndex((site) => site.organization_id === organizationId);
  return SITE_COLOURS[Math.max(0, index) % SITE_COLOURS.length]!;
}

/** Whether the person may move the site's posts: editors and admins; viewers only look. */
export const mayMove = (site: CalendarSite | undefined) => site?.role === 'editor' || site?.role === 'admin';

export async function loadSitesCalendar(client: SupabaseClient, from: Date, to: Date): Promise<SitesCalendar> {
  const { data, error } = await client.rpc('sites_calendar', { p_from: from.toISOString(), p_to: to.toISOString() });
  if (error) throw new Error(`The calendar could not be loaded: ${error.message}`);
  return data as SitesCalendar;
}

/** Moves a post to a day (yyyy-MM-dd in its site's zone); answers when it now goes out. */
export async function movePostToDay(client: SupabaseClient, postId: string, day: string): Promise<string> {
  const { data, error } = await client.rpc('move_post_to_day', { p_post_id: postId, p_day: day });
  if (error) throw new Error(error.message);
  return data as string;
}
