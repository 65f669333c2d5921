/**
 * The publishing queue, through the real webhook function, the REST API as each role and the scheduler:
 * 100 deliveries in queue mode become 100 scheduled posts on the queue's slots (posts a day, weekdays,
 * window, time zone), none lost or twice; reordering, publishing now and taking a post out re-flow the later
 * slots; a change of the settings re-flows the whole queue; the scheduler publishes a queued post whose slot
 * came. Only the organization's editors and admins move posts, only its admins change the settings.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import { anonClient, backend, seed, signedInClient } from './support/db-fixtures.ts';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs = Array.from({ length: 100 }, (_, i) => `queue-${run}-${String(i).padStart(3, '0')}`);
const clients = {} as Record<'admin' | 'editor' | 'viewer' | 'otherAdmin', SupabaseClient>;
type QueuedPost = { id: string; slug: string; status: string; queued: boolean; published_at: string };

/** The organization's queued posts in queue order. */
async function queue(): Promise<QueuedPost[]> {
  return must(
    await db.from('blog_posts').select('id, slug, status, queued, published_at').eq('organization_id', SCALE_PRO.id).eq('queued', true).like('slug', `queue-${run}-%`).order('published_at'),
    'queue',
  ) as QueuedPost[];
}

/** A time's local date, ISO weekday (1 Monday) and minutes after midnight in a time zone. */
function local(iso: string, timeZone: string) {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(iso)).map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].indexOf(parts.weekday!) + 1,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

const settings = (extra: Record<string, unknown> = {}) => ({
  p_organization_id: SCALE_PRO.id, p_time_zone: 'America/New_York', p_posts_per_day: 3, p_weekdays: [1, 2, 3, 4, 5, 6, 7],
  p_window_start: '09:00', p_window_end: '17:00', p_spread_minutes: 0, ...extra,
});

let savedSettings: Record<string, unknown>;
beforeAll(async () => {
  clients.admin = await signedInClient(seed.users.admin.email);
  clients.editor = await signedInClient(seed.users.editor.email);
  clients.viewer = await signedInClient(seed.users.viewer.email);
  clients.otherAdmin = await signedInClient(seed.users.otherAdmin.email);
  savedSettings = must(await db.from('organizations').select('settings').eq('id', SCALE_PRO.id).single(), 'settings').settings;
  check(await db.from('organizations').update({ settings: { ...savedSettings, webhook: { publish_mode: 'queue' } } }).eq('id', SCALE_PRO.id), 'queue mode');
  check(await clients.admin.rpc('set_publishing_queue', settings()), 'queue settings');
});
afterAll(async () => {
  check(await db.from('organizations').update({ settings: savedSettings }).eq('id', SCALE_PRO.id), 'restore mode');
  check(await db.rpc('set_publishing_queue', settings({ p_posts_per_day: 1, p_weekdays: [1, 2, 3, 4, 5] })), 'restore queue');
  await removeTestRows({ postSlugs: slugs, organizationIds: [SCALE_PRO.id], since });
  check(await db.from('user_activity_logs').delete().eq('organization_id', SCALE_PRO.id).gte('created_at', since), 'remove audit');
});

describe('a bulk run into the queue', () => {
  it('turns 100 deliveries at 3 a day into 100 scheduled posts over 34 days, one per slot, none lost or twice', async () => {
    const answered: { post_id: string; status: string; scheduled_for?: { utc: string; local: string; time_zone: string; queued: boolean } }[] = [];
    for (let batch = 0; batch < 100; batch += 10) {
      const answers = await Promise.all(
        slugs.slice(batch, batch + 10).map((slug, i) =>
          webhook(webhookRequest(SCALE_PRO.token, { webhook_name: 'Bulk run', title: `Queued article ${run} ${batch + i}`, html: `<p>Article ${batch + i}.</p>`, slug })),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
      answered.push(...(await Promise.all(answers.map((answer) => answer.json()))));
    }
    const posts = await queue();
    // Each answer tells the writing tool its post's slot: in UTC, and as a wall time in the queue's zone.
    const slots = new Map(must(await db.from('blog_posts').select('id, published_at').in('slug', slugs), 'slots').map((post) => [post.id, post.published_at]));
    for (const answer of answered) {
      const slot = new Date(slots.get(answer.post_id)!);
      const wall = local(slot.toISOString(), 'America/New_York');
      expect(answer).toMatchObject({ status: 'scheduled', scheduled_for: { utc: slot.toISOString(), time_zone: 'America/New_York', queued: true } });
      expect(new Date(answer.scheduled_for!.local).getTime()).toBe(slot.getTime());
      expect(answer.scheduled_for!.local).toMatch(new RegExp(`^${wall.date}T${String(Math.floor(wall.minutes / 60)).padStart(2, '0')}:${String(wall.minutes % 60).padStart(2, '0')}:00\\.000-0[45]:00$`));
    }
    expect(posts).toHaveLength(100);
    expect(new Set(posts.map((post) => post.slug)).size).toBe(100);
    expect(posts.every((post) => post.status === 'scheduled' && new Date(post.published_at) > new Date())).toBe(true);
    expect(new Set(posts.map((post) => post.published_at)).size).toBe(100);
    // In delivery order: every batch of ten waits behind the batch delivered before it.
    const batchOf = (post: QueuedPost) => Math.floor(Number(post.slug.slice(-3)) / 10);
    expect(posts.map(batchOf)).toEqual([...posts.map(batchOf)].sort((a, b) => a - b));

    const times = posts.map((post) => local(post.published_at, 'America/New_York'));
    const perDay = new Map<string, number>();
    for (const time of times) perDay.set(time.date, (perDay.get(time.date) ?? 0) + 1);
    expect(perDay.size).toBe(34);
    expect(Math.max(...perDay.values())).toBe(3);
    // Slots of 9:00 to 17:00 in thirds: 9:00, 11:40, 14:20.
    expect(new Set(times.map((time) => time.minutes))).toEqual(new Set([540, 700, 860]));
    const deliveries = must(await db.from('webhook_deliveries').select('status_code').in('slug', slugs), 'deliveries');
    expect(deliveries).toHaveLength(100);
    // Visitors see none of them.
    expect((await anonClient().from('blog_posts').select('id').in('slug', slugs)).data).toEqual([]);
  });

  it('moves every slot to the days and hours of new settings, in the same order (weekdays, time zone, spread)', async () => {
    const before = (await queue()).map((post) => post.id);
    check(await clients.admin.rpc('set_publishing_queue', settings({ p_time_zone: 'Asia/Tokyo', p_posts_per_day: 2, p_weekdays: [2, 4], p_window_start: '08:00', p_window_end: '12:00', p_spread_minutes: 30 })), 'new settings');
    const after = await queue();
    expect(after.map((post) => post.id)).toEqual(before);
    const times = after.map((post) => local(post.published_at, 'Asia/Tokyo'));
    // Only Tuesdays and Thursdays in Tokyo: a slot that would fall on a day without slots moves to the next day with slots.
    expect(new Set(times.map((time) => time.weekday))).toEqual(new Set([2, 4]));
    // Two slots a day, 8:00 and 10:00, each moved by 0 to 30 minutes.
    expect(times.every((time) => (time.minutes >= 480 && time.minutes <= 510) || (time.minutes >= 600 && time.minutes <= 630))).toBe(true);
    expect(times.some((time) => time.minutes % 60 !== 0)).toBe(true);
    const perDay = new Map<string, number>();
    for (const time of times) perDay.set(time.date, (perDay.get(time.date) ?? 0) + 1);
    // Two a day, in day order. The first day may be today with only its later slot left (a Tuesday or Thursday
    // morning in Tokyo): then it holds one, the last day one too, and the run takes 51 days instead of 50.
    const counts = [...perDay.values()];
    expect(counts.slice(1, -1).every((count) => count === 2)).toBe(true);
    expect(counts.every((count) => count === 1 || count === 2)).toBe(true);
    expect(counts.length).toBe(counts[0] === 1 ? 51 : 50);
    const logged = must(await db.from('user_activity_logs').select('details').eq('action', 'publishing_queue_changed').gte('created_at', since).order('created_at', { ascending: false }).limit(1).single(), 'audit');
    expect(logged.details).toMatchObject({ to: { time_zone: 'Asia/Tokyo', posts_per_day: 2, weekdays: [2, 4], spread_minutes: 30 } });
    check(await clients.admin.rpc('set_publishing_queue', settings()), 'back to 3 a day');
  });

  it('groups a day\'s posts into slots that go out together (three a day, one slot: one time, so one build), and back', async () => {
    check(await clients.admin.rpc('set_publishing_queue', settings({ p_posts_per_slot: 3 })), 'three a slot');
    const grouped = await queue();
    const perTime = new Map<string, number>();
    for (const post of grouped) perTime.set(post.published_at, (perTime.get(post.published_at) ?? 0) + 1);
    // One slot a day at the window's start, three posts in each but perhaps the last.
    expect([...perTime.values()].slice(0, -1).every((count) => count === 3)).toBe(true);
    expect(new Set(grouped.map((post) => local(post.published_at, 'America/New_York').minutes))).toEqual(new Set([540]));
    const logged = must(await db.from('user_activity_logs').select('details').eq('action', 'publishing_queue_changed').gte('created_at', since).order('created_at', { ascending: false }).limit(1).single(), 'audit');
    expect(logged.details).toMatchObject({ to: { posts_per_slot: 3 } });
    // More to a slot than a day has posts is refused, and changes nothing.
    expect((await clients.admin.rpc('set_publishing_queue', settings({ p_posts_per_slot: 4 }))).error?.code).toBe('23514');
    check(await clients.admin.rpc('set_publishing_queue', settings({ p_posts_per_slot: 1 })), 'one a slot');
    expect(new Set((await queue()).map((post) => post.published_at)).size).toBe(grouped.length);
  });
});

describe('blog management acts on the queue', () => {
  let takenOut = '';
  it('reorders: the last post takes the first slot and the others move one slot later', async () => {
    const before = await queue();
    const last = before.at(-1)!;
    const { data, error } = await clients.editor.rpc('move_queued_post', { p_post_id: last.id, p_position: 1 });
    expect(error).toBeNull();
    const after = await queue();
    expect(new Date(data as string).toISOString()).toBe(new Date(before[0]!.published_at).toISOString());
    expect(after.map((post) => post.id)).toEqual([last.id, ...before.slice(0, -1).map((post) => post.id)]);
    expect(after.map((post) => post.published_at)).toEqual(before.map((post) => post.published_at));
    const logged = must(await db.from('user_activity_logs').select('user_id, details').eq('action', 'queue_reordered').eq('resource_id', last.id).single(), 'audit');
    expect(logged).toMatchObject({ user_id: seed.users.editor.id, details: { from: 100, to: 1 } });
  });

  it('publishes a post now: it leaves the queue, goes public, and every later post moves one slot earlier', async () => {
    const before = await queue();
    const third = before[2]!;
    check(await clients.editor.from('blog_posts').update({ status: 'published', published_at: new Date().toISOString() }).eq('id', third.id), 'publish now');
    const after = await queue();
    expect(after).toHaveLength(99);
    expect(after.map((post) => post.id)).toEqual(before.filter((post) => post.id !== third.id).map((post) => post.id));
    expect(after.map((post) => post.published_at)).toEqual(before.slice(0, 99).map((post) => post.published_at));
    expect(must(await db.from('blog_posts').select('status, queued').eq('id', third.id).single(), 'published')).toEqual({ status: 'published', queued: false });
    expect((await anonClient().from('blog_posts').select('id').eq('id', third.id)).data).toHaveLength(1);
  });

  it('takes a post out of the queue back to draft, and re-flows the later slots', async () => {
    const before = await queue();
    const first = before[0]!;
    takenOut = first.id;
    check(await clients.editor.from('blog_posts').update({ status: 'draft', published_at: null }).eq('id', first.id), 'take out');
    const after = await queue();
    expect(after.map((post) => post.id)).toEqual(before.slice(1).map((post) => post.id));
    expect(after.map((post) => post.published_at)).toEqual(before.slice(0, -1).map((post) => post.published_at));
    expect(must(await db.from('blog_posts').select('status, queued').eq('id', first.id).single(), 'draft')).toEqual({ status: 'draft', queued: false });
  });

  it('queues a post from the editor at the next free slot after the last one', async () => {
    const before = await queue();
    const draft = { id: takenOut }; // taken out above
    const { data, error } = await clients.editor.from('blog_posts').update({ queued: true }).eq('id', draft.id).select('status, queued, published_at').single();
    expect(error).toBeNull();
    expect(data).toMatchObject({ status: 'scheduled', queued: true });
    expect(new Date(data!.published_at).getTime()).toBeGreaterThan(new Date(before.at(-1)!.published_at).getTime());
    expect((await queue()).at(-1)!.id).toBe(draft.id);
  });

  it('lets the scheduler publish a queued post whose slot came, leaving the others where they are', async () => {
    const before = await queue();
    const next = before[0]!;
    // The slot comes: the re-flow's own switch moves its time without taking it out of the queue.
    const client = new pg.Client({ connectionString: backend.dbUrl });
    await client.connect();
    try {
      await client.query('begin');
      await client.query("select set_config('app.queue_reflow', 'on', true)");
      await client.query("update public.blog_posts set published_at = now() - interval '1 second' where id = $1", [next.id]);
      await client.query('commit');
    } finally {
      await client.end();
    }
    const answer = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
    expect(((await answer.json()) as { published: string[] }).published).toContain(next.id);
    expect(must(await db.from('blog_posts').select('status, queued').eq('id', next.id).single(), 'published')).toEqual({ status: 'published', queued: false });
    expect((await queue()).map((post) => post.published_at)).toEqual(before.slice(1).map((post) => post.published_at));
  });
});

describe('who may change the queue (raw API)', () => {
  it('refuses anon, a viewer and another organization\'s admin a reorder; nothing moves', async () => {
    const before = await queue();
    for (const client of [anonClient(), clients.viewer, clients.otherAdmin]) {
      const { error } = await client.rpc('move_queued_post', { p_post_id: before.at(-1)!.id, p_position: 1 });
      expect(error?.code).toMatch(/^(42501)$/);
    }
    expect(await queue()).toEqual(before);
  });

  it('refuses the settings to an editor, a viewer, another organization\'s admin and anon; and bad settings to the admin; nothing changes', async () => {
    const stored = must(await db.from('publishing_queues').select('*').eq('organization_id', SCALE_PRO.id).single(), 'stored');
    for (const client of [clients.editor, clients.viewer, clients.otherAdmin, anonClient()]) {
      const { error } = await client.rpc('set_publishing_queue', settings({ p_posts_per_day: 24 }));
      expect(error?.code).toBe('42501');
    }
    for (const [bad, code] of [
      [{ p_time_zone: 'Mars/Olympus_Mons' }, '22023'],
      [{ p_weekdays: [0, 8] }, '23514'],
      [{ p_weekdays: [] }, '23502'],
      [{ p_posts_per_day: 0 }, '23514'],
      [{ p_window_start: '17:00', p_window_end: '09:00' }, '23514'],
      [{ p_spread_minutes: 200 }, '23514'],
    ] as const) {
      const { error } = await clients.admin.rpc('set_publishing_queue', settings(bad));
      expect(error?.code, JSON.stringify(bad)).toBe(code);
    }
    expect(must(await db.from('publishing_queues').select('*').eq('organization_id', SCALE_PRO.id).single(), 'after')).toEqual(stored);
    // Nobody writes the table directly.
    const { error } = await clients.admin.from('publishing_queues').update({ posts_per_day: 24 }).eq('organization_id', SCALE_PRO.id).select();
    expect(error?.code).toBe('42501');
  });

  it('shows the settings to members only', async () => {
    expect((await clients.viewer.from('publishing_queues').select('posts_per_day').eq('organization_id', SCALE_PRO.id)).data).toEqual([{ posts_per_day: 3 }]);
    expect((await clients.otherAdmin.from('publishing_queues').select('posts_per_day').eq('organization_id', SCALE_PRO.id)).data).toEqual([]);
    expect((await anonClient().from('publishing_queues').select('posts_per_day')).error?.code).toBe('42501');
  });
});
