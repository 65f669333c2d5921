/**
 * The WordPress API keeps every rule the back office keeps, tried as an attacker would (the function served over
 * real HTTP, each verdict read from the real database):
 * - visitors and viewers never read an embargoed post (published, its time not come), by search, slug or id,
 *   nor count it in a term;
 * - review mode holds for `future` as for `publish`: a new post or a draft asked to be scheduled becomes a draft
 *   for review (or a queued post), while a post an editor already scheduled may be given a new time;
 * - an editor's password deletes (and trashes) only the editor's own posts, as RLS allows in the back office, and
 *   `users/me` says so in its capabilities; the back office's Restore from the trash keeps the same rule;
 * - the database's limits are the API's and the webhook's: past them, a 400 (422 for the webhook) naming the field,
 *   nothing stored, no failed delivery;
 * - input the database cannot take (ids past bigint, quotes in slugs and tag names, NUL, lone surrogates) is
 *   refused or matches nothing, never a 500;
 * - and a fuzz pass over every route's parameters answers no 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import wordpressApi from '../../netlify/functions/wordpress-api.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import { POST_LIMITS } from '../../src/schemas/post.ts';
import { anonClient, createMember, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';
import { serveFunction } from './support/function-server.ts';

const service = serviceClient();
const run = crypto.randomUUID().slice(0, 8);
const EDITOR: Credentials = [seed.users.editor.email, 'abcd EFGH 1234 ijkl MNOP 6789'];
let ADMIN: Credentials;
let VIEWER: Credentials;
let server: Awaited<ReturnType<typeof serveFunction>>;
const cleanup: (() => PromiseLike<unknown>)[] = [];

type Credentials = [string, string];

/** An application password for a new member of Scale Pro with this role (made while an editor, for a viewer). */
async function memberWithPassword(role: 'admin' | 'viewer'): Promise<Credentials> {
  const member = await createMember(role === 'admin' ? 'admin' : 'editor');
  cleanup.push(member.remove);
  const made = await (await signedInClient(member.email)).rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: `Rules ${role}` });
  if (made.error) throw new Error(`create_application_password: ${made.error.message}`);
  if (role === 'viewer') await service.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', member.id).eq('organization_id', seed.scalePro);
  return [member.email, (made.data as { password: string }).password];
}

beforeAll(async () => {
  server = await serveFunction(wordpressApi);
  [ADMIN, VIEWER] = await Promise.all([memberWithPassword('admin'), memberWithPassword('viewer')]);
});

afterAll(async () => {
  await service.from('blog_posts').delete().eq('organization_id', seed.scalePro).like('title', `%${run}%`);
  for (const step of cleanup.reverse()) await step();
  await server.close();
});

/** A raw call over HTTP: the editor's password unless `auth` says otherwise (null: a visitor); a string body is sent as it is. */
async function call(path: string, { method = 'GET', body, auth = EDITOR }: { method?: string; body?: unknown; auth?: Credentials | null } = {}) {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = `Basic ${Buffer.from(auth.join(':')).toString('base64')}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${server.origin}/wp-json${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, json: text ? JSON.parse(text) : null };
}

const postsTitled = async (title: string) =>
  (await service.from('blog_posts').select('id, wp_id, status, queued, published_at, author_id').eq('organization_id', seed.scalePro).eq('title', title)).data ?? [];

const failedDeliveries = async () =>
  (await service.from('webhook_deliveries').select('id', { count: 'exact', head: true }).eq('organization_id', seed.scalePro).gte('status_code', 500)).count ?? 0;

async function setPublishMode(mode: 'publish' | 'draft' | 'queue') {
  const { data } = await service.from('organizations').select('settings').eq('id', seed.scalePro).single();
  const settings = (data as { settings: Record<string, unknown> }).settings;
  const { error } = await service.from('organizations').update({ settings: { ...settings, webhook: { ...(settings.webhook as object), publish_mode: mode } } }).eq('id', seed.scalePro);
  if (error) throw new Error(error.message);
  return async () => {
    await service.from('organizations').update({ settings }).eq('id', seed.scalePro);
  };
}

describe('what a visitor may read', () => {
  it('an embargoed post (published, its time not come) is hidden from visitors and viewers by search, slug and id, and not counted in its tag', async () => {
    const title = `Embargoed ${run}`;
    const tag = `embargo-${run}`;
    await service.from('blog_tags').insert({ organization_id: seed.scalePro, name: tag });
    cleanup.push(() => service.from('blog_tags').delete().eq('organization_id', seed.scalePro).eq('name', tag));
    const { data, error } = await service
      .from('blog_posts')
      .insert({ organization_id: seed.scalePro, title, slug: `embargoed-${run}`, content: '<p>Not yet.</p>', content_source: '<p>Not yet.</p>', content_format: 'html', status: 'published', published_at: new Date(Date.now() + 86_400_000).toISOString(), tags: [tag] })
      .select('wp_id')
      .single();
    expect(error).toBeNull();
    const id = (data as { wp_id: number }).wp_id;

    for (const auth of [null, VIEWER]) {
      expect((await call(`/wp/v2/posts?search=${encodeURIComponent(title)}`, { auth })).json).toEqual([]);
      expect((await call(`/wp/v2/posts?slug=embargoed-${run}`, { auth })).json).toEqual([]);
      expect((await call(`/wp/v2/posts/${id}`, { auth })).status).toBe(404);
      const [listed] = (await call(`/wp/v2/tags?search=${tag}`, { auth })).json as { count: number }[];
      expect(listed!.count).toBe(0);
    }
    // Its organization's editors read it, as in the back office.
    expect((await call(`/wp/v2/posts/${id}`)).json).toMatchObject({ id, status: 'publish' });
  });
});

describe('review mode', () => {
  it('a schedule asked of a new post or a draft follows the choice for arrivals; a post an editor scheduled may be given a new time', async () => {
    const restore = await setPublishMode('draft');
    cleanup.push(restore);
    const at = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 19);
    const title = `Scheduled past review ${run}`;
    const asked = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>Wants to skip review.</p>', status: 'future', date_gmt: at } });
    expect(asked).toMatchObject({ status: 201, json: { status: 'draft' } });
    expect(await postsTitled(title)).toEqual([expect.objectContaining({ status: 'draft', queued: false, published_at: null })]);
    // The draft it made, asked again, stays a draft; a publish date ahead is a schedule too.
    expect((await call(`/wp/v2/posts/${asked.json.id}`, { method: 'PATCH', body: { status: 'future', date_gmt: at } })).json.status).toBe('draft');
    expect((await call(`/wp/v2/posts/${asked.json.id}`, { method: 'PATCH', body: { status: 'publish', date_gmt: at } })).json.status).toBe('draft');
    expect((await postsTitled(title))[0]).toMatchObject({ status: 'draft', published_at: null });

    // Reviewed: an editor schedules it in the back office; the tool may move its time.
    await service.from('blog_posts').update({ status: 'scheduled', published_at: new Date(Date.now() + 86_400_000).toISOString() }).eq('wp_id', asked.json.id);
    const moved = await call(`/wp/v2/posts/${asked.json.id}`, { method: 'PATCH', body: { status: 'future', date_gmt: at } });
    expect(moved.json).toMatchObject({ status: 'future', date_gmt: at });

    await setPublishMode('queue');
    const queuedTitle = `Scheduled into the queue ${run}`;
    const queued = await call('/wp/v2/posts', { method: 'POST', body: { title: queuedTitle, content: '<p>Takes its slot.</p>', status: 'future', date_gmt: at } });
    expect(queued.json.status).toBe('future');
    expect(await postsTitled(queuedTitle)).toEqual([expect.objectContaining({ status: 'scheduled', queued: true })]);
    await restore();
  });
});

describe("whose posts a member may delete", () => {
  it("an editor's password deletes the editor's own post, not an admin's; an admin's deletes any; users/me says so", async () => {
    const adminsTitle = `Admin's draft ${run}`;
    const adminsPost = await call('/wp/v2/posts', { method: 'POST', body: { title: adminsTitle, content: '<p>Mine.</p>' }, auth: ADMIN });
    expect(adminsPost.status).toBe(201);
    const refused = await call(`/wp/v2/posts/${adminsPost.json.id}?force=true`, { method: 'DELETE' });
    expect(refused).toMatchObject({ status: 403, json: { code: 'rest_cannot_delete' } });
    expect(await postsTitled(adminsTitle)).toHaveLength(1);

    const editorsTitle = `Editor's draft ${run}`;
    const editorsPost = await call('/wp/v2/posts', { method: 'POST', body: { title: editorsTitle, content: '<p>Also mine.</p>' } });
    expect((await call(`/wp/v2/posts/${editorsPost.json.id}?force=true`, { method: 'DELETE' })).json.deleted).toBe(true);
    expect(await postsTitled(editorsTitle)).toEqual([]);
    expect((await call(`/wp/v2/posts/${adminsPost.json.id}?force=true`, { method: 'DELETE', auth: ADMIN })).json.deleted).toBe(true);
    expect(await postsTitled(adminsTitle)).toEqual([]);

    const capabilities = async (auth: Credentials) => (await call('/wp/v2/users/me?context=edit', { auth })).json.capabilities;
    expect(await capabilities(EDITOR)).toMatchObject({ delete_posts: true, delete_published_posts: true, delete_others_posts: false, edit_others_posts: true });
    expect(await capabilities(ADMIN)).toMatchObject({ delete_others_posts: true });
  });

  it('the trash keeps the same rule: through the API and the back office, only who may delete a post moves it in or out', async () => {
    const adminsTitle = `Admin's post for the trash ${run}`;
    const adminsPost = await call('/wp/v2/posts', { method: 'POST', body: { title: adminsTitle, content: '<p>Mine.</p>' }, auth: ADMIN });
    const trashedAt = async () => (await service.from('blog_posts').select('trashed_at').eq('wp_id', adminsPost.json.id).single()).data!.trashed_at;
    expect(await call(`/wp/v2/posts/${adminsPost.json.id}`, { method: 'DELETE' })).toMatchObject({ status: 403, json: { code: 'rest_cannot_delete' } });
    expect((await call(`/wp/v2/posts/${adminsPost.json.id}`, { method: 'PATCH', body: { status: 'trash' } })).status).toBe(403);
    expect((await call(`/wp/v2/posts/${adminsPost.json.id}`, { method: 'DELETE', auth: VIEWER })).status).toBe(403);
    expect(await trashedAt()).toBeNull();
    expect((await call(`/wp/v2/posts/${adminsPost.json.id}`, { method: 'DELETE', auth: ADMIN })).json.status).toBe('trash');

    // The back office's Restore: the editor (not its author) and a viewer are refused, as are another
    // organization's admin and a visitor; a direct write of the column is refused to everyone; its admin restores.
    const { data: row } = await service.from('blog_posts').select('id').eq('wp_id', adminsPost.json.id).single();
    const editor = await signedInClient(seed.users.editor.email);
    expect((await editor.rpc('restore_trashed_post', { p_post_id: row!.id })).error?.code).toBe('42501');
    expect((await editor.from('blog_posts').update({ trashed_at: null }).eq('id', row!.id)).error?.code).toBe('42501');
    const viewer = await signedInClient(VIEWER[0]);
    expect((await viewer.rpc('restore_trashed_post', { p_post_id: row!.id })).error?.code).toBe('42501');
    const outsider = await createMember('admin', seed.evergreen);
    cleanup.push(outsider.remove);
    expect((await (await signedInClient(outsider.email)).rpc('restore_trashed_post', { p_post_id: row!.id })).error?.code).toBe('P0002');
    expect((await anonClient().rpc('restore_trashed_post', { p_post_id: row!.id })).error?.code).toBe('42501');
    expect((await editor.rpc('trash_arrived_post', { p_organization_id: seed.scalePro, p_post_id: row!.id, p_application_password_id: crypto.randomUUID(), p_trash: false })).error?.code).toBe('42501');
    expect(await trashedAt()).not.toBeNull();
    const admin = await signedInClient(ADMIN[0]);
    expect((await admin.rpc('restore_trashed_post', { p_post_id: row!.id })).error).toBeNull();
    expect(await trashedAt()).toBeNull();
    expect((await admin.rpc('restore_trashed_post', { p_post_id: row!.id })).error?.code).toBe('55000');
    const entries = (await service.from('user_activity_logs').select('action').eq('resource_id', row!.id).in('action', ['post_trashed', 'post_untrashed'])).data!;
    expect(entries.map((entry) => entry.action).sort()).toEqual(['post_trashed', 'post_untrashed']);
  });
});

describe("the database's limits", () => {
  it('content, tags and term names past them are a 400 (the webhook a 422) naming the field; nothing stored, no failed delivery', async () => {
    const failedBefore = await failedDeliveries();
    const title = `Too much ${run}`;
    const tooLong = `<p>${'a'.repeat(POST_LIMITS.content)}</p>`;
    const content = await call('/wp/v2/posts', { method: 'POST', body: { title, content: tooLong } });
    expect(content).toMatchObject({ status: 400, json: { code: 'rest_invalid_param', data: { params: { content: expect.stringContaining('2,000,000') } } } });

    const tags = await Promise.all(Array.from({ length: POST_LIMITS.tags + 1 }, (_, n) => call('/wp/v2/tags', { method: 'POST', body: { name: `limit ${n} ${run}` } })));
    cleanup.push(() => service.from('blog_tags').delete().eq('organization_id', seed.scalePro).like('name', `limit % ${run}`));
    const tooMany = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>x</p>', tags: tags.map((tag) => tag.json.id) } });
    expect(tooMany).toMatchObject({ status: 400, json: { data: { params: { tags: expect.stringContaining('at most 20') } } } });

    expect((await call('/wp/v2/categories', { method: 'POST', body: { name: `c${run}`.padEnd(POST_LIMITS.categoryName + 1, 'x') } })).json.data.params).toHaveProperty('name');
    expect((await call('/wp/v2/tags', { method: 'POST', body: { name: `t${run}`.padEnd(POST_LIMITS.tagName + 1, 'x') } })).json.data.params).toHaveProperty('name');

    const delivered = await webhook(new Request(`http://localhost/api/webhooks/zimmwriter/${seed.webhookToken}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title, html: tooLong }) }));
    expect(delivered.status).toBe(422);
    expect(((await delivered.json()) as { message: string }).message).toContain('html');
    expect(await postsTitled(title)).toEqual([]);
    expect(await failedDeliveries()).toBe(failedBefore);
  });
});

describe('input the database cannot take', () => {
  it('ids past bigint, quotes in slugs, NUL bytes and lone surrogates are refused or match nothing, writing nothing', async () => {
    const huge = '99999999999999999999';
    for (const [path, method] of [[`/wp/v2/posts/${huge}`, 'GET'], [`/wp/v2/posts/${huge}`, 'POST'], [`/wp/v2/posts/${huge}?force=true`, 'DELETE'], [`/wp/v2/media/${huge}`, 'GET'], [`/wp/v2/tags/${huge}`, 'GET']] as const) {
      const answer = await call(path, { method, ...(method === 'POST' ? { body: { title: 'x' } } : {}) });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    expect(await call('/wp/v2/posts?slug=%22')).toMatchObject({ status: 200, json: [] });
    expect(await call('/wp/v2/posts?slug=a%2Cb%29%28', { auth: null })).toMatchObject({ status: 200, json: [] });
    expect((await call('/wp/v2/posts?search=%00')).json.data.params).toHaveProperty('search');
    expect((await call('/wp/v2/media?search=%00', { auth: null })).json.data.params).toHaveProperty('search');

    const title = `Unstorable ${run}`;
    expect((await call('/wp/v2/posts', { method: 'POST', body: { title: `${title}\u0000`, content: '<p>x</p>' } })).json.data.params).toHaveProperty('title');
    expect((await call('/wp/v2/posts', { method: 'POST', body: `{"title": "${title} \\ud800", "content": "<p>x</p>"}` })).json.data.params).toHaveProperty('title');
    expect((await call('/wp/v2/tags', { method: 'POST', body: { name: `nul\u0000${run}` } })).json.data.params).toHaveProperty('name');
    expect(await postsTitled(title)).toEqual([]);
    expect(((await service.from('blog_tags').select('name').eq('organization_id', seed.scalePro).like('name', `nul%${run}`)).data ?? [])).toEqual([]);
  });

  it('a tag named with a quote is created, carried by a post, listed and deleted with it, once', async () => {
    const name = `say "hi", (then) \\ ${run}`;
    const tag = await call('/wp/v2/tags', { method: 'POST', body: { name } });
    expect(tag.status).toBe(201);
    cleanup.push(() => service.from('blog_tags').delete().eq('organization_id', seed.scalePro).eq('name', name));
    const title = `Quoted tag ${run}`;
    const made = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>Tagged.</p>', tags: [tag.json.id] } });
    expect(made).toMatchObject({ status: 201, json: { tags: [tag.json.id] } });
    expect(await postsTitled(title)).toHaveLength(1);
    const listed = await call(`/wp/v2/posts?status=draft&search=${encodeURIComponent(title)}`);
    expect(listed).toMatchObject({ status: 200, json: [{ id: made.json.id, tags: [tag.json.id] }] });
    expect((await call(`/wp/v2/posts/${made.json.id}?force=true`, { method: 'DELETE' })).json).toMatchObject({ deleted: true, previous: { tags: [tag.json.id] } });
    expect(await postsTitled(title)).toEqual([]);
  });
});

/** A small deterministic generator (mulberry32): the same inputs on every run. */
function random(seedValue: number) {
  let state = seedValue;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Values that have broken parsers before: syntax of PostgREST, SQL and URLs, numbers past every bound, unstorable text. */
const NASTY = [
  '', ' ', '0', '-1', '1.5', '1e3', 'NaN', 'Infinity', '99999999999999999999', '9223372036854775808', String(Number.MAX_SAFE_INTEGER), '0x10',
  '"', "'", '\\', '\\"', '""', ',', '(', ')', '(a,b)', 'a,b', '*', '%', '_', '%_%', '.', '..', '/', 'eq.1', 'in.(1,2)', 'not.is.null', 'or=(id.eq.1)',
  "'; drop table blog_posts; --", '$$', '{}', '[]', '{"a":1}', 'null', 'true', 'false', '\u0000', 'a\u0000b', '\ud800', 'a\udfffb', '😀', '\u202e',
  'ß', 'İ', '\r\n', '\t', '<script>alert(1)</script>', '&amp;', '%00', '%22', '%2C', '?', '#', '&', '=', '+', 'a'.repeat(201), 'a'.repeat(5000),
  '2026-13-45T99:99:99', '0000-01-01T00:00:00', '9999-12-31T23:59:59', '2026-12-01T09:30:00+99:99', '1970-01-01T00:00:00Z',
];
const ALPHABET = ['a', 'Z', '9', '-', ' ', '"', "'", '\\', ',', '(', ')', '%', '_', '*', '.', ':', '\u0000', '\ud800', '\udc00', '😀', 'é', '\n', '/', '?', '&', '=', '[', ']', '{', '}'];

/** NASTY and `extra` random strings over ALPHABET. */
function fuzzValues(seedValue: number, extra: number): string[] {
  const next = random(seedValue);
  const generated = Array.from({ length: extra }, () =>
    Array.from({ length: 1 + Math.floor(next() * 24) }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join(''),
  );
  return [...NASTY, ...generated];
}

/** Runs `work` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(Array.from({ length: width }, async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
  }));
}

describe('fuzz: every route and parameter', () => {
  it('answers no 500 to a few hundred inputs per route, visitor and editor alike', async () => {
    const values = fuzzValues(53, 40);
    const served: string[] = [];
    const cases: { path: string; method?: string; body?: unknown; auth?: Credentials | null }[] = [];
    // A lone surrogate has no UTF-8: it is sent as the bytes a careless encoder writes for it (CESU-8).
    const q = (value: string) => [...value].map((char) => (/\p{Cs}/u.test(char) ? '%ED%A0%80' : encodeURIComponent(char))).join('');
    for (const value of values) {
      // Posts are read through the anon key for a visitor and the service key for an editor: both ways.
      for (const auth of [null, EDITOR]) {
        for (const param of ['search', 'slug', 'page', 'per_page', 'status', 'context']) cases.push({ path: `/wp/v2/posts?${param}=${q(value)}`, auth });
      }
      // The list's filters, each alone and with the ids' extremes (an id past any integer the database takes).
      for (const param of ['categories', 'categories_exclude', 'tags', 'tags_exclude', 'author', 'author_exclude', 'include', 'exclude', 'after', 'before', 'modified_after', 'modified_before', 'sticky', 'orderby', 'order', '_embed']) {
        cases.push({ path: `/wp/v2/posts?${param}=${q(value)}`, auth: null });
      }
      for (const param of ['search', 'who', 'include', 'exclude', 'orderby', 'order', 'page', 'context']) cases.push({ path: `/wp/v2/users?${param}=${q(value)}` });
      cases.push({ path: `/wp/v2/users/${q(value)}` });
      for (const param of ['search', 'slug', 'page']) {
        cases.push({ path: `/wp/v2/tags?${param}=${q(value)}`, auth: null }, { path: `/wp/v2/categories?${param}=${q(value)}`, auth: null }, { path: `/wp/v2/media?${param}=${q(value)}`, auth: null });
      }
      for (const route of ['posts', 'tags', 'categories', 'media']) cases.push({ path: `/wp/v2/${route}/${q(value)}` });
      for (const id of ['0', '99999999999999999999', '9223372036854775807', '-1,2', '1e30']) {
        cases.push({ path: `/wp/v2/posts?include=${id}&orderby=include&categories=${id}&tags_exclude=${id}&author=${id}`, auth: null });
      }
      cases.push({ path: `/wp/v2/posts/1?force=${q(value)}`, method: 'DELETE', auth: VIEWER });
      cases.push({ path: `/?rest_route=${q(value)}`, auth: null });
      // Writes: every field of a post in turn (a draft, titled with this run so it is cleaned up), and term names.
      const post = { title: `Fuzz ${run}`, content: '<p>Fuzzed.</p>', status: 'draft' };
      for (const field of ['title', 'slug', 'excerpt', 'date', 'date_gmt', 'status', 'sticky', 'tags', 'categories', 'featured_media', 'content']) {
        cases.push({ path: '/wp/v2/posts', method: 'POST', body: { ...post, [field]: field === 'title' ? `Fuzz ${run} ${value}` : value } });
      }
      cases.push({ path: '/wp/v2/posts', method: 'POST', body: { ...post, meta: { _yoast_wpseo_title: value, rank_math_description: value } } });
      cases.push({ path: '/wp/v2/tags', method: 'POST', body: { name: `fz ${value}`.slice(0, 40) + run } });
      cases.push({ path: '/wp/v2/categories', method: 'POST', body: { name: `fz ${value}`.slice(0, 40) + run, slug: value } });
    }
    cleanup.push(async () => {
      await service.from('blog_tags').delete().eq('organization_id', seed.scalePro).like('name', `fz %${run}`);
      await service.from('blog_categories').delete().eq('organization_id', seed.scalePro).like('name', `fz %${run}`);
    });
    await inParallel(cases, 8, async ({ path, method = 'GET', body, auth = EDITOR }) => {
      const answer = await call(path, { method, body, auth });
      if (answer.status >= 500) served.push(`${method} ${path} ${JSON.stringify(body ?? '').slice(0, 120)} → ${answer.status} ${JSON.stringify(answer.json)}`);
    });
    expect(cases.length).toBeGreaterThan(4_000);
    expect(served).toEqual([]);
  }, 240_000);
});

describe('one arrival path, one name per sender', () => {
  it("a category made through the API is logged as the password's member, naming the password; its posts carry the password as their sender", async () => {
    const name = `Sender category ${run}`;
    const made = await call('/wp/v2/categories', { method: 'POST', body: { name } });
    expect(made.status).toBe(201);
    cleanup.push(() => service.from('blog_categories').delete().eq('organization_id', seed.scalePro).eq('name', name));
    const { data: category } = await service.from('blog_categories').select('id, needs_review').eq('organization_id', seed.scalePro).eq('name', name).single();
    expect(category).toMatchObject({ needs_review: true });
    const { data: audit } = await service.from('user_activity_logs').select('user_id, details').eq('action', 'category_created').eq('resource_id', (category as { id: string }).id);
    expect(audit).toEqual([{ user_id: seed.users.editor.id, details: expect.objectContaining({ application_password: 'Development' }) }]);
    expect((audit![0]!.details as Record<string, unknown>).by_server).toBeUndefined();

    const title = `Sender post ${run}`;
    expect((await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>Sent by a tool.</p>' } })).status).toBe(201);
    const [post] = await postsTitled(title);
    const { data: revisions } = await service.from('blog_post_revisions').select('source, sender, editor_id').eq('post_id', post!.id);
    expect(revisions).toEqual([{ source: 'webhook', sender: 'Development', editor_id: seed.users.editor.id }]);
    // The writing tool's webhook names no password: its posts are ZimmWriter's.
    const delivered = await webhook(new Request(`http://localhost/api/webhooks/zimmwriter/${seed.webhookToken}`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: `Webhook sender ${run}`, html: `<p>${crypto.randomUUID()} from the webhook.</p>` }),
    }));
    const { post_id: viaWebhook } = (await delivered.json()) as { post_id: string };
    expect((await service.from('blog_post_revisions').select('source, sender').eq('post_id', viaWebhook)).data).toEqual([{ source: 'webhook', sender: null }]);
  });
});
