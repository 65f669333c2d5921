import { z } from './zod.ts';

/** An organization's time zone until an admin chooses another (the column's default, publishing_queues.time_zone). */
export const DEFAULT_TIME_ZONE = 'America/New_York';

/** `HH:MM` or `HH:MM:SS` (Postgres answers the latter), read as minutes after midnight. */
const TimeOfDaySchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'Enter a time as HH:MM');
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * The publishing queue's slots, as the settings form sends them to set_publishing_queue; mirrors the checks
 * of public.publishing_queues (migration 20261124000300_publishing_queue.sql).
 */
export const QueueSettingsSchema = z
  .object({
    /** IANA time zone of the slots (the database checks Postgres knows it). */
    time_zone: z.string().min(1, 'Choose a time zone').max(64),
    /** Posts a day with slots, 1 to 24: the window is divided evenly between them. */
    posts_per_day: z.number().int().min(1, 'At least 1 post a day').max(24, 'At most 24 posts a day'),
    /** ISO weekdays (1 Monday ... 7 Sunday) that have slots. */
    weekdays: z.array(z.number().int().min(1).max(7)).min(1, 'Choose at least one weekday').transform((days) => [...new Set(days)].sort()),
    /** The first slot of a day; the window's start. */
    window_start: TimeOfDaySchema,
    /** The end of the window: every slot is before it. */
    window_end: TimeOfDaySchema,
    /** Each slot moves by 0 to this many minutes (the same for the same slot), so posts don't land on the hour. */
    spread_minutes: z.number().int().min(0).max(120, 'At most 120 minutes'),
    /** Posts a slot publishes together, 1 to 10 and at most the day's: one build (one deploy's credits) for all of them. */
    posts_per_slot: z.number().int().min(1, 'At least 1 post a slot').max(10, 'At most 10 posts a slot'),
  })
  .refine((queue) => queue.posts_per_slot <= queue.posts_per_day, { message: 'At most the posts of a day', path: ['posts_per_slot'] })
  .refine((queue) => minutesOf(queue.window_start) < minutesOf(queue.window_end), { message: 'The window must start before it ends', path: ['window_end'] })
  .refine((queue) => queue.spread_minutes * queue.posts_per_day < minutesOf(queue.window_end) - minutesOf(queue.window_start), {
    message: 'The spread must be shorter than the time between two posts',
    path: ['spread_minutes'],
  });
export type QueueSettingsInput = z.input<typeof QueueSettingsSchema>;
