/**
 * The ZimmWriter tab's test delivery is a dry run, and its publish mode is the admin's choice.
 * - POST /api/admin/webhook-test (the function, called as Netlify calls it) validates and sanitizes the payload
 *   like a real delivery and answers whether a delivery like it would create or update which post, with which
 *   status: the public post count, blog_posts, revisions, the delivery log, rebuild requests and the audit
 *   log are unchanged; a payload a delivery would refuse keeps its error.
 * - set_webhook_publish_mode: the organization's admin sets it (audited in the same transaction); an editor,
 *   a viewer, another organization's admin and anon are refused through /rest/v1/rpc and nothing changes;
 *   a direct REST update of organizations keeps the stored mode. Only the service role may ask
 *   preview_webhook_delivery.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, countRows, db, EVERGREEN, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import { anonClient, seed, signedInClient } from './support/db-fixtures.ts';
import webhookTest from '../../netlify/functions/admin-webhook-test.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const realSlug = `dry-run-real-${run}`;
const anon = anonClient();
const clients = {} as Record<'admin' | 'editor' | 'viewer' | 'otherAdmin', SupabaseClient>;
const tokens = {} as Record<'admin' | 'otherAdmin', string>;

async function accessToken(client: SupabaseClient): Promise<string> {
  const { data } = await client.auth.getSession();
  return data.session?.access_token ?? '';
}

/** A test delivery through the function, as the ZimmWriter tab sends it. */
async function sendTest(organizationId: string, payload: Record<string, unknown>, token = tokens.admin) {
  const response = await webhookTest(
    new Request('http://localhost/api/admin/webhook-test', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ organization_id: organizationId, payload }),
    }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const payload = (extra: Record<string, unknown> = {}) => ({
  webhook_name: 'blog_post_created',
  title: `Dry run ${run}`,
  html: '<h2>Test</h2><p>Hello <script>alert(1)</script>world</p>',
  markdown: false,
  category: 'SEO Strategies',
  tags: ['test', 'webhook'],
  slug: false,
  image_url: false,
  image_base64: false,
  ...extra,
});

/** Everything a delivery could write, and what visitors see. */
async function footprint(organizationId: string) {
  const published = await anon.from('blog_posts').select('id', { count: 'exact', head: true }).eq('organization_id', organizationId);
  check(published, 'anon published count');
  return {
    publicPosts: published.count,
    posts: await countRows('blog_posts', { organization_id: organizationId }),
    revisions: await countRows('blog_post_revisions', { organization_id: organizationId }),
    deliveries: await countRows('webhook_deliveries', { organization_id: organizationId }),
    rebuilds: await countRows('site_rebuild_requests', { organization_id: organizationId }),
    audit: await countRows('user_activity_logs', { organization_id: organizationId }),
    categories: await countRows('blog_categories', { organization_id: organizationId }),
  };
}

async function publishMode(organizationId: string): Promise<unknown> {
  const org = must(await db.from('organizations').select('settings').eq('id', organizationId).single(), 'organization');
  return (org.settings as { webhook?: { publish_mode?: string } }).webhook?.publish_mode;
}

const modeEntries = (organizationId: string) => countRows('user_activity_logs', { organization_id: organizationId, action: 'webhook_publish_mode_changed' });

beforeAll(async () => {
  [clients.admin, clients.editor, clients.viewer, clients.otherAdmin] = await Promise.all([
    signedInClient(seed.users.admin.email),
    signedInClient(seed.users.editor.email),
    signedInClient(seed.users.viewer.email),
    signedInClient(seed.users.otherAdmin.email),
  ]);
  tokens.admin = await accessToken(clients.admin);
  tokens.otherAdmin = await accessToken(clients.otherAdmin);
});

afterAll(async () => {
  // The seed's modes: scale-pro publishes, evergreen drafts (the service role may write settings.webhook).
  const settings = must(await db.from('organizations').select('settings').eq('id', SCALE_PRO.id).single(), 'organization').settings as Record<string, unknown>;
  check(await db.from('organizations').update({ settings: { ...settings, webhook: { publish_mode: 'publish' } } }).eq('id', SCALE_PRO.id), 'restore mode');
  check(await db.from('user_activity_logs').delete().eq('action', 'webhook_publish_mode_changed').gte('created_at', since), 'remove mode entries');
  await removeTestRows({ postSlugs: [realSlug], organizationIds: [SCALE_PRO.id, EVERGREEN.id], since });
});

describe('POST /api/admin/webhook-test is a dry run', () => {
  it('answers would-create for a new title with the publish mode status and writes nothing', async () => {
    const before = await footprint(SCALE_PRO.id);
    const { status, json } = await sendTest(SCALE_PRO.id, payload());
    expect(status).toBe(200);
    expect(json).toMatchObject({
      dry_run: true,
      action: 'create',
      title: `Dry run ${run}`,
      slug: `dry-run-${run}`,
      status: 'published',
      path: `/blog/dry-run-${run}`,
      category: { name: 'SEO Strategies', created: false },
    });
    expect(json.post_id).toBeUndefined();
    expect(await footprint(SCALE_PRO.id)).toEqual(before);
  });

  it('answers would-update for an existing post (the same slug), keeping its status, and leaves the post as it was', async () => {
    const existing = must(await db.from('blog_posts').select('id, title, slug, status, updated_at').eq('id', seed.publishedPost).single(), 'seeded post');
    const before = await footprint(SCALE_PRO.id);
    const { status, json } = await sendTest(SCALE_PRO.id, payload({ title: 'A new title for it', slug: existing.slug, category: false }));
    expect(status).toBe(200);
    expect(json).toMatchObject({ action: 'update', title: existing.title, path: `/blog/${existing.slug}`, status: existing.status, post_id: existing.id });
    expect(await footprint(SCALE_PRO.id)).toEqual(before);
    expect(must(await db.from('blog_posts').select('id, title, slug, status, updated_at').eq('id', existing.id).single(), 'post')).toEqual(existing);
  });

  it('says a draft for an organization that saves deliveries as drafts, and a category it would create', async () => {
    const before = await footprint(EVERGREEN.id);
    const { status, json } = await sendTest(EVERGREEN.id, payload({ category: `Brand new ${run}` }), tokens.otherAdmin);
    expect(status).toBe(200);
    expect(json).toMatchObject({ action: 'create', status: 'draft', category: { name: `Brand new ${run}`, created: true } });
    expect(await footprint(EVERGREEN.id)).toEqual(before);
  });

  it('keeps the errors of a refused payload, writing nothing', async () => {
    const before = await footprint(SCALE_PRO.id);
    const unsafe = await sendTest(SCALE_PRO.id, payload({ html: '<script>alert(1)</script>' }));
    expect(unsafe.status).toBe(422);
    expect(unsafe.json).toEqual({
      message: 'Invalid payload: html: No content is left after removing unsafe markup',
      details: [{ path: 'html', message: 'No content is left after removing unsafe markup' }],
    });
    // Every refused field is named, as the webhook names them (the test validates the payload as a delivery would).
    const untitled = await sendTest(SCALE_PRO.id, payload({ title: '', html: false, markdown: false }));
    expect(untitled.status).toBe(422);
    expect(untitled.json).toEqual({
      message: 'Invalid payload: title: Title is required; html: Either html or markdown is required',
      details: [{ path: 'title', message: 'Title is required' }, { path: 'html', message: 'Either html or markdown is required' }],
    });
    expect(await footprint(SCALE_PRO.id)).toEqual(before);
  });

  it('only the service role may ask preview_webhook_delivery', async () => {
    const args = { p_organization_id: SCALE_PRO.id, p_slug: 'anything', p_title: 'Anything', p_content: '<p>Anything</p>' };
    for (const client of [anon, clients.admin]) {
      const { data, error } = await client.rpc('preview_webhook_delivery', args);
      expect(data).toBeNull();
      expect(error?.code).toBe('42501');
    }
    expect(must(await db.rpc('preview_webhook_delivery', args), 'service preview')).toMatchObject({ found: true, action: 'create' });
  });
});

describe('POST /api/webhooks/zimmwriter/{token}?dry_run=1 (npm run site:check)', () => {
  const dryRun = (token: string, body: unknown) =>
    webhook(new Request(`http://localhost/api/webhooks/zimmwriter/${token}?dry_run=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }));

  it('answers what the delivery would do for the token\'s organization and writes nothing, not even a delivery record', async () => {
    const before = await footprint(SCALE_PRO.id);
    const response = await dryRun(SCALE_PRO.token, payload());
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ dry_run: true, action: 'create', slug: `dry-run-${run}`, status: 'published' });
    expect(await footprint(SCALE_PRO.id)).toEqual(before);
  });

  it('refuses an invalid payload with the delivery\'s 422 and an unknown token with 404, recording nothing', async () => {
    const before = await footprint(SCALE_PRO.id);
    const refused = await dryRun(SCALE_PRO.token, payload({ title: '' }));
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ message: 'Invalid payload: title: Title is required' });
    expect((await dryRun(`unknown-token-${run}-0123456789`, payload())).status).toBe(404);
    expect(await footprint(SCALE_PRO.id)).toEqual(before);
  });
});

describe('set_webhook_publish_mode', () => {
  it('refuses an editor, a viewer, another organization\'s admin and anon through /rest/v1/rpc; nothing changes', async () => {
    const mode = await publishMode(SCALE_PRO.id);
    const entries = await modeEntries(SCALE_PRO.id);
    for (const client of [clients.editor, clients.viewer, clients.otherAdmin, anon]) {
      const { data, error } = await client.rpc('set_webhook_publish_mode', { p_organization_id: SCALE_PRO.id, p_mode: mode === 'draft' ? 'publish' : 'draft' });
      expect(data).toBeNull();
      expect(error?.code).toBe('42501');
    }
    expect(await publishMode(SCALE_PRO.id)).toBe(mode);
    expect(await modeEntries(SCALE_PRO.id)).toBe(entries);
  });

  it('refuses a mode it does not know', async () => {
    const { error } = await clients.admin.rpc('set_webhook_publish_mode', { p_organization_id: SCALE_PRO.id, p_mode: 'later' });
    expect(error?.code).toBe('22023');
    expect(await publishMode(SCALE_PRO.id)).toBe('publish');
  });

  it('lets the admin choose drafts, audited with from and to; then a real delivery is a draft and the test says so', async () => {
    expect(must(await clients.admin.rpc('set_webhook_publish_mode', { p_organization_id: SCALE_PRO.id, p_mode: 'draft' }), 'set mode')).toBe('draft');
    expect(await publishMode(SCALE_PRO.id)).toBe('draft');
    const entry = must(
      await db.from('user_activity_logs').select('user_id, details, resource_type').eq('action', 'webhook_publish_mode_changed').eq('organization_id', SCALE_PRO.id).gte('created_at', since).single(),
      'audit entry',
    );
    expect(entry).toEqual({ user_id: seed.users.admin.id, resource_type: 'organization', details: { from: 'publish', to: 'draft' } });
    // Choosing the mode in force changes and logs nothing.
    expect(must(await clients.admin.rpc('set_webhook_publish_mode', { p_organization_id: SCALE_PRO.id, p_mode: 'draft' }), 'same mode')).toBe('draft');
    const { count } = await db.from('user_activity_logs').select('id', { count: 'exact', head: true }).eq('action', 'webhook_publish_mode_changed').eq('organization_id', SCALE_PRO.id).gte('created_at', since);
    expect(count).toBe(1);

    const test = await sendTest(SCALE_PRO.id, payload({ slug: realSlug }));
    expect(test.json).toMatchObject({ action: 'create', status: 'draft' });
    const delivered = await webhook(webhookRequest(SCALE_PRO.token, payload({ slug: realSlug })));
    expect(delivered.status).toBe(201);
    expect(await delivered.json()).toMatchObject({ status: 'draft' });
    // The post exists now: the same test would update it.
    expect((await sendTest(SCALE_PRO.id, payload({ slug: realSlug }))).json).toMatchObject({ action: 'update', status: 'draft', path: `/blog/${realSlug}` });
  });

  it('is the only way the API changes settings.webhook: an admin\'s direct REST update keeps the stored mode', async () => {
    const org = must(await clients.admin.from('organizations').select('settings').eq('id', SCALE_PRO.id).single(), 'organization');
    const settings = org.settings as Record<string, unknown>;
    const mode = await publishMode(SCALE_PRO.id);
    const flipped = mode === 'draft' ? 'publish' : 'draft';
    const updated = await clients.admin
      .from('organizations')
      .update({ settings: { ...settings, blog_title: `Blog ${run}`, webhook: { publish_mode: flipped } } })
      .eq('id', SCALE_PRO.id)
      .select('settings')
      .single();
    check(updated, 'direct update');
    expect(await publishMode(SCALE_PRO.id)).toBe(mode);
    // The rest of the form is saved as before.
    expect((updated.data?.settings as Record<string, unknown>).blog_title).toBe(`Blog ${run}`);
    check(await db.from('organizations').update({ settings }).eq('id', SCALE_PRO.id), 'restore settings');
  });
});
