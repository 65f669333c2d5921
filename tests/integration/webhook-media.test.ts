/**
 * The writing tool's images end in the organization's Media Library, and its posts have the author the
 * admin chose:
 * - image_base64 is decoded, checked by its bytes, stored once per organization (a redelivery reuses the
 *   file) and set as the post's featured image; a bad one is noted in the delivery log, the post is saved;
 * - image_url is fetched from public hosts only (the webhook refuses this machine's own addresses);
 * - set_webhook_author: the organization's admin picks an active editor or admin; everyone else is refused
 *   through /rest/v1/rpc and nothing changes; a delivery credits the chosen author only while they still are one.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SupabaseClient } from '@supabase/supabase-js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import { anonClient, createMember, seed, signedInClient } from './support/db-fixtures.ts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import { receiveDelivery } from '../../src/lib/server/webhook-delivery.ts';
import { WebhookPayloadSchema } from '../../src/schemas/webhook.ts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs: string[] = [];
const mediaIds = new Set<string>();
const testSlug = (name: string) => {
  const slug = `webhook-media-${name}-${run}`;
  slugs.push(slug);
  return slug;
};

/** A real PNG whose pixels (and so SHA-256) are unique to this run and `seedColor`. */
async function uniquePng(seedColor: number): Promise<Buffer> {
  const shade = (Number.parseInt(run.slice(-4), 36) + seedColor) % 250;
  return sharp({ create: { width: 64, height: 40, channels: 3, background: { r: shade, g: 120, b: seedColor % 250 } } }).png().toBuffer();
}

const payload = (slug: string, extra: Record<string, unknown> = {}) => ({
  webhook_name: 'blog_post_created',
  title: `Webhook image ${slug}`,
  html: '<p>An article with a picture.</p>',
  markdown: false,
  slug,
  image_url: false,
  image_base64: false,
  ...extra,
});

async function deliver(body: unknown) {
  const response = await webhook(webhookRequest(SCALE_PRO.token, body));
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function postOf(slug: string) {
  return must(await db.from('blog_posts').select('id, featured_media_id, featured_image_url').eq('organization_id', SCALE_PRO.id).eq('slug', slug).single(), 'post');
}

/** The newest delivery's image outcome for a slug ('stored', 'none', 'failed'). */
async function imageOf(slug: string): Promise<string | null> {
  const rows = must(await db.from('webhook_deliveries').select('image').eq('slug', slug).order('received_at', { ascending: false }).limit(1), 'delivery');
  return rows[0]?.image ?? null;
}

async function noteOf(slug: string): Promise<string | null> {
  const rows = must(await db.from('webhook_deliveries').select('note').eq('slug', slug).order('received_at', { ascending: false }).limit(1), 'delivery');
  return rows[0]?.note ?? null;
}

let imageServer: Server;
let imageOrigin = '';
let png: Buffer;

beforeAll(async () => {
  png = await uniquePng(1);
  const served = await uniquePng(2);
  imageServer = createServer((req, res) => {
    if (req.url === '/wp-content/uploads/cover.png') res.writeHead(200, { 'content-type': 'image/png' }).end(served);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
  imageOrigin = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => imageServer.close(resolve));
  await removeTestRows({ postSlugs: slugs, organizationIds: [SCALE_PRO.id], since });
  const rows = must(await db.from('media').select('id, storage_path').in('id', [...mediaIds]), 'media rows');
  check(await db.from('media').delete().in('id', [...mediaIds]), 'remove media');
  if (rows.length) check(await db.storage.from('media').remove(rows.map((r) => r.storage_path)), 'remove files');
});

describe('image_base64', () => {
  const slug = testSlug('base64');
  let mediaId = '';

  it('stores the image in the organization\'s media and makes it the featured image', async () => {
    const response = await deliver(payload(slug, { image_base64: `data:image/png;base64,${png.toString('base64')}` }));
    expect(response.status).toBe(201);
    const post = await postOf(slug);
    expect(post.featured_media_id).not.toBeNull();
    mediaId = post.featured_media_id as string;
    mediaIds.add(mediaId);
    const media = must(await db.from('media').select('*').eq('id', mediaId).single(), 'media');
    expect(media).toMatchObject({
      organization_id: SCALE_PRO.id, file_name: `${slug}.png`, mime_type: 'image/png', size_bytes: png.byteLength,
      width: 64, height: 40, alt_text: `Webhook image ${slug}`, source: 'webhook', created_by: null,
    });
    expect(media.storage_path).toMatch(new RegExp(`^${SCALE_PRO.id}/[0-9a-f-]{36}\\.png$`));
    const file = must(await db.storage.from('media').download(media.storage_path), 'download');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(png);
    expect(await noteOf(slug)).toBeNull();
    expect(await imageOf(slug)).toBe('stored');
    const logged = must(await db.from('user_activity_logs').select('details').eq('action', 'media_uploaded').eq('resource_id', mediaId), 'log');
    expect(logged).toEqual([{ details: { file_name: `${slug}.png`, via: 'webhook' } }]);
  });

  it('reuses the stored file when the same image arrives again, for this post or another', async () => {
    const again = await deliver(payload(slug, { image_base64: png.toString('base64') }));
    expect(again.status).toBe(200);
    const other = testSlug('base64-other');
    expect((await deliver(payload(other, { image_base64: png.toString('base64') }))).status).toBe(201);
    expect((await postOf(slug)).featured_media_id).toBe(mediaId);
    expect((await postOf(other)).featured_media_id).toBe(mediaId);
    const { count } = await db.from('media').select('id', { count: 'exact', head: true }).eq('organization_id', SCALE_PRO.id).eq('sha256', (await db.from('media').select('sha256').eq('id', mediaId).single()).data?.sha256);
    expect(count).toBe(1);
  });

  it('keeps the featured image when a redelivery has none', async () => {
    expect((await deliver(payload(slug))).status).toBe(200);
    expect((await postOf(slug)).featured_media_id).toBe(mediaId);
  });

  it.each([
    ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>').toString('base64'), 'image_base64 not stored: it is not an image (JPEG, PNG, WebP, AVIF or GIF)'],
    ['text that is not base64', 'this is not base64!', 'image_base64 not stored: it is not base64'],
  ])('saves the post without an image for %s, and says why in the delivery log', async (_, data, note) => {
    const slug = testSlug(`bad-${data.length}`);
    const before = (await db.from('media').select('id', { count: 'exact', head: true }).eq('organization_id', SCALE_PRO.id)).count;
    expect((await deliver(payload(slug, { image_base64: data }))).status).toBe(201);
    expect((await postOf(slug)).featured_media_id).toBeNull();
    expect(await noteOf(slug)).toBe(note);
    expect(await imageOf(slug)).toBe('failed');
    expect((await db.from('media').select('id', { count: 'exact', head: true }).eq('organization_id', SCALE_PRO.id)).count).toBe(before);
  });
});

describe('image_url', () => {
  it('is never fetched from this machine\'s own addresses by the webhook', async () => {
    const slug = testSlug('url-loopback');
    const response = await deliver(payload(slug, { image_url: `${imageOrigin}/wp-content/uploads/cover.png` }));
    expect(response.status).toBe(201);
    expect((await postOf(slug)).featured_media_id).toBeNull();
    expect(await noteOf(slug)).toBe('image_url not stored: 127.0.0.1 is not a public host');
  });

  it('is fetched once and stored under its own file name when the host is allowed', async () => {
    const slug = testSlug('url');
    const delivery = { payload: WebhookPayloadSchema.parse(payload(slug, { image_url: `${imageOrigin}/wp-content/uploads/cover.png` })) };
    const stored = await receiveDelivery(db, { token: SCALE_PRO.token }, delivery, process.env, { isAllowedAddress: (a) => a === '127.0.0.1' });
    expect(stored?.created).toBe(true);
    const post = await postOf(slug);
    mediaIds.add(post.featured_media_id as string);
    const media = must(await db.from('media').select('file_name, mime_type, width, height').eq('id', post.featured_media_id as string).single(), 'media');
    expect(media).toEqual({ file_name: 'cover.png', mime_type: 'image/png', width: 64, height: 40 });
    expect(post.featured_image_url).toBeNull();
  });
});

describe('set_webhook_author', () => {
  const clients = {} as Record<'admin' | 'editor' | 'viewer' | 'otherAdmin', SupabaseClient>;
  const authorOf = async () => must(await db.from('webhook_integrations').select('author_id').eq('organization_id', SCALE_PRO.id).single(), 'integration').author_id;
  const entries = async () =>
    (await db.from('user_activity_logs').select('id', { count: 'exact', head: true }).eq('action', 'webhook_author_changed').eq('organization_id', SCALE_PRO.id)).count;
  let original: string | null = null;

  beforeAll(async () => {
    for (const role of ['admin', 'editor', 'viewer', 'otherAdmin'] as const) clients[role] = await signedInClient(seed.users[role].email);
    original = await authorOf();
  });
  afterAll(async () => {
    check(await db.from('webhook_integrations').update({ author_id: original }).eq('organization_id', SCALE_PRO.id), 'restore author');
  });

  it('refuses an editor, a viewer, another organization\'s admin and anon; nothing changes', async () => {
    const [author, logged] = [await authorOf(), await entries()];
    for (const client of [clients.editor, clients.viewer, clients.otherAdmin, anonClient()]) {
      const { data, error } = await client.rpc('set_webhook_author', { p_organization_id: SCALE_PRO.id, p_author_id: seed.users.editor.id });
      expect(data).toBeNull();
      expect(error?.code).toBe('42501');
    }
    expect(await authorOf()).toBe(author);
    expect(await entries()).toBe(logged);
  });

  it('refuses a viewer or someone of another organization as the author', async () => {
    for (const who of [seed.users.viewer.id, seed.users.otherAdmin.id, '20000000-0000-4000-8000-00000000ffff']) {
      const { error } = await clients.admin.rpc('set_webhook_author', { p_organization_id: SCALE_PRO.id, p_author_id: who });
      expect(error?.code).toBe('22023');
    }
  });

  it('lets the admin credit the editor, audited; the next delivery has that author, and "none" clears it', async () => {
    expect(must(await clients.admin.rpc('set_webhook_author', { p_organization_id: SCALE_PRO.id, p_author_id: seed.users.editor.id }), 'set')).toBe(seed.users.editor.id);
    expect(await authorOf()).toBe(seed.users.editor.id);
    const entry = must(
      await db.from('user_activity_logs').select('user_id, resource_id').eq('action', 'webhook_author_changed').eq('organization_id', SCALE_PRO.id).gte('created_at', since).order('created_at', { ascending: false }).limit(1).single(),
      'entry',
    );
    expect(entry).toEqual({ user_id: seed.users.admin.id, resource_id: seed.users.editor.id });
    const slug = testSlug('author');
    expect((await deliver(payload(slug))).status).toBe(201);
    expect(must(await db.from('blog_posts').select('author_id').eq('organization_id', SCALE_PRO.id).eq('slug', slug).single(), 'post').author_id).toBe(seed.users.editor.id);
    const { error } = await clients.admin.rpc('set_webhook_author', { p_organization_id: SCALE_PRO.id, p_author_id: null });
    expect(error).toBeNull();
    expect(await authorOf()).toBeNull();
  });

  it('credits the chosen author only while they are an active editor or admin: made a viewer, deactivated here or everywhere, the post has no author', async () => {
    const member = await createMember('editor');
    const membership = async (change: Record<string, unknown>) =>
      check(await db.from('organization_memberships').update(change).eq('user_id', member.id).eq('organization_id', SCALE_PRO.id), 'membership');
    const authorOfDelivery = async (name: string) => {
      const slug = testSlug(name);
      expect((await deliver(payload(slug))).status).toBe(201);
      return must(await db.from('blog_posts').select('author_id').eq('organization_id', SCALE_PRO.id).eq('slug', slug).single(), 'post').author_id;
    };
    try {
      expect(must(await clients.admin.rpc('set_webhook_author', { p_organization_id: SCALE_PRO.id, p_author_id: member.id }), 'set')).toBe(member.id);
      expect(await authorOfDelivery('author-active')).toBe(member.id);
      await membership({ role: 'viewer' });
      expect(await authorOfDelivery('author-viewer')).toBeNull();
      await membership({ role: 'editor', is_active: false });
      expect(await authorOfDelivery('author-inactive')).toBeNull();
      await membership({ is_active: true });
      check(await db.from('profiles').update({ is_active: false }).eq('id', member.id), 'account');
      expect(await authorOfDelivery('author-account-off')).toBeNull();
      // Still the one chosen: made an active editor again, they are credited again.
      check(await db.from('profiles').update({ is_active: true }).eq('id', member.id), 'account');
      expect(await authorOfDelivery('author-back')).toBe(member.id);
    } finally {
      check(await db.from('webhook_integrations').update({ author_id: original }).eq('organization_id', SCALE_PRO.id), 'restore author');
      await member.remove();
    }
  });
});
