/**
 * The publishing queue in the back office: the organization's slots (publishing_queues, set through
 * set_publishing_queue by admins) and its queued posts in order, with what blog management does to them:
 * reorder (move_queued_post), publish now, take out of the queue. The database keeps the queue packed: each
 * change re-flows the later slots (migration 20261124000300_publishing_queue.sql). Times are shown in the
 * organization's time zone, which is part of these settings.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { sendDueRebuilds } from './site-builds.ts';

/** The queue's slots as stored: `weekdays` are ISO days (1 Monday ... 7 Sunday); times are `HH:MM[:SS]`. */
export interface QueueSettings {
  time_zone: string;
  posts_per_day: number;
  weekdays: number[];
  window_start: string;
  window_end: string;
  spread_minutes: number;
  /** Posts a slot publishes together (one build). */
  posts_per_slot: number;
}

/** The weekdays as the settings form lists them. */
export const WEEKDAYS: readonly { day: number; label: string; short: string }[] = [
  { day: 1, label: 'Monday', short: 'Mon' },
  { day: 2, label: 'Tuesday', short: 'Tue' },
  { day: 3, label: 'Wednesday', short: 'Wed' },
  { day: 4, label: 'Thursday', short: 'Thu' },
  { day: 5, label: 'Friday', short: 'Fri' },
  { day: 6, label: 'Saturday', short: 'Sat' },
  { day: 7, label: 'Sunday', short: 'Sun' },
];

/** The time zones the browser knows (IANA names), for the settings' select. */
export function timeZoneNames(): string[] {
  return typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
}

/** The organization's queue settings (every organization has a row). */
export async function loadQueueSettings(client: SupabaseClient, organizationId: string): Promise<QueueSettings> {
  const { data, error } = await client
    .from('publishing_queues')
    .select('time_zone, posts_per_day, weekdays, window_start, window_end, spread_minutes, posts_per_slot')
    .eq('organization_id', organizationId)
    .single();
  if (error) throw new Error(`Loading the publishing queue of ${organizationId} failed: ${error.message}`);
  return data as QueueSettings;
}

/**
 * Saves the settings (admins only; the database checks them, logs the change and re-flows the queue onto the
 * new slots). Rejects with the database's message for settings it refuses.
 */
export async function saveQueueSettings(client: SupabaseClient, organizationId: string, settings: QueueSettings): Promise<QueueSettings> {
  const { data, error } = await client.rpc('set_publishing_queue', {
    p_organization_id: organizationId,
    p_time_zone: settings.time_zone,
    p_posts_per_day: settings.posts_per_day,
    p_weekdays: settings.weekdays,
    p_window_start: settings.window_start,
    p_window_end: settings.window_end,
    p_spread_minutes: settings.spread_minutes,
    p_posts_per_slot: settings.posts_per_slot,
  });
  if (error) throw new Error(queueSettingsProblem(error));
  return data as QueueSettings;
}

/** The message for settings the database refused (the form checks QueueSettingsSchema first). */
function queueSettingsProblem(error: { code?: string; message: string }): string {
  if (error.code === '42501') return 'Only an admin of this organization can change the publishing queue.';
  if (error.code === '22023') return error.message; // e.g. "Unknown time zone: Mars/Olympus"
  return `The publishing queue could not be saved: ${error.message}`;
}

/** A post waiting in the queue; `published_at` is its slot. */
export interface QueuedPost {
  id: string;
  title: string;
  slug: string;
  published_at: string;
}

/** The organization's queued posts, next out first. */
export async function listQueue(client: SupabaseClient, organizationId: string): Promise<QueuedPost[]> {
  const { data, error } = await client
    .from('blog_posts')
    .select('id, title, slug, published_at')
    .eq('organization_id', organizationId)
    .eq('queued', true)
    .order('published_at')
    .order('id');
  if (error) throw new Error(`Loading the publishing queue of ${organizationId} failed: ${error.message}`);
  return (data ?? []) as QueuedPost[];
}

/** Moves a queued post to a position (1 = next out); the later slots re-flow. Answers its new slot. */
export async function moveQueuedPost(client: SupabaseClient, postId: string, position: number): Promise<string> {
  const { data, error } = await client.rpc('move_queued_post', { p_post_id: postId, p_position: position });
  if (error) throw new Error(`Moving the post failed: ${error.message}`);
  return data as string;
}

/** Publishes a queued post now (it leaves the queue; the later ones move up) and asks for the build. */
export async function publishQueuedPostNow(client: SupabaseClient, organizationId: string, postId: string): Promise<void> {
  await updateQueuedPost(client, organizationId, postId, { status: 'published', published_at: new Date().toISOString() });
  sendDueRebuilds(client, organizationId);
}

/** Takes a post out of the queue: it becomes a draft again; the later ones move up. */
export async function takeOutOfQueue(client: SupabaseClient, organizationId: string, postId: string): Promise<void> {
  await updateQueuedPost(client, organizationId, postId, { status: 'draft', published_at: null });
}

async function updateQueuedPost(client: SupabaseClient, organizationId: string, postId: string, change: { status: string; published_at: string | null }) {
  const { data, error } = await client.from('blog_posts').update(change).eq('id', postId).eq('organization_id', organizationId).select('id');
  if (error) throw new Error(`Changing the post failed: ${error.message}`);
  if (!data?.length) throw new Error('This post does not exist or you may not change it.');
}

/** What the settings mean, in one sentence: "3 posts a day, Mon–Fri, between 9:00 and 17:00 (America/New_York)". */
export function describeQueue(settings: QueueSettings): string {
  const days = settings.weekdays.length === 7 ? 'every day' : WEEKDAYS.filter((day) => settings.weekdays.includes(day.day)).map((day) => day.short).join(', ');
  const spread = settings.spread_minutes > 0 ? `, each moved by up to ${settings.spread_minutes} minutes` : '';
  const together = settings.posts_per_slot > 1 ? `, ${settings.posts_per_slot} to a slot (one build each)` : '';
  return `${settings.posts_per_day} ${settings.posts_per_day === 1 ? 'post' : 'posts'} a day${together}, ${days}, between ${settings.window_start.slice(0, 5)} and ${settings.window_end.slice(0, 5)}${spread} (${settings.time_zone})`;
}
