/**
 * The duplicate gate, through the real webhook function: a delivery whose slug is new but whose article
 * repeats one of the organization's posts (the same normalized title, or a body similar above the threshold)
 * is saved as a draft marked `duplicate_of`, never published or queued; the answer (200) and the delivery log
 * say why; a re-delivery of the same slug keeps updating its post. Members may only clear the mark, and only
 * in their own organization.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import { anonClient, seed, signedInClient } from './support/db-fixtures.ts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs: string[] = [];
const slug = (name: string) => {
  const value = `dup-${name}-${run}`;
  slugs.push(value);
  return value;
};
const clients = {} as Record<'editor' | 'viewer' | 'otherAdmin', SupabaseClient>;

/** A random word of 3 to 9 letters. */
const word = () => Array.from({ length: 3 + Math.floor(Math.random() * 7) }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('');

/** An article of 170 words, different from every other call's. */
function article(): string {
  const words = Array.from({ length: 170 }, word);
  return `<h2>Introduction</h2><p>${words.slice(0, 90).join(' ')}.</p><p>${words.slice(90).join(' ')}.</p>`;
}

async function deliver(body: Record<string, unknown>) {
  const response = await webhook(webhookRequest(SCALE_PRO.token, { webhook_name: 'Bulk run', ...body }));
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const postBySlug = async (value: string) =>
  must(await db.from('blog_posts').select('id, status, queued, duplicate_of, published_at').eq('slug', value).single(), `post ${value}`);
const deliveryNote = async (value: string) =>
  must(await db.from('webhook_deliveries').select('status_code, note').eq('slug', value).order('received_at', { ascending: false }).limit(1).single(), 'delivery');

let original: { id: string; title: string; slug: string; html: string };
beforeAll(async () => {
  clients.editor = await signedInClient(seed.users.editor.email);
  clients.viewer = await signedInClient(seed.users.viewer.email);
  clients.otherAdmin = await signedInClient(seed.users.otherAdmin.email);
  const html = article();
  const first = await deliver({ title: `Ten Local SEO Tips for Atlanta Roofers ${run}`, html, slug: slug('original') });
  expect(first.status).toBe(201);
  original = { id: first.json.post_id as string, title: `Ten Local SEO Tips for Atlanta Roofers ${run}`, slug: slugs[0]!, html };
});
afterAll(async () => {
  check(await db.from('blog_posts').update({ duplicate_of: null }).in('slug', slugs), 'clear marks');
  await removeTestRows({ postSlugs: slugs, organizationIds: [SCALE_PRO.id], since });
  check(await db.from('user_activity_logs').delete().eq('organization_id', SCALE_PRO.id).gte('created_at', since).like('details->>slug', 'dup-%'), 'remove audit');
});

describe('a delivery that repeats an article', () => {
  it.each([
    ['the same title, another case and punctuation', () => ({ title: `ten local SEO tips — for Atlanta roofers! ${run}`, html: article() }), 'same title'],
    ['the same body under another title', () => ({ title: `A fresh headline ${run}`, html: original.html }), 'similar text, 100%'],
    [
      'the body lightly edited (a sentence added, a word changed)',
      () => ({ title: `Another fresh headline ${run}`, html: original.html.replace('<h2>Introduction</h2>', '<h2>Intro</h2><p>Updated for this year.</p>') }),
      /^similar text, (9\d|8\d|7\d)%$/,
    ],
  ])('is saved as a draft marked duplicate when it has %s (200, with the reason)', async (_case, body, reason) => {
    const repeat = slug(`repeat-${slugs.length}`);
    const { status, json } = await deliver({ ...body(), slug: repeat });
    expect(status).toBe(200);
    expect(json).toMatchObject({ status: 'draft', duplicate_of: { post_id: original.id, title: original.title, url: `http://localhost:8888/blog/${original.slug}` } });
    expect((json.duplicate_of as { reason: string }).reason).toMatch(reason);
    expect(json.message).toMatch(new RegExp(`^Possible duplicate of “${original.title}”`));

    expect(await postBySlug(repeat)).toMatchObject({ status: 'draft', queued: false, duplicate_of: original.id, published_at: null });
    const logged = await deliveryNote(repeat);
    expect(logged.status_code).toBe(200);
    expect(logged.note).toMatch(new RegExp(`^Possible duplicate of “${original.title}” \\(/blog/${original.slug}, `));
    // Visitors never see it, and it asks for no build.
    expect((await anonClient().from('blog_posts').select('id').eq('slug', repeat)).data).toEqual([]);
    const rebuilds = must(await db.from('site_rebuild_requests').select('reason').eq('organization_id', SCALE_PRO.id).gte('requested_at', since), 'requests');
    expect(rebuilds.map((row) => row.reason)).not.toContain(`Post published: ${repeat}`);
  });

  it('is never queued either: a duplicate in queue mode stays a draft', async () => {
    const { settings } = must(await db.from('organizations').select('settings').eq('id', SCALE_PRO.id).single(), 'settings');
    check(await db.from('organizations').update({ settings: { ...settings, webhook: { publish_mode: 'queue' } } }).eq('id', SCALE_PRO.id), 'queue mode');
    try {
      const repeat = slug('queued-repeat');
      expect((await deliver({ title: original.title, html: article(), slug: repeat })).status).toBe(200);
      expect(await postBySlug(repeat)).toMatchObject({ status: 'draft', queued: false, duplicate_of: original.id });
    } finally {
      check(await db.from('organizations').update({ settings }).eq('id', SCALE_PRO.id), 'restore mode');
    }
  });

  it('keeps updating its own post when the same slug is delivered again', async () => {
    // A revised delivery (the very same payload again would be a retry, answered with its first outcome).
    const again = await deliver({ title: original.title, html: original.html, slug: original.slug, excerpt: 'Revised.' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({
      post_id: original.id, status: 'published', url: `http://localhost:8888/blog/${original.slug}`,
      // No category sent: the organization's default one.
      category: { name: 'Uncategorized', sent: null, mapped: false, created: false, needs_review: false },
    });
    expect(await postBySlug(original.slug)).toMatchObject({ status: 'published', duplicate_of: null });
  });

  it('lets a different article through, and never compares short bodies by their text', async () => {
    const different = slug('different');
    expect((await deliver({ title: `How to Brief a Web Designer ${run}`, html: article(), slug: different })).status).toBe(201);
    // Two short notes alike in text but with different titles are different posts.
    const [a, b] = [slug('short-a'), slug('short-b')];
    expect((await deliver({ title: `Office closed Monday ${run}`, html: '<p>Our office is closed on Monday.</p>', slug: a })).status).toBe(201);
    expect((await deliver({ title: `Office closed Friday ${run}`, html: '<p>Our office is closed on Friday.</p>', slug: b })).status).toBe(201);
    expect(await postBySlug(b)).toMatchObject({ status: 'published', duplicate_of: null });
  });
});

describe('the duplicate mark', () => {
  let marked = '';
  beforeAll(async () => {
    const repeat = slug('to-dismiss');
    expect((await deliver({ title: original.title, html: article(), slug: repeat })).status).toBe(200);
    marked = (await postBySlug(repeat)).id;
  });

  it('cannot be set or moved by a member, nor cleared by a viewer or another organization through the REST API', async () => {
    const other = (await postBySlug(slugs.find((value) => value.startsWith('dup-different'))!)).id;
    const moved = await clients.editor.from('blog_posts').update({ duplicate_of: other }).eq('id', marked).select('id');
    expect(moved.error?.code).toBe('42501');
    const planted = await clients.editor.from('blog_posts').update({ duplicate_of: original.id }).eq('id', other).select('id');
    expect(planted.error?.code).toBe('42501');
    for (const client of [clients.viewer, clients.otherAdmin, anonClient()]) {
      const { data } = await client.from('blog_posts').update({ duplicate_of: null }).eq('id', marked).select('id');
      expect(data ?? []).toEqual([]);
    }
    expect((await postBySlug(slugs.find((value) => value.startsWith('dup-different'))!)).duplicate_of).toBeNull();
    expect(must(await db.from('blog_posts').select('duplicate_of').eq('id', marked).single(), 'marked').duplicate_of).toBe(original.id);
  });

  it('is dismissed by an editor clearing it', async () => {
    const { data, error } = await clients.editor.from('blog_posts').update({ duplicate_of: null }).eq('id', marked).select('duplicate_of');
    expect(error).toBeNull();
    expect(data).toEqual([{ duplicate_of: null }]);
  });

  it('goes when the original is deleted', async () => {
    const repeat = slug('orphan');
    const copy = await deliver({ title: `Original to delete ${run}`, html: article(), slug: slug('to-delete') });
    expect(copy.status).toBe(201);
    expect((await deliver({ title: `Original to delete ${run}`, html: article(), slug: repeat })).status).toBe(200);
    check(await db.from('blog_posts').delete().eq('id', copy.json.post_id as string), 'delete original');
    expect(await postBySlug(repeat)).toMatchObject({ status: 'draft', duplicate_of: null });
  });
});
