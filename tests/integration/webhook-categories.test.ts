/**
 * The category a delivery names, through the webhook function and the real database:
 * - a name that means an existing category (another case, spacing, punctuation, a small typo) lands in it, and
 *   the answer says it was mapped; no category is created;
 * - a name that means none is created flagged for review (needs_review), the answer says so, and the site's
 *   build (the anon read) does not offer it; a later delivery of a near spelling lands in that same category;
 * - the dry run (POST /api/admin/webhook-test) says the same, writing nothing;
 * - the delivery log records the image outcome ('none' for a delivery without an image);
 * - approving (needs_review true → false) is for the organization's editors and admins: an editor approves
 *   (one audit entry), while anon, a viewer and another organization's admin are refused through /rest/v1 and
 *   nothing changes; nobody but the database flags a category.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import { anonClient, seed, signedInClient } from './support/db-fixtures.ts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import webhookTest from '../../netlify/functions/admin-webhook-test.mts';
import { readBlogRows } from '../../src/lib/site/posts.ts';
import { toBlog } from '../../src/lib/site/blog-model.ts';
import type { Organization } from '../../src/lib/host-match.ts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs: string[] = [];
const LOCAL_SEO = '30000000-0000-4000-8000-100000000001';
/** A name no seeded category resembles, unique to this run. */
const NEW_NAME = `Drone Photography ${run}`;
const clients = {} as Record<'editor' | 'viewer' | 'otherAdmin', SupabaseClient>;
let adminToken = '';

function deliveryPayload(name: string, category: unknown) {
  const slug = `category-map-${name}-${run}`;
  slugs.push(slug);
  return {
    slug,
    title: `Category mapping ${name} ${run}`,
    // Unique text: the duplicate gate sees a new article.
    html: `<p>${Array.from({ length: 20 }, () => crypto.randomUUID()).join(' ')}</p>`,
    category,
    image_url: false,
    image_base64: false,
  };
}

async function deliver(body: ReturnType<typeof deliveryPayload>) {
  const response = await webhook(webhookRequest(SCALE_PRO.token, body));
  return { status: response.status, json: (await response.json()) as { post_id: string; category: Record<string, unknown> } };
}

const categoryOf = async (postId: string) => must(await db.from('blog_posts').select('category_id').eq('id', postId).single(), 'post').category_id as string;
const categoryCount = async () => (await db.from('blog_categories').select('id', { count: 'exact', head: true }).eq('organization_id', SCALE_PRO.id)).count;
const flagged = async (id: string) => must(await db.from('blog_categories').select('needs_review').eq('id', id).single(), 'category').needs_review as boolean;
const approvals = async (id: string) =>
  (await db.from('user_activity_logs').select('id', { count: 'exact', head: true }).eq('action', 'category_approved').eq('resource_id', id)).count;

beforeAll(async () => {
  [clients.editor, clients.viewer, clients.otherAdmin] = await Promise.all([
    signedInClient(seed.users.editor.email),
    signedInClient(seed.users.viewer.email),
    signedInClient(seed.users.otherAdmin.email),
  ]);
  const admin = await signedInClient(seed.users.admin.email);
  adminToken = (await admin.auth.getSession()).data.session?.access_token ?? '';
});

afterAll(async () => {
  await removeTestRows({ postSlugs: slugs, organizationIds: [SCALE_PRO.id], since });
  check(await db.from('blog_categories').delete().eq('organization_id', SCALE_PRO.id).like('name', `%${run}%`), 'remove categories');
  check(await db.from('user_activity_logs').delete().eq('resource_type', 'blog_category').gte('created_at', since), 'remove audit entries');
});

describe('a delivered category name that means an existing category', () => {
  it.each([
    ['another case', 'case', 'LOCAL SEO'],
    ['spacing and punctuation', 'spacing', ' local-seo! '],
    ['a small typo', 'typo', 'Lcoal SEO'],
  ])('%s (%j) lands in "Local SEO", mapped, creating nothing', async (_case, name, sent) => {
    const before = await categoryCount();
    const { status, json } = await deliver(deliveryPayload(name, sent));
    expect(status).toBe(201);
    expect(json.category).toEqual({ name: 'Local SEO', sent: sent.trim(), mapped: true, created: false, needs_review: false });
    expect(await categoryOf(json.post_id)).toBe(LOCAL_SEO);
    expect(await categoryCount()).toBe(before);
  });

  it('the exact name is not "mapped"', async () => {
    const { json } = await deliver(deliveryPayload('exact', 'Local SEO'));
    expect(json.category).toEqual({ name: 'Local SEO', sent: 'Local SEO', mapped: false, created: false, needs_review: false });
  });
});

describe('a delivered category name that means none', () => {
  let categoryId = '';

  it('is created flagged for review, says so, and records the image outcome', async () => {
    const body = deliveryPayload('new', NEW_NAME);
    const { status, json } = await deliver(body);
    expect(status).toBe(201);
    expect(json.category).toEqual({ name: NEW_NAME, sent: NEW_NAME, mapped: false, created: true, needs_review: true });
    categoryId = await categoryOf(json.post_id);
    expect(must(await db.from('blog_categories').select('name, needs_review').eq('id', categoryId).single(), 'category')).toEqual({ name: NEW_NAME, needs_review: true });
    expect(must(await db.from('webhook_deliveries').select('image').eq('post_id', json.post_id).single(), 'delivery').image).toBe('none');
  });

  it('a near spelling of it later lands in that same category, still waiting for review', async () => {
    const { json } = await deliver(deliveryPayload('near', `Drone Photograpy ${run}`));
    expect(json.category).toMatchObject({ name: NEW_NAME, mapped: true, created: false, needs_review: true });
    expect(await categoryOf(json.post_id)).toBe(categoryId);
  });

  it('is not offered by the build (the anon read): its published posts show without it', async () => {
    const organization = must(await db.from('organizations').select('id, name, slug, domain, settings').eq('id', SCALE_PRO.id).single(), 'org') as Organization;
    const blog = toBlog(await readBlogRows(organization));
    expect(blog.categories.map((category) => category.id)).not.toContain(categoryId);
    const post = blog.posts.find((p) => p.slug === slugs.find((slug) => slug.includes('-new-')));
    expect(post?.category).toBeNull();
  });

  it('the dry run says the same, writing nothing', async () => {
    const before = await categoryCount();
    const test = async (category: string) => {
      const response = await webhookTest(
        new Request('http://localhost/api/admin/webhook-test', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
          body: JSON.stringify({ organization_id: SCALE_PRO.id, payload: { title: `Dry ${run}`, html: '<p>Hi</p>', category } }),
        }),
      );
      return ((await response.json()) as { category: unknown }).category;
    };
    expect(await test('local  SEO')).toEqual({ name: 'Local SEO', sent: 'local  SEO', mapped: true, created: false, needs_review: false });
    expect(await test(`Underwater Basketry ${run}`)).toEqual({ name: `Underwater Basketry ${run}`, sent: `Underwater Basketry ${run}`, mapped: false, created: true, needs_review: true });
    expect(await categoryCount()).toBe(before);
  });

  describe('approving it', () => {
    it.each([
      ['anon', () => anonClient()],
      ['a viewer', () => clients.viewer],
      ["another organization's admin", () => clients.otherAdmin],
    ])('is refused to %s through /rest/v1: nothing changes, nothing is logged', async (_who, client) => {
      const { data } = await client().from('blog_categories').update({ needs_review: false }).eq('id', categoryId).select('id');
      expect(data ?? []).toEqual([]);
      expect(await flagged(categoryId)).toBe(true);
      expect(await approvals(categoryId)).toBe(0);
    });

    it('is an editor’s: the flag is cleared and one audit entry written', async () => {
      const { data, error } = await clients.editor.from('blog_categories').update({ needs_review: false }).eq('id', categoryId).select('id');
      expect(error).toBeNull();
      expect(data).toEqual([{ id: categoryId }]);
      expect(await flagged(categoryId)).toBe(false);
      expect(await approvals(categoryId)).toBe(1);
    });

    it('nobody but the database flags a category: an editor can neither flag one again nor create one flagged', async () => {
      const again = await clients.editor.from('blog_categories').update({ needs_review: true }).eq('id', categoryId).select('id');
      expect(again.error?.code).toBe('42501');
      expect(await flagged(categoryId)).toBe(false);
      const created = await clients.editor
        .from('blog_categories')
        .insert({ organization_id: SCALE_PRO.id, name: `Flagged ${run}`, slug: `flagged-${run}`, needs_review: true })
        .select('id');
      expect(created.error?.code).toBe('42501');
      expect((await db.from('blog_categories').select('id').eq('slug', `flagged-${run}`)).data).toEqual([]);
    });
  });
});
