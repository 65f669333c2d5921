/**
 * Publishing through the WordPress REST API (netlify/functions/wordpress-api.mts served over real HTTP, the real
 * database): with a WordPress client library written by others (`wpapi`) in the order AI writing tools call it
 * (users/me, terms looked up and created, the post with its terms and SEO fields, an update, a scheduled post),
 * and with raw requests as a tool and as an attacker:
 * - a post arrives the way a webhook delivery does: the member is its author and the audit log's actor, the
 *   entry names the application password, the delivery log records it, a rebuild is requested;
 * - the organization's choice for arrivals decides a publish (draft, queue: answered `future` with the slot);
 * - bad input (no title, malformed JSON, unknown category or media id, `future` in the past, a status WordPress
 *   has and this site does not) answers WordPress's 400 naming the field, with nothing written;
 * - a viewer's password, no password, another organization's post: refused, nothing written;
 * - delete without force moves the post to the trash (hidden, restorable, logged), with force deletes it; sticky
 *   is kept and filters;
 * - media: uploaded as raw bytes with Content-Disposition and as multipart (through wpapi), then named as the
 *   post's featured_media; a file that is not an image, or is too large, or has no name, is refused with
 *   nothing stored.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WPAPI from 'wpapi';
import wordpressApi from '../../netlify/functions/wordpress-api.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import { createMember, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';
import { serveFunction } from './support/function-server.ts';

const service = serviceClient();
const DEV_PASSWORD = 'abcd EFGH 1234 ijkl MNOP 6789';
const EDITOR = seed.users.editor;
const run = crypto.randomUUID().slice(0, 8);
let server: Awaited<ReturnType<typeof serveFunction>>;
const cleanup: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  server = await serveFunction(wordpressApi);
});

afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  await service.from('blog_posts').delete().eq('organization_id', seed.scalePro).like('title', `%${run}%`);
  const { data: files } = await service.from('media').select('storage_path').eq('organization_id', seed.scalePro).like('file_name', `%${run}%`);
  if (files?.length) await service.storage.from('media').remove(files.map((file) => file.storage_path));
  await service.from('media').delete().eq('organization_id', seed.scalePro).like('file_name', `%${run}%`);
  await server.close();
});

/** A raw call to the API over HTTP, with the editor's Development password unless `auth` says otherwise. */
async function call(path: string, { method = 'GET', body, auth = [EDITOR.email, DEV_PASSWORD], type = 'application/json' }: { method?: string; body?: unknown; auth?: [string, string] | null; type?: string } = {}) {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = `Basic ${Buffer.from(`${auth[0]}:${auth[1]}`).toString('base64')}`;
  if (body !== undefined) headers['content-type'] = type;
  const response = await fetch(`${server.origin}/wp-json${path}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

const postsTitled = async (title: string) =>
  (await service.from('blog_posts').select('id, wp_id, status, slug, author_id, meta_title, meta_description, tags, category_id, published_at, queued').eq('organization_id', seed.scalePro).eq('title', title)).data ?? [];

async function setPublishMode(mode: 'publish' | 'draft' | 'queue') {
  const { data } = await service.from('organizations').select('settings').eq('id', seed.scalePro).single();
  const settings = (data as { settings: Record<string, unknown> }).settings;
  await service.from('organizations').update({ settings: { ...settings, webhook: { ...(settings.webhook as object), publish_mode: mode } } }).eq('id', seed.scalePro);
  return async () => {
    await service.from('organizations').update({ settings }).eq('id', seed.scalePro);
  };
}

describe('a WordPress client library (wpapi) publishes as AI writing tools do', () => {
  it('signs in, finds or makes its terms, publishes with SEO fields, updates the same post, schedules another', async () => {
    const wp = new WPAPI({ endpoint: `${server.origin}/wp-json`, username: EDITOR.email, password: DEV_PASSWORD });

    const me = await wp.users().me().param('context', 'edit');
    expect(me.roles).toEqual(['editor']);
    expect(me.capabilities.publish_posts).toBe(true);

    // A category the site has, spelled differently: WordPress's term_exists with its id, which the tool then uses.
    const seo = (await wp.categories().search('seo')) as { id: number; name: string }[];
    expect(seo.length).toBeGreaterThan(0);
    const mapped = await wp.categories().create({ name: seo[0]!.name.toUpperCase() }).catch((error: { code: string; data: { term_id: number } }) => error);
    expect(mapped).toMatchObject({ code: 'term_exists', data: { status: 400, term_id: seo[0]!.id } });
    const tag = await wp.tags().create({ name: `wpapi tag ${run}` });
    expect(typeof tag.id).toBe('number');
    const again = await wp.tags().create({ name: `WPAPI TAG ${run}` }).catch((error: { code: string; data: { term_id: number } }) => error);
    expect(again).toMatchObject({ code: 'term_exists', data: { term_id: tag.id } });

    const title = `Client library article ${run}`;
    const created = await wp.posts().create({
      title,
      content: '<h2>Why</h2><p>Local search grows when the pages answer questions.</p><script>alert(1)</script>',
      excerpt: 'Pages that answer questions.',
      status: 'publish',
      categories: [seo[0]!.id],
      tags: [tag.id],
      meta: { _yoast_wpseo_title: 'SEO title from Yoast', _yoast_wpseo_metadesc: 'A description for search results.' },
    });
    expect(typeof created.id).toBe('number');
    expect(created).toMatchObject({ status: 'publish', categories: [seo[0]!.id], tags: [tag.id], type: 'post' });
    expect(created.link).toBe(`http://localhost:8888/blog/${created.slug}`);
    expect(created.content.rendered).not.toContain('<script');
    // Terms count their published posts, as WordPress does: the new tag has this one, the category all of its own.
    expect((await wp.tags().id(tag.id)).count).toBe(1);
    const inCategory = await service.from('blog_posts').select('id', { count: 'exact', head: true }).eq('organization_id', seed.scalePro).eq('category_id', (await service.from('blog_categories').select('id').eq('wp_id', seo[0]!.id).single()).data!.id).eq('status', 'published');
    expect((await wp.categories().id(seo[0]!.id)).count).toBe(inCategory.count);
    expect(inCategory.count).toBeGreaterThan(0);

    const [stored] = await postsTitled(title);
    expect(stored).toMatchObject({ wp_id: created.id, status: 'published', author_id: EDITOR.id, meta_title: 'SEO title from Yoast', meta_description: 'A description for search results.' });
    // The same steps as a delivery: the audit entry is the member's and names the password, the delivery log has it, a rebuild waits.
    const audit = (await service.from('user_activity_logs').select('user_id, details').eq('resource_id', stored!.id).eq('action', 'post_created')).data!;
    expect(audit).toEqual([expect.objectContaining({ user_id: EDITOR.id, details: expect.objectContaining({ via: 'webhook', application_password: 'Development' }) })]);
    const delivery = (await service.from('webhook_deliveries').select('status_code, webhook_name').eq('post_id', stored!.id)).data!;
    expect(delivery).toEqual([{ status_code: 201, webhook_name: 'Development' }]);
    const revision = (await service.from('blog_post_revisions').select('editor_id, source').eq('post_id', stored!.id)).data!;
    expect(revision).toEqual([{ editor_id: EDITOR.id, source: 'webhook' }]);
    const rebuild = (await service.from('site_rebuild_requests').select('id').eq('organization_id', seed.scalePro).is('batch_id', null)).data!;
    expect(rebuild.length).toBeGreaterThan(0);

    // An update by id changes what it sends and keeps the rest; it never makes a second post.
    const updated = await wp.posts().id(created.id).update({ title: `${title} (updated)` });
    expect(updated).toMatchObject({ id: created.id, slug: created.slug, tags: [tag.id], categories: [seo[0]!.id] });
    expect(await postsTitled(title)).toEqual([]);
    expect(await postsTitled(`${title} (updated)`)).toHaveLength(1);

    const read = await wp.posts().id(created.id).param('context', 'edit');
    expect(read.title.raw).toBe(`${title} (updated)`);
    expect(read.meta._yoast_wpseo_title).toBe('SEO title from Yoast');

    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setUTCMilliseconds(0);
    const scheduled = await wp.posts().create({ title: `Scheduled article ${run}`, content: '<p>Later.</p>', status: 'future', date_gmt: at.toISOString().slice(0, 19) });
    expect(scheduled).toMatchObject({ status: 'future', date_gmt: at.toISOString().slice(0, 19) });
    const [later] = await postsTitled(`Scheduled article ${run}`);
    expect(later).toMatchObject({ status: 'scheduled', queued: false });
    expect(new Date(later!.published_at!).toISOString()).toBe(at.toISOString());
  });
});

describe('raw requests', () => {
  it('lists with WordPress totals, finds by slug and search, keeps drafts from visitors', async () => {
    const title = `Listed draft ${run}`;
    const made = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>Draft body.</p>' } });
    expect(made.status).toBe(201);
    expect(made.json.status).toBe('draft');
    expect(made.headers.get('location')).toBe(`http://localhost:8888/wp-json/wp/v2/posts/${made.json.id}`);

    const page = await call('/wp/v2/posts?per_page=2', { auth: null });
    expect(page.status).toBe(200);
    expect(Number(page.headers.get('x-wp-total'))).toBeGreaterThan(2);
    expect(Number(page.headers.get('x-wp-totalpages'))).toBe(Math.ceil(Number(page.headers.get('x-wp-total')) / 2));
    expect(page.json).toHaveLength(2);
    expect(page.json.every((post: { status: string }) => post.status === 'publish')).toBe(true);

    expect((await call(`/wp/v2/posts?status=draft&search=${encodeURIComponent(title)}`)).json.map((post: { id: number }) => post.id)).toEqual([made.json.id]);
    expect((await call(`/wp/v2/posts?slug=${made.json.slug}&status=any`)).json.map((post: { id: number }) => post.id)).toEqual([made.json.id]);
    expect((await call('/wp/v2/posts?status=draft', { auth: null })).status).toBe(401);
    expect((await call(`/wp/v2/posts/${made.json.id}`, { auth: null })).status).toBe(404);
    expect((await call('/wp/v2/posts?per_page=101')).json.code).toBe('rest_invalid_param');
    expect((await call('/wp/v2/posts?page=9999')).json.code).toBe('rest_post_invalid_page_number');
  });

  it('takes form fields and the rest_route form, and makes a second post with a free slug rather than overwrite', async () => {
    const title = `Form article ${run}`;
    const form = new URLSearchParams({ title, content: '<p>Sent as form fields, a first time.</p>', status: 'draft' });
    const first = await call('/wp/v2/posts', { method: 'POST', body: form.toString(), type: 'application/x-www-form-urlencoded' });
    expect(first.status).toBe(201);
    const response = await fetch(`${server.origin}/wp-json/?rest_route=/wp/v2/posts`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${EDITOR.email}:${DEV_PASSWORD}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title, slug: first.json.slug, content: '<p>A different article under the same address, a second time around.</p>' }),
    });
    const second = await response.json();
    expect(response.status).toBe(201);
    expect(second.slug).toBe(`${first.json.slug}-2`);
    expect(await postsTitled(title)).toHaveLength(2);
  });

  it("changes only the fields an update sends: an editor's save of another field, landing while the update is under way, stays", async () => {
    const title = `Raced article ${run}`;
    const created = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>The first version of a raced article.</p>', excerpt: 'First excerpt', status: 'draft' } });
    expect(created.status).toBe(201);
    const [post] = await postsTitled(title);
    const editorsTitle = `Raced article, as the editor put it ${run}`;
    await withDatabase(async (db) => {
      // The editor's save holds the row while the API's update of the content arrives (it has read the post by then).
      await db.query('begin');
      await db.query('select id from public.blog_posts where id = $1 for update', [post!.id]);
      const update = call(`/wp/v2/posts/${created.json.id}`, { method: 'POST', body: { content: '<p>The second version, sent by the tool.</p>' } });
      await expect.poll(async () => (await db.query(`select count(*)::int as n from pg_locks where not granted`)).rows[0].n, { timeout: 10_000 }).toBe(1);
      await db.query('update public.blog_posts set title = $1, excerpt = $2 where id = $3', [editorsTitle, 'The editor\'s excerpt', post!.id]);
      await db.query('commit');
      expect((await update).status).toBe(200);
    });
    const { data: stored } = await service.from('blog_posts').select('title, excerpt, content').eq('id', post!.id).single();
    expect(stored).toEqual({ title: editorsTitle, excerpt: "The editor's excerpt", content: '<p>The second version, sent by the tool.</p>' });
  });

  it('keeps a past date with a publish or a draft (a backdated import), and a published post may be given another; in review mode the post still waits', async () => {
    const imported = await call('/wp/v2/posts', { method: 'POST', body: { title: `Imported ${run}`, content: '<p>Written in 2024.</p>', status: 'publish', date: '2024-03-05T09:30:00' } });
    expect(imported.status).toBe(201);
    // `date` is a wall time in the site's zone (Scale Pro's: New York, five hours behind UTC in March 2024).
    expect(imported.json).toMatchObject({ status: 'publish', date: '2024-03-05T09:30:00', date_gmt: '2024-03-05T14:30:00' });
    expect((await postsTitled(`Imported ${run}`))[0]).toMatchObject({ status: 'published', published_at: '2024-03-05T14:30:00+00:00' });
    const moved = await call(`/wp/v2/posts/${imported.json.id}`, { method: 'PATCH', body: { status: 'publish', date_gmt: '2023-11-20T08:00:00Z' } });
    expect(moved.json).toMatchObject({ status: 'publish', date: '2023-11-20T03:00:00', date_gmt: '2023-11-20T08:00:00' });
    // Without a date an update leaves the post's date alone.
    expect((await call(`/wp/v2/posts/${imported.json.id}`, { method: 'PATCH', body: { excerpt: 'Still from 2023.' } })).json.date_gmt).toBe('2023-11-20T08:00:00');

    // A draft keeps its date, and is published at it when the tool later publishes it without another.
    const draft = await call('/wp/v2/posts', { method: 'POST', body: { title: `Imported draft ${run}`, content: '<p>Written in 2022.</p>', status: 'pending', date_gmt: '2022-06-01T12:00:00Z' } });
    expect(draft.json).toMatchObject({ status: 'draft', date_gmt: '2022-06-01T12:00:00' });
    expect((await postsTitled(`Imported draft ${run}`))[0]).toMatchObject({ status: 'draft', published_at: '2022-06-01T12:00:00+00:00' });
    const published = await call(`/wp/v2/posts/${draft.json.id}`, { method: 'PATCH', body: { status: 'publish' } });
    expect(published.json).toMatchObject({ status: 'publish', date_gmt: '2022-06-01T12:00:00' });

    const restore = await setPublishMode('draft');
    try {
      const held = await call('/wp/v2/posts', { method: 'POST', body: { title: `Imported for review ${run}`, content: '<p>Waits.</p>', status: 'publish', date: '2024-01-01T00:00:00' } });
      expect(held.json.status).toBe('draft');
      expect((await postsTitled(`Imported for review ${run}`))[0]).toMatchObject({ status: 'draft', published_at: null });
    } finally {
      await restore();
    }
  });

  it("follows the organization's choice for a publish: a draft for review, or the queue's next slot answered as future", async () => {
    const restore = await setPublishMode('draft');
    cleanup.push(restore);
    const drafted = await call('/wp/v2/posts', { method: 'POST', body: { title: `Draft mode ${run}`, content: '<p>Held for review.</p>', status: 'publish' } });
    expect(drafted.json.status).toBe('draft');
    // Publishing the draft it made does not skip the review either.
    expect((await call(`/wp/v2/posts/${drafted.json.id}`, { method: 'PATCH', body: { status: 'publish' } })).json.status).toBe('draft');

    await setPublishMode('queue');
    const queued = await call('/wp/v2/posts', { method: 'POST', body: { title: `Queue mode ${run}`, content: '<p>Waits for its slot.</p>', status: 'publish' } });
    expect(queued.json.status).toBe('future');
    const [row] = await postsTitled(`Queue mode ${run}`);
    expect(row).toMatchObject({ status: 'scheduled', queued: true });
    expect(queued.json.date_gmt).toBe(new Date(row!.published_at!).toISOString().slice(0, 19));
    await restore();
  });

  it('takes the same path as a webhook delivery: the same article sent both ways is held by the one duplicate gate', async () => {
    const title = `One article two ways ${run}`;
    const content = `<p>${Array.from({ length: 30 }, () => crypto.randomUUID()).join(' ')}</p>`;
    const delivered = await webhook(new Request('http://localhost/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title, html: content, slug: `one-article-webhook-${run}` }),
    }));
    expect(delivered.status).toBe(201);
    const first = ((await delivered.json()) as { post_id: string }).post_id;
    const again = await call('/wp/v2/posts', { method: 'POST', body: { title, content, status: 'publish' } });
    expect(again.status).toBe(201);
    expect(again.json.status).toBe('draft');
    const rows = (await service.from('blog_posts').select('id, duplicate_of, status').eq('organization_id', seed.scalePro).eq('title', title)).data!;
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.id !== first)).toMatchObject({ duplicate_of: first, status: 'draft' });
    const log = (await service.from('webhook_deliveries').select('webhook_name, status_code, note').eq('organization_id', seed.scalePro).in('post_id', rows.map((row) => row.id)).order('received_at')).data!;
    expect(log).toEqual([
      expect.objectContaining({ webhook_name: null, status_code: 201 }),
      expect.objectContaining({ webhook_name: 'Development', status_code: 200, note: expect.stringContaining('Possible duplicate of') }),
    ]);
  });

  it("refuses bad input with WordPress's 400 naming the field, and writes nothing", async () => {
    const title = `Refused ${run}`;
    const cases: [unknown, string, string][] = [
      [{ content: '<p>No title.</p>' }, 'rest_invalid_param', 'title'],
      [{ title, content: '<p>x</p>', categories: [987654] }, 'rest_invalid_param', 'categories'],
      [{ title, content: '<p>x</p>', tags: [987654] }, 'rest_invalid_param', 'tags'],
      [{ title, content: '<p>x</p>', status: 'future', date_gmt: '2020-01-01T10:00:00' }, 'rest_invalid_param', 'date_gmt'],
      [{ title, content: '<p>x</p>', status: 'private' }, 'rest_invalid_param', 'status'],
      [{ title, content: '<p>x</p>', date: 'next tuesday' }, 'rest_invalid_param', 'date'],
      [{ title, content: '<script>alert(1)</script>' }, 'rest_invalid_param', 'content'],
    ];
    for (const [body, code, field] of cases) {
      const answer = await call('/wp/v2/posts', { method: 'POST', body });
      expect(answer.status, field).toBe(400);
      expect(answer.json.code, field).toBe(code);
      expect(Object.keys(answer.json.data.params), field).toContain(field);
    }
    const media = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>x</p>', featured_media: 987654 } });
    expect(media.json).toMatchObject({ code: 'rest_invalid_featured_media', data: { status: 400 } });
    const malformed = await call('/wp/v2/posts', { method: 'POST', body: '{"title": "broken' });
    expect(malformed.json).toMatchObject({ code: 'rest_invalid_json', data: { status: 400 } });
    expect(await postsTitled(title)).toEqual([]);
  });

  it('refuses a viewer, a visitor and another organization\'s post, writing nothing', async () => {
    const viewer = await createMember('viewer');
    cleanup.push(viewer.remove);
    // A viewer cannot even make a password; one made while they were an editor stops publishing once demoted.
    const editor = await createMember('editor');
    cleanup.push(editor.remove);
    const made = await (await signedInClient(editor.email)).rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: 'Tool' });
    const password = (made.data as { password: string }).password;
    await service.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', editor.id).eq('organization_id', seed.scalePro);
    const title = `Not allowed ${run}`;
    const demoted = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>x</p>' }, auth: [editor.email, password] });
    expect(demoted.status).toBe(403);
    expect(demoted.json.code).toBe('rest_cannot_create');
    const visitor = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>x</p>' }, auth: null });
    expect(visitor.status).toBe(401);
    expect((await call('/wp/v2/tags', { method: 'POST', body: { name: title }, auth: null })).status).toBe(401);
    expect(await postsTitled(title)).toEqual([]);

    const { data: other } = await service.from('blog_posts').select('wp_id, title').eq('organization_id', seed.evergreen).limit(1).single();
    const foreign = other as { wp_id: number; title: string };
    expect((await call(`/wp/v2/posts/${foreign.wp_id}`, { method: 'POST', body: { title: 'Taken over' } })).status).toBe(404);
    expect((await call(`/wp/v2/posts/${foreign.wp_id}?force=true`, { method: 'DELETE' })).status).toBe(404);
    const { data: after } = await service.from('blog_posts').select('title').eq('wp_id', foreign.wp_id).single();
    expect(after).toEqual({ title: foreign.title });
  });

  it('moves a post to the trash without force (hidden, restorable, logged, the site rebuilt), deletes it with force', async () => {
    const title = `Trashed ${run}`;
    const made = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>Soon in the trash.</p>', status: 'publish' } });
    expect(made.json.status).toBe('publish');
    const [row] = await postsTitled(title);
    const before = new Date().toISOString();

    const trashed = await call(`/wp/v2/posts/${made.json.id}`, { method: 'DELETE' });
    expect(trashed).toMatchObject({ status: 200, json: { id: made.json.id, status: 'trash' } });
    const { data: stored } = await service.from('blog_posts').select('status, queued, trashed_at').eq('id', row!.id).single();
    expect(stored).toMatchObject({ status: 'draft', queued: false, trashed_at: expect.any(String) });
    // Off the site: a rebuild asked for, visitors do not find it; tools find it only under status=trash.
    const rebuilds = (await service.from('site_rebuild_requests').select('reason').eq('organization_id', seed.scalePro).gte('requested_at', before)).data!;
    expect(rebuilds).toContainEqual({ reason: `Post unpublished: ${row!.slug}` });
    expect((await call(`/wp/v2/posts/${made.json.id}`, { auth: null })).status).toBe(404);
    expect((await call(`/wp/v2/posts/${made.json.id}`)).json.status).toBe('trash');
    const listed = async (query: string) => (await call(`/wp/v2/posts?${query}&search=${encodeURIComponent(title)}`)).json.map((post: { id: number }) => post.id);
    expect(await listed('status=any')).toEqual([]);
    expect(await listed('status=draft')).toEqual([]);
    expect(await listed('status=trash')).toEqual([made.json.id]);
    expect((await call('/wp/v2/posts?status=trash', { auth: null })).status).toBe(401);
    expect(await call(`/wp/v2/posts/${made.json.id}`, { method: 'DELETE' })).toMatchObject({ status: 410, json: { code: 'rest_already_trashed' } });

    // Another status takes it out of the trash; `status: trash` puts it back.
    expect((await call(`/wp/v2/posts/${made.json.id}`, { method: 'PATCH', body: { status: 'draft' } })).json.status).toBe('draft');
    expect((await service.from('blog_posts').select('trashed_at').eq('id', row!.id).single()).data).toEqual({ trashed_at: null });
    expect((await call(`/wp/v2/posts/${made.json.id}`, { method: 'PATCH', body: { status: 'trash', title: 'Not applied' } })).json).toMatchObject({ status: 'trash', title: { rendered: title } });
    const actions = (await service.from('user_activity_logs').select('action, user_id, details').eq('resource_id', row!.id).order('created_at')).data!;
    expect(actions.map((entry) => entry.action)).toEqual(['post_created', 'post_trashed', 'post_untrashed', 'post_trashed']);
    expect(actions[1]).toMatchObject({ user_id: EDITOR.id, details: { application_password: 'Development', status: 'draft' } });

    // A new post cannot start in the trash.
    const born = await call('/wp/v2/posts', { method: 'POST', body: { title: `Born trashed ${run}`, content: '<p>x</p>', status: 'trash' } });
    expect(born).toMatchObject({ status: 400, json: { code: 'rest_invalid_param', data: { params: { status: 'A new post cannot be created in the trash.' } } } });
    expect(await postsTitled(`Born trashed ${run}`)).toEqual([]);

    const deleted = await call(`/wp/v2/posts/${made.json.id}?force=true`, { method: 'DELETE' });
    expect(deleted.json).toMatchObject({ deleted: true, previous: { id: made.json.id, status: 'trash' } });
    expect(await postsTitled(title)).toEqual([]);
    const audit = (await service.from('user_activity_logs').select('user_id, details').eq('resource_id', row!.id).eq('action', 'post_deleted')).data!;
    expect(audit).toEqual([expect.objectContaining({ user_id: EDITOR.id, details: expect.objectContaining({ application_password: 'Development' }) })]);
  });

  it('keeps sticky, answers it and filters by it; refuses a sticky that is not a yes or no', async () => {
    const title = `Sticky ${run}`;
    const made = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>First on the blog.</p>', sticky: true } });
    expect(made.json.sticky).toBe(true);
    const ids = async (query: string) => (await call(`/wp/v2/posts?status=any&search=${encodeURIComponent(title)}&${query}`)).json.map((post: { id: number }) => post.id);
    expect(await ids('sticky=true')).toEqual([made.json.id]);
    expect(await ids('sticky=false')).toEqual([]);
    // Form fields send it as text.
    const unstuck = await call(`/wp/v2/posts/${made.json.id}`, { method: 'POST', body: 'sticky=0', type: 'application/x-www-form-urlencoded' });
    expect(unstuck.json.sticky).toBe(false);
    expect((await service.from('blog_posts').select('sticky').eq('wp_id', made.json.id).single()).data).toEqual({ sticky: false });
    const refused = await call(`/wp/v2/posts/${made.json.id}`, { method: 'PATCH', body: { sticky: 'maybe', title: `Changed ${run}` } });
    expect(refused).toMatchObject({ status: 400, json: { data: { params: { sticky: expect.stringContaining('true or false') } } } });
    expect(await postsTitled(title)).toHaveLength(1);
  });

  it('answers types and statuses as tools read them on connect', async () => {
    expect((await call('/wp/v2/types', { auth: null })).json.post).toMatchObject({ slug: 'post', rest_base: 'posts', taxonomies: ['category', 'post_tag'] });
    expect(Object.keys((await call('/wp/v2/statuses', { auth: null })).json)).toEqual(['publish', 'future', 'draft', 'pending']);
    const index = await call('/', { auth: null });
    expect(Object.keys(index.json.routes)).toEqual(expect.arrayContaining(['/wp/v2/posts', '/wp/v2/posts/(?P<id>[\\d]+)', '/wp/v2/categories', '/wp/v2/tags']));
  });
});

describe('media', () => {
  /** A small PNG of its own colour: each test's bytes are new to the library. */
  const png = (shade: number) => sharp({ create: { width: 48, height: 30, channels: 3, background: { r: shade, g: 90, b: 200 } } }).png().toBuffer();
  const mediaNamed = async (name: string) => (await service.from('media').select('id, wp_id, file_name, mime_type, width, created_by, alt_text, caption, storage_path').eq('organization_id', seed.scalePro).eq('file_name', name)).data ?? [];

  it('takes raw bytes with Content-Disposition and a multipart upload, then the post names the file as its featured image', async () => {
    const rawName = `cover-${run}.png`;
    const response = await fetch(`${server.origin}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${EDITOR.email}:${DEV_PASSWORD}`).toString('base64')}`,
        'content-type': 'image/png',
        'content-disposition': `attachment; filename="${rawName}"`,
      },
      body: await png(10),
    });
    const raw = await response.json();
    expect(response.status).toBe(201);
    expect(raw).toMatchObject({ type: 'attachment', media_type: 'image', mime_type: 'image/png', media_details: { width: 48, height: 30 } });
    expect(raw.source_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/storage\/v1\/object\/public\/media\//);
    expect((await fetch(raw.source_url)).status).toBe(200);
    expect(await mediaNamed(rawName)).toEqual([expect.objectContaining({ wp_id: raw.id, created_by: EDITOR.id })]);

    const wp = new WPAPI({ endpoint: `${server.origin}/wp-json`, username: EDITOR.email, password: DEV_PASSWORD });
    const formName = `multipart-${run}.png`;
    // As a tool on a server does: the file from disk.
    const path = join(tmpdir(), formName);
    writeFileSync(path, await png(20));
    const uploaded = await wp.media().file(path, formName).create({ alt_text: 'A blue square' });
    rmSync(path);
    expect(uploaded.alt_text).toBe('A blue square');
    expect((await mediaNamed(formName))[0]).toMatchObject({ wp_id: uploaded.id, alt_text: 'A blue square' });
    expect((await call(`/wp/v2/media/${uploaded.id}`)).json.id).toBe(uploaded.id);
    // Visitors read only what the site shows: a file no published post features is not theirs to list.
    expect((await call(`/wp/v2/media/${uploaded.id}`, { auth: null })).status).toBe(404);

    const title = `With a featured image ${run}`;
    const post = await wp.posts().create({ title, content: '<p>Pictured.</p>', status: 'draft', featured_media: uploaded.id });
    expect(post.featured_media).toBe(uploaded.id);
    const [stored] = (await service.from('blog_posts').select('featured_media_id').eq('organization_id', seed.scalePro).eq('title', title)).data!;
    expect(stored!.featured_media_id).toBe((await mediaNamed(formName))[0]!.id);
  });

  it('refuses what is not an image, a file too large, a body without a name, and a viewer, storing nothing', async () => {
    const upload = (body: Buffer<ArrayBuffer> | string, headers: Record<string, string>, auth: [string, string] = [EDITOR.email, DEV_PASSWORD]) =>
      fetch(`${server.origin}/wp-json/wp/v2/media`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(auth.join(':')).toString('base64')}`, ...headers }, body: new Blob([body]) })
        .then(async (response) => ({ status: response.status, json: await response.json() }));
    const text = await upload('not an image at all', { 'content-type': 'image/png', 'content-disposition': `attachment; filename="notes-${run}.png"` });
    expect(text).toMatchObject({ status: 400, json: { code: 'rest_upload_invalid_file' } });
    expect(text.json.message).toContain(`notes-${run}.png is not an image`);
    const big = await upload(Buffer.alloc(5_500_000), { 'content-type': 'image/png', 'content-disposition': `attachment; filename="big-${run}.png"` });
    expect(big.status).toBe(400);
    expect(big.json.message).toContain('larger than 5 MB');
    const huge = await upload(Buffer.alloc(6_100_000), { 'content-type': 'image/png', 'content-disposition': `attachment; filename="huge-${run}.png"` });
    expect(huge).toMatchObject({ status: 413, json: { code: 'rest_upload_too_large' } });
    const nameless = await upload(await png(30), { 'content-type': 'image/png' });
    expect(nameless).toMatchObject({ status: 400, json: { code: 'rest_upload_no_content_disposition' } });
    // A member demoted to viewer keeps the password they made as an editor, and may no longer upload.
    const member = await createMember('editor');
    cleanup.push(member.remove);
    const made = await (await signedInClient(member.email)).rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: 'Uploader' });
    await service.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', member.id).eq('organization_id', seed.scalePro);
    const asViewer = await upload(await png(40), { 'content-type': 'image/png', 'content-disposition': `attachment; filename="viewer-${run}.png"` }, [member.email, (made.data as { password: string }).password]);
    expect(asViewer).toMatchObject({ status: 403, json: { code: 'rest_cannot_create' } });
    const { data } = await service.from('media').select('file_name').eq('organization_id', seed.scalePro).like('file_name', `%${run}%`).not('file_name', 'like', 'cover-%').not('file_name', 'like', 'multipart-%').not('file_name', 'like', 'renamed-%');
    expect(data).toEqual([]);
  });

  it("changes a file's alt text, caption and title after the upload, as api-fetch and mcp-wordpress do; refuses a description, a viewer, a visitor and another organization's file", async () => {
    const name = `described-${run}.png`;
    const uploaded = await fetch(`${server.origin}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${EDITOR.email}:${DEV_PASSWORD}`).toString('base64')}`, 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}"` },
      body: await png(50),
    }).then((response) => response.json());
    const described = await call(`/wp/v2/media/${uploaded.id}`, { method: 'POST', body: { alt_text: '  A teal rectangle  ', caption: '', description: { raw: '' } } });
    expect(described.status).toBe(200);
    expect(described.json).toMatchObject({ id: uploaded.id, alt_text: 'A teal rectangle', title: { rendered: `described-${run}` } });
    const renamed = await call(`/wp/v2/media/${uploaded.id}`, { method: 'PUT', body: { title: { raw: `renamed-${run}` } } });
    expect(renamed.json).toMatchObject({ alt_text: 'A teal rectangle', title: { rendered: `renamed-${run}` } });
    const captioned = await call(`/wp/v2/media/${uploaded.id}?context=edit`, { method: 'PATCH', body: { caption: { raw: ' Spring <b>sale</b> ' } } });
    expect(captioned.json.caption).toEqual({ rendered: '<p>Spring &#60;b&#62;sale&#60;/b&#62;</p>\n', raw: 'Spring <b>sale</b>' });
    const [row] = await mediaNamed(`renamed-${run}.png`);
    expect(row).toMatchObject({ wp_id: uploaded.id, alt_text: 'A teal rectangle', caption: 'Spring <b>sale</b>' });

    const before = JSON.stringify(row);
    const refused = await call(`/wp/v2/media/${uploaded.id}`, { method: 'PATCH', body: { alt_text: 'Changed', description: 'A description' } });
    expect(refused).toMatchObject({ status: 400, json: { code: 'rest_invalid_param', data: { params: { description: expect.stringContaining('is not kept') } } } });
    expect((await call(`/wp/v2/media/${uploaded.id}`, { method: 'PATCH', body: { caption: 'x'.repeat(501) } })).status).toBe(400);
    expect((await call(`/wp/v2/media/${uploaded.id}`, { method: 'PATCH', body: { alt_text: 'x'.repeat(501) } })).status).toBe(400);
    expect((await call(`/wp/v2/media/${uploaded.id}`, { method: 'PATCH', body: { alt_text: 'By a visitor' }, auth: null })).status).toBe(401);
    const member = await createMember('editor');
    cleanup.push(member.remove);
    const made = await (await signedInClient(member.email)).rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: 'Describer' });
    await service.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', member.id).eq('organization_id', seed.scalePro);
    const asViewer = await call(`/wp/v2/media/${uploaded.id}`, { method: 'PATCH', body: { alt_text: 'By a viewer' }, auth: [member.email, (made.data as { password: string }).password] });
    expect(asViewer).toMatchObject({ status: 403, json: { code: 'rest_cannot_edit' } });
    // Another organization's file (a row as the database owner's seed writes one): not this site's, so 404.
    const otherPath = `${seed.evergreen}/elsewhere-${run}.png`;
    const otherId = await withDatabase(async (db) =>
      (await db.query("insert into public.media (organization_id, storage_path, file_name, mime_type, size_bytes) values ($1, $2, 'elsewhere.png', 'image/png', 100) returning wp_id", [seed.evergreen, otherPath])).rows[0]!.wp_id as number,
    );
    cleanup.push(() => withDatabase((db) => db.query('delete from public.media where storage_path = $1', [otherPath])));
    expect((await call(`/wp/v2/media/${otherId}`, { method: 'PATCH', body: { alt_text: 'Not yours' } })).status).toBe(404);
    expect((await service.from('media').select('alt_text').eq('storage_path', otherPath).single()).data).toEqual({ alt_text: '' });
    expect(JSON.stringify((await mediaNamed(`renamed-${run}.png`))[0])).toBe(before);
  });

  it('deletes a file with force as the Media Library does: the published post loses it and is rebuilt, the audit names the password, the object goes', async () => {
    const name = `deleted-${run}.png`;
    const uploaded = await fetch(`${server.origin}/wp-json/wp/v2/media`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${EDITOR.email}:${DEV_PASSWORD}`).toString('base64')}`, 'content-type': 'image/png', 'content-disposition': `attachment; filename="${name}"` },
      body: await png(70),
    }).then((response) => response.json());
    const title = `Shows a file soon deleted ${run}`;
    const post = await call('/wp/v2/posts', { method: 'POST', body: { title, content: '<p>With an image.</p>', status: 'publish', featured_media: uploaded.id } });
    expect(post.json.featured_media).toBe(uploaded.id);
    const [row] = await mediaNamed(name);
    const objects = async () => (await service.storage.from('media').list(seed.scalePro, { search: row!.storage_path.split('/').pop() })).data!.length;
    expect(await objects()).toBe(1);

    // Refused: without force, for a visitor, for a viewer, for another organization's file; nothing goes.
    expect(await call(`/wp/v2/media/${uploaded.id}`, { method: 'DELETE' })).toMatchObject({ status: 501, json: { code: 'rest_trash_not_supported' } });
    expect((await call(`/wp/v2/media/${uploaded.id}?force=true`, { method: 'DELETE', auth: null })).status).toBe(401);
    const member = await createMember('editor');
    cleanup.push(member.remove);
    const made = await (await signedInClient(member.email)).rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: 'Deleter' });
    await service.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', member.id).eq('organization_id', seed.scalePro);
    expect(await call(`/wp/v2/media/${uploaded.id}?force=true`, { method: 'DELETE', auth: [member.email, (made.data as { password: string }).password] })).toMatchObject({ status: 403, json: { code: 'rest_cannot_delete' } });
    const { data: foreign } = await service.from('media').select('wp_id').eq('organization_id', seed.evergreen).limit(1).maybeSingle();
    if (foreign) expect((await call(`/wp/v2/media/${foreign.wp_id}?force=true`, { method: 'DELETE' })).status).toBe(404);
    expect(await mediaNamed(name)).toHaveLength(1);

    const before = new Date().toISOString();
    const deleted = await call(`/wp/v2/media/${uploaded.id}?force=true`, { method: 'DELETE' });
    expect(deleted.json).toMatchObject({ deleted: true, previous: { id: uploaded.id } });
    expect(await mediaNamed(name)).toEqual([]);
    expect(await objects()).toBe(0);
    expect((await service.from('blog_posts').select('featured_media_id').eq('wp_id', post.json.id).single()).data).toEqual({ featured_media_id: null });
    const [stored] = await postsTitled(title);
    const rebuilds = (await service.from('site_rebuild_requests').select('reason').eq('organization_id', seed.scalePro).gte('requested_at', before)).data!;
    expect(rebuilds).toContainEqual({ reason: `Post updated: ${stored!.slug}` });
    const audit = (await service.from('user_activity_logs').select('user_id, details').eq('resource_id', row!.id).eq('action', 'media_deleted')).data!;
    expect(audit).toEqual([{ user_id: EDITOR.id, details: { file_name: name, application_password: 'Development' } }]);
    expect((await call(`/wp/v2/media/${uploaded.id}?force=true`, { method: 'DELETE' })).status).toBe(404);
  });
});
