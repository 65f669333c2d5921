/**
 * Client calendar links (migration 20261129003400_client_calendar_links.sql, whose checks these bounds mirror):
 * what an admin gives to make one. (The signed-out page reads its answer without zod: src/lib/client-calendar.ts.)
 */
import { z } from './zod.ts';

/** How long a link may last, in days (the database refuses anything else). */
const CLIENT_LINK_DAYS = { min: 1, max: 365 } as const;
/** The lifetimes the back office offers, in days. */
export const CLIENT_LINK_DURATIONS = [7, 30, 90, 365] as const;

/** A new link: who it is for, and for how many days it works. */
export const ClientLinkInputSchema = z.object({
  label: z.string().trim().min(1, 'Say who the link is for (a client\'s name, for instance).').max(80, 'At most 80 characters'),
  days: z.coerce.number<unknown>().int('A whole number of days').min(CLIENT_LINK_DAYS.min, 'From 1 to 365 days').max(CLIENT_LINK_DAYS.max, 'From 1 to 365 days'),
});
export type ClientLinkInput = z.infer<typeof ClientLinkInputSchema>;
