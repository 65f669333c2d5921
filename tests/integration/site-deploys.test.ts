/**
 * Rebuilds from the database and the site status, against the real backend: every change visitors could see
 * records its rebuild request in its own transaction (and nothing else does); builds are recorded only by the
 * service role, from the local build or Netlify's signed deploy notifications (/api/deploy-events); a build
 * in progress holds the queue; site_deploy_status answers members only. Attacks go through the raw API as
 * anon, a member of the wrong role and a member of another organization, and assert nothing was written.
 */
import { createHash } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import deployEvents from '../../netlify/functions/deploy-events.mts';
import { anonClient, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';
import { setBuildHook, settleBuilds, startHookReceiver } from './support/webhook-backend.ts';

const service = serviceClient();
const run = Date.now().toString(36);
const slug = (name: string) => `deploys-${run}-${name}`;
let editor: SupabaseClient;
let admin: SupabaseClient;
let viewer: SupabaseClient;
let otherAdmin: SupabaseClient;

/** The rebuild requests of Scale Pro recorded since `from`, oldest first. */
async function requestsSince(from: string, organizationId = seed.scalePro): Promise<string[]> {
  const { data, error } = await service.from('site_rebuild_requests').select('reason').eq('organization_id', organizationId).gte('requested_at', from).order('requested_at');
  if (error) throw new Error(error.message);
  return data.map((row) => row.reason as string);
}
const mark = () => new Date().toISOString();

async function insertPost(client: SupabaseClient, name: string, status: 'draft' | 'published' = 'draft') {
  const { data, error } = await client
    .from('blog_posts')
    .insert({ organization_id: seed.scalePro, author_id: seed.users.editor.id, title: `Deploys ${name}`, slug: slug(name), content: '<p>Body.</p>', status, published_at: status === 'published' ? new Date().toISOString() : null })
    .select('id')
    .single();
  if (error) throw new Error(error.message);
  return data.id as string;
}

beforeAll(async () => {
  [editor, admin, viewer, otherAdmin] = await Promise.all([
    signedInClient(seed.users.editor.email),
    signedInClient(seed.users.admin.email),
    signedInClient(seed.users.viewer.email),
    signedInClient(seed.users.otherAdmin.email),
  ]);
});
const started = new Date().toISOString();
afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `deploys-${run}-%`);
  // Failed builds recorded here queued their automatic retries.
  await service.from('site_rebuild_requests').delete().eq('reason', 'Retry after a failed build').gte('requested_at', started);
  await service.from('site_deploys').delete().like('external_id', `${run}-%`);
  // Without them, batches sent before them would look like builds still to start: the queue would hold.
  await settleBuilds([seed.scalePro, seed.evergreen]);
});

describe('changes visitors could see record their rebuild in the same transaction', () => {
  it('records publish, edit, unpublish and delete of a post, and nothing for a draft or a view count', async () => {
    const from = mark();
    const id = await insertPost(editor, 'lifecycle');
    await editor.from('blog_posts').update({ title: 'Deploys lifecycle, still a draft' }).eq('id', id);
    expect(await requestsSince(from)).toEqual([]);

    await editor.from('blog_posts').update({ status: 'published', published_at: new Date().toISOString() }).eq('id', id);
    await editor.from('blog_posts').update({ title: 'Deploys lifecycle, edited' }).eq('id', id);
    await service.from('blog_posts').update({ view_count: 7 }).eq('id', id);
    await editor.from('blog_posts').update({ status: 'draft', published_at: null }).eq('id', id);
    await editor.from('blog_posts').update({ status: 'published', published_at: new Date().toISOString() }).eq('id', id);
    await admin.from('blog_posts').delete().eq('id', id);
    const name = slug('lifecycle');
    expect(await requestsSince(from)).toEqual([`Post published: ${name}`, `Post updated: ${name}`, `Post unpublished: ${name}`, `Post published: ${name}`, `Post deleted: ${name}`]);
  });

  it('records one request for a statement that changes many posts', async () => {
    const ids = [await insertPost(service, 'bulk-1', 'published'), await insertPost(service, 'bulk-2', 'published'), await insertPost(service, 'bulk-3', 'published')];
    const from = mark();
    const { error } = await editor.from('blog_posts').update({ excerpt: 'One statement.' }).in('id', ids);
    expect(error).toBeNull();
    const requests = await requestsSince(from);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatch(/^3 changes: Post updated: deploys-/);
  });

  it('records nothing when the change is refused (the request is part of the rolled-back transaction)', async () => {
    const id = await insertPost(service, 'refused', 'published');
    const from = mark();
    const { error } = await editor.from('blog_posts').update({ title: '   ' }).eq('id', id);
    expect(error).not.toBeNull();
    // A viewer's edit touches no row (RLS): nothing changed, nothing requested.
    await viewer.from('blog_posts').update({ title: 'Viewer edit' }).eq('id', id);
    expect(await requestsSince(from)).toEqual([]);
  });

  it('records a category rename only when the category has published posts', async () => {
    const { data: category } = await service.from('blog_categories').insert({ organization_id: seed.scalePro, name: `Deploys ${run}`, slug: slug('category') }).select('id').single();
    const from = mark();
    await admin.from('blog_categories').update({ description: 'No posts yet.' }).eq('id', category!.id);
    expect(await requestsSince(from)).toEqual([]);
    const id = await insertPost(service, 'in-category', 'published');
    await service.from('blog_posts').update({ category_id: category!.id }).eq('id', id);
    const renamed = mark();
    await admin.from('blog_categories').update({ name: `Deploys renamed ${run}` }).eq('id', category!.id);
    expect(await requestsSince(renamed)).toEqual([`Category changed: Deploys renamed ${run}`]);
    await service.from('blog_posts').delete().eq('id', id);
    await service.from('blog_categories').delete().eq('id', category!.id);
  });

  it('records the settings the site shows, not the webhook publish mode', async () => {
    const { data: before } = await service.from('organizations').select('settings').eq('id', seed.scalePro).single();
    const from = mark();
    try {
      expect((await admin.rpc('set_webhook_publish_mode', { p_organization_id: seed.scalePro, p_mode: 'draft' })).error).toBeNull();
      expect(await requestsSince(from)).toEqual([]);
      expect((await admin.from('organizations').update({ settings: { ...before!.settings, contact_phone: '(404) 555-0177' } }).eq('id', seed.scalePro)).error).toBeNull();
      expect(await requestsSince(from)).toEqual(['Site settings saved']);
    } finally {
      await service.from('organizations').update({ settings: before!.settings }).eq('id', seed.scalePro);
      await service.from('user_activity_logs').delete().eq('organization_id', seed.scalePro).eq('action', 'webhook_publish_mode_changed').gte('created_at', from);
    }
  });
});

describe('only the service role records requests and builds', () => {
  it.each<[string, () => SupabaseClient]>([
    ['anon', () => anonClient()],
    ['an editor', () => editor],
    ['an admin', () => admin],
  ])('refuses %s writing requests, deploys or calling the service functions', async (_who, client) => {
    const from = mark();
    const c = client();
    expect((await c.from('site_rebuild_requests').insert({ organization_id: seed.scalePro, reason: 'forged' })).error).not.toBeNull();
    expect((await c.from('site_deploys').insert({ organization_id: seed.scalePro, source: 'netlify', external_id: `${run}-forged`, state: 'succeeded' })).error).not.toBeNull();
    expect((await c.rpc('record_site_deploy', { p_organization_id: seed.scalePro, p_source: 'netlify', p_external_id: `${run}-forged`, p_state: 'succeeded' })).error).not.toBeNull();
    expect((await c.rpc('claim_due_site_rebuilds', { p_quiet_window_ms: 0 })).error).not.toBeNull();
    expect((await c.rpc('request_site_rebuild', { p_organization_id: seed.scalePro, p_reason: 'forged', p_quiet_window_ms: 0 })).error).not.toBeNull();
    expect(await requestsSince(from)).toEqual([]);
    const { count } = await service.from('site_deploys').select('id', { count: 'exact', head: true }).eq('external_id', `${run}-forged`);
    expect(count).toBe(0);
  });

  it('answers the status to members only', async () => {
    expect((await editor.rpc('site_deploy_status', { p_organization_id: seed.scalePro })).data).toMatchObject({ pending_count: expect.any(Number) });
    expect((await viewer.rpc('site_deploy_status', { p_organization_id: seed.scalePro })).data).toMatchObject({ pending_count: expect.any(Number) });
    expect((await otherAdmin.rpc('site_deploy_status', { p_organization_id: seed.scalePro })).data).toBeNull();
    expect((await anonClient().rpc('site_deploy_status', { p_organization_id: seed.scalePro })).error).not.toBeNull();
    // Another organization's deploys are not readable either.
    const { data } = await otherAdmin.from('site_deploys').select('id').eq('organization_id', seed.scalePro);
    expect(data).toEqual([]);
  });
});

describe('a build in progress holds the queue', () => {
  afterEach(async () => {
    await service.from('site_rebuild_requests').delete().eq('organization_id', seed.evergreen).eq('reason', `held ${run}`);
  });

  it('leaves the requests pending while a build runs, and claims them once it finished; a finished build is never reopened', async () => {
    const build = `${run}-held`;
    await service.rpc('record_site_deploy', { p_organization_id: seed.evergreen, p_source: 'local', p_external_id: build, p_state: 'building' });
    await service.from('site_rebuild_requests').insert({ organization_id: seed.evergreen, reason: `held ${run}` });
    const held = await service.rpc('claim_due_site_rebuilds', { p_quiet_window_ms: 0, p_organization_id: seed.evergreen });
    expect(held.data).toEqual([]);

    await service.rpc('record_site_deploy', { p_organization_id: seed.evergreen, p_source: 'local', p_external_id: build, p_state: 'succeeded' });
    // A late, replayed start changes nothing.
    await service.rpc('record_site_deploy', { p_organization_id: seed.evergreen, p_source: 'local', p_external_id: build, p_state: 'building' });
    const { data: row } = await service.from('site_deploys').select('state, finished_at').eq('external_id', build).single();
    expect(row).toMatchObject({ state: 'succeeded', finished_at: expect.any(String) });

    const claimed = await service.rpc('claim_due_site_rebuilds', { p_quiet_window_ms: 0, p_organization_id: seed.evergreen });
    expect(claimed.data).toHaveLength(1);
    expect(claimed.data[0].reasons).toContain(`held ${run}`);
  });
});

describe('POST /api/deploy-events (Netlify deploy notifications)', () => {
  const SECRET = `deploy-secret-${run}`;
  const saved = process.env.DEPLOY_NOTIFICATION_SECRET;
  beforeAll(() => {
    process.env.DEPLOY_NOTIFICATION_SECRET = SECRET;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.DEPLOY_NOTIFICATION_SECRET;
    else process.env.DEPLOY_NOTIFICATION_SECRET = saved;
  });

  const notification = (id: string, state: string, over: Record<string, unknown> = {}) =>
    JSON.stringify({ id: `${run}-${id}`, state, context: 'production', created_at: new Date().toISOString(), ssl_url: 'https://scalepromarketing.com', error_message: null, ...over });
  const sign = (body: string, secret = SECRET) =>
    new SignJWT({ sha256: createHash('sha256').update(body).digest('hex') }).setProtectedHeader({ alg: 'HS256' }).setIssuer('netlify').sign(new TextEncoder().encode(secret));
  const post = (body: string, signature?: string) =>
    deployEvents(new Request('http://localhost/api/deploy-events', { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-webhook-signature': signature } : {}) }, body }));
  const deployRow = async (id: string) => (await service.from('site_deploys').select('organization_id, source, state, error, url').eq('external_id', `${run}-${id}`).maybeSingle()).data;

  it('records a signed production deploy as it starts and ends, for the site\'s own organization', async () => {
    const started = notification('ok', 'building');
    expect((await post(started, await sign(started))).status).toBe(202);
    expect(await deployRow('ok')).toEqual({ organization_id: seed.scalePro, source: 'netlify', state: 'building', error: null, url: 'https://scalepromarketing.com' });
    const failed = notification('ok', 'error', { error_message: 'Build script returned non-zero exit code: 2' });
    expect((await post(failed, await sign(failed))).status).toBe(202);
    expect(await deployRow('ok')).toMatchObject({ state: 'failed', error: 'Build script returned non-zero exit code: 2' });
  });

  it('sends what waited during a build as soon as the build reports its end, and queues a retry after a failed build', async () => {
    const receiver = await startHookReceiver();
    const previousHook = (await service.from('site_rebuild_settings').select('build_hook_url').eq('organization_id', seed.scalePro).maybeSingle()).data?.build_hook_url ?? null;
    const atOnce = process.env.REBUILD_AT_ONCE;
    process.env.REBUILD_AT_ONCE = 'on'; // production's queue (the suite holds builds by default)
    const from = mark();
    try {
      // Earlier tests' failed builds queued retries: this test's change is the only one waiting.
      await service.from('site_rebuild_requests').delete().eq('organization_id', seed.scalePro).is('batch_id', null);
      await setBuildHook(seed.scalePro, receiver.url);
      const building = notification('queue', 'building');
      expect((await post(building, await sign(building))).status).toBe(202);
      await service.from('site_rebuild_requests').insert({ organization_id: seed.scalePro, reason: `waited ${run}` });
      // Its start changes nothing: the change waits for the running build.
      expect((await post(building, await sign(building))).status).toBe(202);
      expect(receiver.calls).toHaveLength(0);

      const ready = notification('queue', 'ready');
      expect((await post(ready, await sign(ready))).status).toBe(202);
      expect(receiver.calls).toHaveLength(1);
      expect(new URL(receiver.calls[0]!.url, 'http://x').searchParams.get('trigger_title')).toBe(`1 change(s): waited ${run}`);
      const { data: waited } = await service.from('site_rebuild_requests').select('batch_id').eq('reason', `waited ${run}`).single();
      const sendState = async () => (await service.from('site_rebuild_sends').select('state, error').eq('id', waited!.batch_id).single()).data;
      expect(await sendState()).toEqual({ state: 'hook_called', error: null });

      // That build fails: its retry is queued a minute ahead, so nothing is sent now.
      const next = notification('queue-next', 'building');
      expect((await post(next, await sign(next))).status).toBe(202);
      const failed = notification('queue-next', 'error', { error_message: 'Build script returned non-zero exit code: 2' });
      expect((await post(failed, await sign(failed))).status).toBe(202);
      expect(receiver.calls).toHaveLength(1);
      // The send follows the build its hook call started: it started, then failed with the build's reason.
      expect(await sendState()).toEqual({ state: 'failed', error: 'Build script returned non-zero exit code: 2' });
      const { data: retry } = await service.from('site_rebuild_requests').select('batch_id, not_before, requested_at').eq('organization_id', seed.scalePro).eq('reason', 'Retry after a failed build').gte('requested_at', from).single();
      expect(retry?.batch_id).toBeNull();
      expect(Date.parse(retry!.not_before) - Date.parse(retry!.requested_at)).toBe(60_000);
    } finally {
      if (atOnce === undefined) delete process.env.REBUILD_AT_ONCE;
      else process.env.REBUILD_AT_ONCE = atOnce;
      await setBuildHook(seed.scalePro, previousHook);
      await receiver.close();
      await service.from('site_rebuild_requests').delete().eq('organization_id', seed.scalePro).gte('requested_at', from);
    }
  });

  it('refuses unsigned, forged and replayed-with-another-body notifications, and writes nothing', async () => {
    const body = notification('forged', 'ready');
    expect((await post(body)).status).toBe(401);
    expect((await post(body, await sign(body, 'guessed-secret'))).status).toBe(401);
    expect((await post(body, await sign(notification('other', 'ready')))).status).toBe(401);
    expect(await deployRow('forged')).toBeNull();
  });

  it('refuses a captured notification sent again after the hour, and one with no time; writes nothing', async () => {
    const old = new Date(Date.now() - 2 * 3600_000).toISOString();
    const replayed = notification('replayed', 'error', { created_at: old, updated_at: old, error_message: 'Replayed failure' });
    const answer = await post(replayed, await sign(replayed));
    expect(answer.status).toBe(401);
    expect((await answer.json()).message).toMatch(/too old/);
    const timeless = notification('timeless', 'ready', { created_at: null });
    expect((await post(timeless, await sign(timeless))).status).toBe(401);
    expect(await deployRow('replayed')).toBeNull();
    expect(await deployRow('timeless')).toBeNull();
    // Control: the same deploy's notification, fresh, is recorded.
    const fresh = notification('replayed', 'error', { error_message: 'A real failure' });
    expect((await post(fresh, await sign(fresh))).status).toBe(202);
    expect(await deployRow('replayed')).toMatchObject({ state: 'failed' });
  });

  it('ignores deploy previews and answers 400 to a body that is no deploy', async () => {
    const preview = notification('preview', 'ready', { context: 'deploy-preview' });
    expect((await post(preview, await sign(preview))).status).toBe(202);
    expect(await deployRow('preview')).toBeNull();
    const junk = JSON.stringify({ hello: 'world' });
    expect((await post(junk, await sign(junk))).status).toBe(400);
  });

  it('refuses everything while no secret is configured', async () => {
    delete process.env.DEPLOY_NOTIFICATION_SECRET;
    try {
      const body = notification('unconfigured', 'ready');
      const response = await post(body, await sign(body));
      expect(response.status).toBe(503);
      expect(await deployRow('unconfigured')).toBeNull();
    } finally {
      process.env.DEPLOY_NOTIFICATION_SECRET = SECRET;
    }
  });
});
