/**
 * The ZimmWriter and Settings tabs' functions, called as Netlify calls them: only an active admin of the
 * organization the body names may act (401 without a token, 403 otherwise), bodies are validated (400), and
 * the webhook test stores a post through the webhook's own delivery path.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, EVERGREEN, must, removeTestRows, SCALE_PRO } from './support/webhook-backend.ts';
import { seed, signedInClient } from './support/db-fixtures.ts';
import webhookTest from '../../netlify/functions/admin-webhook-test.mts';
import rebuild from '../../netlify/functions/admin-rebuild.mts';

const since = new Date().toISOString();
const slug = `admin-webhook-test-${Date.now().toString(36)}`;
const tokens: Record<'admin' | 'editor' | 'otherAdmin', string> = { admin: '', editor: '', otherAdmin: '' };

async function tokenOf(email: string): Promise<string> {
  const client = await signedInClient(email);
  const { data } = await client.auth.getSession();
  return data.session?.access_token ?? '';
}

function post(path: string, body: unknown, token?: string): Request {
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const testBody = (organizationId: string) => ({ organization_id: organizationId, payload: { webhook_name: 'blog_post_created', title: 'Admin test post', html: '<p>Hello <script>alert(1)</script>world</p>', slug, tags: ['test', 'webhook'] } });

beforeAll(async () => {
  tokens.admin = await tokenOf(seed.users.admin.email);
  tokens.editor = await tokenOf(seed.users.editor.email);
  tokens.otherAdmin = await tokenOf(seed.users.otherAdmin.email);
});
afterAll(async () => {
  await removeTestRows({ postSlugs: [slug], organizationIds: [SCALE_PRO.id, EVERGREEN.id], since });
});

describe('POST /api/admin/webhook-test', () => {
  it('refuses a request without a token (401)', async () => {
    const res = await webhookTest(post('/api/admin/webhook-test', testBody(SCALE_PRO.id)));
    expect(res.status).toBe(401);
  });

  it('refuses an editor (403) and an admin of another organization (403)', async () => {
    expect((await webhookTest(post('/api/admin/webhook-test', testBody(SCALE_PRO.id), tokens.editor))).status).toBe(403);
    const res = await webhookTest(post('/api/admin/webhook-test', testBody(SCALE_PRO.id), tokens.otherAdmin));
    expect(res.status).toBe(403);
    expect((await res.json()).message).toBe('Admin privileges required for this organization.');
  });

  it('refuses an invalid body (400)', async () => {
    const noTitle = await webhookTest(post('/api/admin/webhook-test', { organization_id: SCALE_PRO.id, payload: { html: '<p>x</p>' } }, tokens.admin));
    expect(noTitle.status).toBe(400);
    expect((await noTitle.json()).message).toMatch(/title/i);
    expect((await webhookTest(post('/api/admin/webhook-test', 'not json', tokens.admin))).status).toBe(400);
    expect((await webhookTest(post('/api/admin/webhook-test', { organization_id: 'nope', payload: {} }, tokens.admin))).status).toBe(400);
  });

  it('stores the post through the webhook path for an admin (201 with post_id), sanitized and logged', async () => {
    const res = await webhookTest(post('/api/admin/webhook-test', testBody(SCALE_PRO.id), tokens.admin));
    expect(res.status).toBe(201);
    const { post_id } = (await res.json()) as { post_id: string };
    const stored = must(await db.from('blog_posts').select('organization_id, title, content, tags').eq('id', post_id).single(), 'post');
    expect(stored).toMatchObject({ organization_id: SCALE_PRO.id, title: 'Admin test post', tags: ['test', 'webhook'] });
    expect(stored.content).not.toContain('<script');
    const delivery = must(await db.from('webhook_deliveries').select('status_code').eq('post_id', post_id).single(), 'delivery');
    expect(delivery.status_code).toBe(201);
  });
});

describe('POST /api/admin/rebuild', () => {
  it('records a rebuild request for an admin (202) and refuses others', async () => {
    expect((await rebuild(post('/api/admin/rebuild', { organization_id: SCALE_PRO.id }))).status).toBe(401);
    expect((await rebuild(post('/api/admin/rebuild', { organization_id: SCALE_PRO.id }, tokens.editor))).status).toBe(403);
    expect((await rebuild(post('/api/admin/rebuild', { organization_id: 'x' }, tokens.admin))).status).toBe(400);
    const res = await rebuild(post('/api/admin/rebuild', { organization_id: SCALE_PRO.id, reason: 'settings saved' }, tokens.admin));
    expect(res.status).toBe(202);
    const { request_id } = (await res.json()) as { request_id: string };
    const row = must(await db.from('site_rebuild_requests').select('organization_id, reason').eq('id', request_id).single(), 'request');
    expect(row).toEqual({ organization_id: SCALE_PRO.id, reason: 'settings saved' });
    check(await db.from('site_rebuild_requests').delete().eq('id', request_id), 'remove request');
  });
});
