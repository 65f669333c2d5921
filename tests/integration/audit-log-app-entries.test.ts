/**
 * The audit log lists the entries the app writes without a user and names their writer: a real delivery
 * through the webhook function (its post and the category it created) reads as the writing tool's, a post
 * the scheduled function published reads as the scheduler's, in the list an admin loads through the REST
 * API with their own token (as the Security tab and the Overview do) and in the CSV and JSON exports. The
 * seed's own entries (its categories) read as the seed's, never as the writing tool's.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, setBuildHook, startHookReceiver, webhookRequest } from './support/webhook-backend.ts';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import { activitySentence } from '../../src/lib/back-office/activity-sentences.ts';
import { auditCsvExport, auditJsonExport, listActivitySentences, loadMentionedPeople, RECENT_ACTIVITY, type AuditActivity } from '../../src/lib/back-office/audit.ts';
import { backend, seed, signedInClient } from './support/db-fixtures.ts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const deliveredSlug = `audit-tool-${run}`;
const scheduledSlug = `audit-clock-${run}`;
const categoryName = `Audit Category ${run}`;
let admin: SupabaseClient;
let receiver: Awaited<ReturnType<typeof startHookReceiver>>;

beforeAll(async () => {
  // Whatever becomes due while the scheduled function runs goes to a local receiver, never to a real build.
  receiver = await startHookReceiver();
  await setBuildHook(SCALE_PRO.id, receiver.url);
  admin = await signedInClient(seed.users.admin.email);
});

afterAll(async () => {
  await setBuildHook(SCALE_PRO.id, null);
  await receiver.close();
  const posts = must(await db.from('blog_posts').select('id').in('slug', [deliveredSlug, scheduledSlug]), 'test posts').map((p) => p.id as string);
  const categories = must(await db.from('blog_categories').select('id').eq('organization_id', SCALE_PRO.id).eq('name', categoryName), 'test category');
  await removeTestRows({ postSlugs: [deliveredSlug, scheduledSlug], organizationIds: [SCALE_PRO.id], since });
  check(await db.from('blog_categories').delete().in('id', categories.map((c) => c.id as string)), 'remove category');
  check(await db.from('user_activity_logs').delete().in('resource_id', [...posts, ...categories.map((c) => c.id as string)]), 'remove entries');
  check(await db.from('user_activity_logs').delete().eq('user_id', seed.users.admin.id).gte('created_at', since), 'remove admin entries');
});

/** The admin's view of one entry, by action and resource. */
function find(activities: readonly AuditActivity[], action: string, resourceId: string) {
  return activities.find((a) => a.action === action && a.resource_id === resourceId);
}

describe('a delivery of the writing tool', () => {
  let postId = '';
  let categoryId = '';

  beforeAll(async () => {
    const response = await webhook(webhookRequest(SCALE_PRO.token, {
      title: `Audit log delivery ${run}`,
      html: `<p>${Array.from({ length: 25 }, () => crypto.randomUUID()).join(' ')}</p>`,
      slug: deliveredSlug,
      category: categoryName,
    }));
    expect(response.status).toBe(201);
    postId = ((await response.json()) as { post_id: string }).post_id;
    categoryId = must(await db.from('blog_categories').select('id').eq('organization_id', SCALE_PRO.id).eq('name', categoryName).single(), 'category').id as string;
  });

  it('is listed for the admin, without a user, and reads as the writing tool\'s', async () => {
    const { activities, people } = await listActivitySentences(admin, SCALE_PRO.id, 100);
    const created = find(activities, 'post_created', postId);
    expect(created).toMatchObject({ user_id: null, profiles: null, resource_type: 'blog_post', details: { via: 'webhook' } });
    expect(activitySentence(created!, people)).toBe(`ZimmWriter (writing tool) created and published the post "Audit log delivery ${run}"`);
    // The category the delivery created records the webhook too (migration 20261126000100).
    const category = find(activities, 'category_created', categoryId);
    expect(category).toMatchObject({ user_id: null, details: { name: categoryName, by_server: true, via: 'webhook' } });
    expect(activitySentence(category!, people)).toBe(`ZimmWriter (writing tool) created the blog category "${categoryName}"`);
  });

  it('is among the Overview\'s recent activity', async () => {
    const { activities, people } = await listActivitySentences(admin, SCALE_PRO.id, RECENT_ACTIVITY);
    expect(activities.map((a) => activitySentence(a, people))).toContain(`ZimmWriter (writing tool) created and published the post "Audit log delivery ${run}"`);
  });

  it('is in the CSV export with the writing tool in the user columns, and in the JSON export with its actor', async () => {
    const { activities, people } = await listActivitySentences(admin, SCALE_PRO.id, 100);
    const lines = auditCsvExport(activities, [], people).content.split('\r\n');
    const row = lines.find((line) => line.includes(`"post_created","blog_post","${postId}"`));
    expect(row).toMatch(/^"activity","[^"]+","ZimmWriter \(writing tool\)","post_created",/);
    expect(row).toContain(`"ZimmWriter (writing tool) created and published the post ""Audit log delivery ${run}""","writing_tool",`);
    const json = JSON.parse(auditJsonExport(activities, [], seed.users.admin.email, people).content) as { activities: Array<{ id: string; actor: unknown }> };
    expect(json.activities.find((a) => a.id === find(activities, 'post_created', postId)!.id)?.actor).toEqual({ kind: 'writing_tool', name: 'ZimmWriter (writing tool)', email: null });
  });
});

describe('a publication by the scheduler', () => {
  let postId = '';

  beforeAll(async () => {
    postId = must(await db.from('blog_posts').insert({
      organization_id: SCALE_PRO.id, slug: scheduledSlug, title: `Audit log schedule ${run}`, content: '<p>Goes live on time.</p>',
      status: 'scheduled', published_at: new Date(Date.now() - 1000).toISOString(),
    }).select('id').single(), 'scheduled post').id as string;
    const response = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
    expect(response.status).toBe(200);
    expect(((await response.json()) as { published: string[] }).published).toContain(postId);
  });

  it('is listed for the admin and reads as the scheduler\'s, in the list and the CSV export', async () => {
    const { activities, people } = await listActivitySentences(admin, SCALE_PRO.id, 100);
    const published = find(activities, 'post_published', postId);
    expect(published).toMatchObject({ user_id: null, profiles: null, details: { via: 'schedule' } });
    expect(activitySentence(published!, people)).toBe(`The scheduler published the post "Audit log schedule ${run}"`);
    const row = auditCsvExport(activities, [], people).content.split('\r\n').find((line) => line.includes(`"post_published","blog_post","${postId}"`));
    expect(row).toMatch(/^"activity","[^"]+","Scheduler","post_published",/);
    expect(row).toContain(`"The scheduler published the post ""Audit log schedule ${run}""","scheduler",`);
  });
});

describe("the seed's entries", () => {
  it("read as the seed's, at an organization without a webhook too, and a client cannot claim that mark", async () => {
    const evergreen = await signedInClient(seed.users.otherAdmin.email);
    // The seed's entries as the member reads them through RLS (a backend kept between runs holds more than a page of newer ones).
    const seeded = must(
      await evergreen.from('user_activity_logs').select('id, user_id, action, resource_type, resource_id, details, created_at, profiles(email, full_name)').eq('organization_id', seed.evergreen).eq('action', 'category_created').is('user_id', null),
      'seed entries',
    ) as unknown as AuditActivity[];
    const people = await loadMentionedPeople(evergreen, seeded);
    expect(seeded.length).toBeGreaterThan(0);
    for (const entry of seeded) {
      expect(entry.details).toMatchObject({ via: 'seed' });
      expect(activitySentence(entry, people)).toMatch(/^The demo data \(seed\) created the blog category "/);
    }
    // A member's own entry, sent with the operator's header, stays the member's and takes no mark.
    const token = (await admin.auth.getSession()).data.session!.access_token;
    const response = await fetch(`${backend.url}/rest/v1/user_activity_logs`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-app-actor': 'operator' },
      body: JSON.stringify({ user_id: seed.users.admin.id, organization_id: SCALE_PRO.id, action: 'admin_logout' }),
    });
    expect(response.status).toBe(201);
    const own = must(await db.from('user_activity_logs').select('user_id, details').eq('user_id', seed.users.admin.id).eq('action', 'admin_logout').gte('created_at', since).order('created_at', { ascending: false }).limit(1), 'own entry');
    expect(own[0]!.details).not.toHaveProperty('via');
  });
});
