/**
 * Client calendar links (migration 20261207002200_client_calendar_links.sql, whose checks these bounds mirror):
 * what an admin gives to make one, and what the signed-out page reads with it (`client_calendar(p_token)`).
 */
import { z } from './zod.ts';

/** How long a link may last, in days (the database refuses anything else). */
export const CLIENT_LINK_DAYS = { min: 1, max: 365 } as const;
/** The lifetimes the back office offers, in days. */
export const CLIENT_LINK_DURATIONS = [7, 30, 90, 365] as const;
/** At most this many links of one site are in force at once. */
export const CLIENT_LINKS_IN_FORCE = 20;

/** A new link: who it is for, and for how many days it works. */
export const ClientLinkInputSchema = z.object({
  label: z.string().trim().min(1, 'Say who the link is for (a client\'s name, for instance).').max(80, 'At most 80 characters'),
  days: z.coerce.number<unknown>().int('A whole number of days').min(CLIENT_LINK_DAYS.min, 'From 1 to 365 days').max(CLIENT_LINK_DAYS.max, 'From 1 to 365 days'),
});
export type ClientLinkInput = z.infer<typeof ClientLinkInputSchema>;

/** A link's token as the page finds it after `#`: 32 random bytes in base64url. */
export const ClientLinkTokenSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** What a valid link shows: the site, the link's own name and end, and the posts going out. */
export const ClientCalendarSchema = z.object({
  site: z.object({ name: z.string(), time_zone: z.string() }),
  link: z.object({ label: z.string(), expires_at: z.string() }),
  posts: z.array(z.object({ title: z.string(), published_at: z.string(), queued: z.boolean() })),
});
export type ClientCalendar = z.infer<typeof ClientCalendarSchema>;
