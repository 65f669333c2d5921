/**
 * The ZimmWriter and Settings tabs' functions, called as Netlify calls them: only an active admin of the
 * organization the body names may act (401 without a token, 403 otherwise), bodies are validated (400), and
 * the webhook test runs the webhook's own validation and answers what a delivery would do (a dry run;
 * webhook-dry-run.test.ts holds it in full).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, EVERGREEN, removeTestRows, SCALE_PRO } from './support/webhook-backend.ts';
import { seed, signedInClient } from './support/db-fixtures.ts';
import webhookTest from '../../netlify/functions/admin-webhook-test.mts';

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

  it('refuses an invalid body (400) and a payload a delivery would refuse (422, naming the field)', async () => {
    const noTitle = await webhookTest(post('/api/admin/webhook-test', { organization_id: SCALE_PRO.id, payload: { html: '<p>x</p>' } }, tokens.admin));
    expect(noTitle.status).toBe(422);
    expect((await noTitle.json()).message).toMatch(/^Invalid payload: title: /);
    expect((await webhookTest(post('/api/admin/webhook-test', 'not json', tokens.admin))).status).toBe(400);
    expect((await webhookTest(post('/api/admin/webhook-test', { organization_id: 'nope', payload: {} }, tokens.admin))).status).toBe(400);
  });

  it('answers an admin with what a delivery would do (a dry run: no post, no delivery record)', async () => {
    const res = await webhookTest(post('/api/admin/webhook-test', testBody(SCALE_PRO.id), tokens.admin));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ dry_run: true, action: 'create', title: 'Admin test post', slug, status: 'published' });
    expect(await db.from('blog_posts').select('id').eq('slug', slug)).toMatchObject({ data: [] });
    expect(await db.from('webhook_deliveries').select('id').eq('slug', slug)).toMatchObject({ data: [] });
  });
});
