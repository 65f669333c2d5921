/**
 * The calendar across sites (public.sites_calendar, public.move_post_to_day; migration
 * 20261129003200_sites_calendar.sql) against the worker's seeded backend, on an organization of its own with a
 * publishing queue of one post a day: a person sees the scheduled and queued posts of their sites in a range,
 * titles and times only; an editor moves a queued post to another day (it takes that day's slot, the queue
 * re-flows, the move is logged) and a post at a time of its own to another day (its time of day kept). As an
 * attacker: a viewer, another organization's admin, the anon key and a session Auth issued without the app's
 * sign-in move nothing; bad ranges and days are refused with the reason and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeMember } from './support/auth-users.ts';
import { anonClient, createMember, directTokenClient, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const ZONE = 'America/Chicago';
const DAY = 86_400_000;
const own = { id: crypto.randomUUID(), name: 'Calendar Client', slug: `calendar-client-${Date.now().toString(36)}` };
type Member = Awaited<ReturnType<typeof createMember>>;
let editor: Member;
let viewer: Member;
let outsider: Member;
const queued: string[] = [];
let fixed: string;
let evergreenPost: string;

/** The local date (yyyy-MM-dd) of an instant in the organization's zone. */
const localDay = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
const localTime = (iso: string) => new Date(iso).toLocaleTimeString('en-US', { timeZone: ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

async function post(id: string) {
  const { data, error } = await service.from('blog_posts').select('id, title, status, queued, published_at').eq('id', id).single();
  if (error) throw new Error(error.message);
  return data as { id: string; title: string; status: string; queued: boolean; published_at: string };
}

async function insertPost(organizationId: string, title: string, fields: Record<string, unknown>): Promise<string> {
  const { data, error } = await service
    .from('blog_posts')
    .insert({ organization_id: organizationId, title, slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${crypto.randomUUID().slice(0, 6)}`, content: '<p>Calendar.</p>', status: 'scheduled', ...fields })
    .select('id')
    .single();
  if (error) throw new Error(`adding ${title}: ${error.message}`);
  return data.id as string;
}

const queueOrder = async () =>
  ((await service.from('blog_posts').select('id').eq('organization_id', own.id).eq('queued', true).order('published_at')).data ?? []).map((row) => row.id as string);

beforeAll(async () => {
  const inserted = await service.from('organizations').insert(own);
  if (inserted.error) throw new Error(inserted.error.message);
  const queue = await service.rpc('set_publishing_queue', {
    p_organization_id: own.id, p_time_zone: ZONE, p_posts_per_day: 1, p_weekdays: [1, 2, 3, 4, 5, 6, 7], p_window_start: '09:00', p_window_end: '10:00', p_spread_minutes: 0,
  });
  if (queue.error) throw new Error(queue.error.message);
  editor = await createMember('admin', seed.scalePro);
  viewer = await createMember('editor', seed.scalePro);
  outsider = await createMember('admin', seed.evergreen);
  for (const [user, role] of [[editor, 'editor'], [viewer, 'viewer']] as const) {
    const { error } = await service.from('organization_memberships').insert({ user_id: user.id, organization_id: own.id, role });
    if (error) throw new Error(error.message);
  }
  for (const title of ['First in line', 'Second in line', 'Third in line']) queued.push(await insertPost(own.id, title, { queued: true }));
  fixed = await insertPost(own.id, 'At a time of its own', { published_at: new Date(Date.now() + 2 * DAY).toISOString() });
  evergreenPost = await insertPost(seed.evergreen, 'Evergreen only', { published_at: new Date(Date.now() + 2 * DAY).toISOString() });
});

afterAll(async () => {
  await service.from('blog_posts').delete().eq('id', evergreenPost);
  await service.from('organizations').delete().eq('id', own.id);
  for (const member of [editor, viewer, outsider]) if (member) await removeMember(member);
});

const range = () => ({ p_from: new Date().toISOString(), p_to: new Date(Date.now() + 30 * DAY).toISOString() });

describe('public.sites_calendar', () => {
  it("gives a person their sites with their role and zone, and their sites' scheduled and queued posts in the range: titles and times only", async () => {
    const client = await signedInClient(editor.email);
    const { data, error } = await client.rpc('sites_calendar', range());
    expect(error).toBeNull();
    const { sites, posts } = data as { sites: Record<string, unknown>[]; posts: Record<string, unknown>[] };
    expect(sites.map((site) => [site.organization_id, site.role])).toEqual([[own.id, 'editor'], [seed.scalePro, 'admin']]);
    expect(sites.find((site) => site.organization_id === own.id)!.time_zone).toBe(ZONE);
    const mine = posts.filter((each) => each.organization_id === own.id);
    expect(mine.map((each) => each.title)).toEqual(expect.arrayContaining(['First in line', 'Second in line', 'Third in line', 'At a time of its own']));
    expect(Object.keys(mine[0]!).sort()).toEqual(['id', 'organization_id', 'published_at', 'queued', 'title']);
    expect(posts.some((each) => each.id === evergreenPost)).toBe(false);
    // A range that ends before the posts shows none of them.
    const before = (await client.rpc('sites_calendar', { p_from: new Date(Date.now() - 10 * DAY).toISOString(), p_to: new Date().toISOString() })).data as { posts: { organization_id: string }[] };
    expect(before.posts.filter((each) => each.organization_id === own.id)).toEqual([]);
  });

  it.each([
    ['an end before its start', { p_from: new Date().toISOString(), p_to: new Date(Date.now() - DAY).toISOString() }, 'The calendar needs a start before its end.'],
    ['more than 45 days', { p_from: new Date().toISOString(), p_to: new Date(Date.now() + 46 * DAY).toISOString() }, 'The calendar shows at most 45 days at once.'],
  ])('refuses %s with the reason', async (_case, args, message) => {
    const client = await signedInClient(editor.email);
    const { data, error } = await client.rpc('sites_calendar', args);
    expect(data).toBeNull();
    expect(error).toMatchObject({ code: '22023', message });
  });

  it('refuses the anon key, and gives a session Auth issued without the app\'s sign-in no site', async () => {
    const anon = await anonClient().rpc('sites_calendar', range());
    expect(anon.error?.code).toBe('42501');
    const direct = await (await directTokenClient(editor.email)).rpc('sites_calendar', range());
    expect(direct.error?.code).toBe('PT401');
    expect(direct.data).toBeNull();
  });
});

describe('public.move_post_to_day', () => {
  it('moves a queued post to the first slot on that day; the queue re-flows and the move is logged', async () => {
    const [first, second, third] = await Promise.all(queued.map(post));
    const client = await signedInClient(editor.email);
    const { data, error } = await client.rpc('move_post_to_day', { p_post_id: third!.id, p_day: localDay(first!.published_at) });
    expect(error).toBeNull();
    expect(Date.parse(data as string)).toBe(Date.parse((await post(third!.id)).published_at));
    expect(localDay(data as string)).toBe(localDay(first!.published_at));
    expect(await queueOrder()).toEqual([third!.id, first!.id, second!.id]);
    // Every slot is still taken once: the others moved along to the next slots.
    expect((await post(first!.id)).published_at).toBe(second!.published_at);
    const { data: logged } = await service.from('user_activity_logs').select('action, details').eq('organization_id', own.id).eq('resource_id', third!.id).eq('action', 'queue_reordered');
    expect(logged).toEqual([{ action: 'queue_reordered', details: expect.objectContaining({ from: 3, to: 1, title: 'Third in line' }) }]);

    // And later again: to the last slot's day, the two before it move up.
    const back = await client.rpc('move_post_to_day', { p_post_id: third!.id, p_day: localDay(third!.published_at) });
    expect(back.error).toBeNull();
    expect(localDay(back.data as string)).toBe(localDay(third!.published_at));
    expect(await queueOrder()).toEqual([first!.id, second!.id, third!.id]);
    expect((await post(first!.id)).published_at).toBe(first!.published_at);
  });

  it('moves a post at a time of its own to another day at the same time of day', async () => {
    const before = await post(fixed);
    const target = localDay(new Date(Date.parse(before.published_at) + 3 * DAY).toISOString());
    const client = await signedInClient(editor.email);
    const { data, error } = await client.rpc('move_post_to_day', { p_post_id: fixed, p_day: target });
    expect(error).toBeNull();
    const after = await post(fixed);
    expect(Date.parse(after.published_at)).toBe(Date.parse(data as string));
    expect(localDay(after.published_at)).toBe(target);
    expect(localTime(after.published_at)).toBe(localTime(before.published_at));
    expect(after.queued).toBe(false);
  });

  it.each([
    ['the past', () => ({ p_post_id: fixed, p_day: localDay(new Date(Date.now() - 2 * DAY).toISOString()) }), '22023', 'A post cannot be moved into the past.'],
    ['no day', () => ({ p_post_id: fixed, p_day: null }), '22023', 'Choose the day to move the post to.'],
  ])('refuses a move into %s with the reason, and changes nothing', async (_case, args, code, message) => {
    const before = await post(fixed);
    const client = await signedInClient(editor.email);
    const { error } = await client.rpc('move_post_to_day', args());
    expect(error).toMatchObject({ code, message });
    expect(await post(fixed)).toEqual(before);
  });

  it('refuses a viewer, another organization\'s admin, the anon key and an unvouched session; nothing moves', async () => {
    const before = await Promise.all([...queued, fixed].map(post));
    const target = localDay(new Date(Date.now() + 6 * DAY).toISOString());
    const attempts = [
      await (await signedInClient(viewer.email)).rpc('move_post_to_day', { p_post_id: queued[1], p_day: target }),
      await (await signedInClient(outsider.email)).rpc('move_post_to_day', { p_post_id: fixed, p_day: target }),
      await anonClient().rpc('move_post_to_day', { p_post_id: fixed, p_day: target }),
      await (await directTokenClient(editor.email)).rpc('move_post_to_day', { p_post_id: fixed, p_day: target }),
    ];
    // The unvouched session is refused before any function runs (PT401: the session is not one the app signed in).
    expect(attempts.map((attempt) => attempt.error?.code)).toEqual(['42501', '42501', '42501', 'PT401']);
    expect(await Promise.all([...queued, fixed].map(post))).toEqual(before);
  });

  it('refuses a post that is not waiting to go out', async () => {
    const published = await insertPost(own.id, 'Already out', { status: 'published', published_at: new Date(Date.now() - DAY).toISOString() });
    const client = await signedInClient(editor.email);
    const { error } = await client.rpc('move_post_to_day', { p_post_id: published, p_day: localDay(new Date(Date.now() + 3 * DAY).toISOString()) });
    expect(error).toMatchObject({ code: '22023', message: 'Only a post still waiting to go out can be moved.' });
    expect((await post(published)).status).toBe('published');
  });
});
