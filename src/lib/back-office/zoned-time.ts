/**
 * Times in an organization's time zone (an IANA name such as "America/New_York", set with the publishing
 * queue): the back office tells publication times in it, and the editor's "Publish at" field is a wall time
 * in it, whatever zone the browser is in. Wall time to instant goes through @date-fns/tz, which handles the
 * daylight-saving gaps and overlaps.
 */
import { TZDate } from '@date-fns/tz';

/** A time in the zone, e.g. "Tue, Dec 1, 9:12 AM". */
export function formatInTimeZone(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleString('en-US', { timeZone, weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** The zone's short name at a time ("EST", "GMT+9"), shown beside times. */
export function timeZoneLabel(timeZone: string, at: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' }).formatToParts(at).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The `datetime-local` value (yyyy-MM-ddTHH:mm) that shows an ISO time as a wall time in the zone. */
export function toZonedInput(iso: string, timeZone: string): string {
  const wall = new TZDate(iso, timeZone);
  return `${wall.getFullYear()}-${pad(wall.getMonth() + 1)}-${pad(wall.getDate())}T${pad(wall.getHours())}:${pad(wall.getMinutes())}`;
}

/** The instant of a `datetime-local` value read as a wall time in the zone; null for anything else. */
export function fromZonedInput(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  // A date that does not exist (February 30, hour 24) would roll over into another one: refuse it.
  const calendar = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day || calendar.getUTCHours() !== hour || calendar.getUTCMinutes() !== minute || calendar.getUTCSeconds() !== second) return null;
  return new Date(new TZDate(year, month - 1, day, hour, minute, second, timeZone).getTime());
}
