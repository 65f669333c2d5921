import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, db, must, removeTestRows, SCALE_PRO, setBuildHook, startHookReceiver } from './support/webhook-backend.ts';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import { publicSupabaseConfig } from '../../src/lib/supabase-config.ts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const due = `scheduled-test-due-${run}`;
const later = `scheduled-test-later-${run}`;
let receiver: Awaited<ReturnType<typeof startHookReceiver>>;

const scheduledPost = (slug: string, publishedAt: Date) => ({
  organization_id: SCALE_PRO.id, slug, title: `Scheduled ${slug}`, content: '<p>Goes live on time.</p>',
  status: 'scheduled', published_at: publishedAt.toISOString(),
});

beforeAll(async () => {
  // Whatever becomes due during the run goes to a local receiver, never to a real build.
  receiver = await startHookReceiver();
  await setBuildHook(SCALE_PRO.id, receiver.url);
  check(await db.from('blog_posts').insert([scheduledPost(due, new Date(Date.now() - 1000)), scheduledPost(later, new Date(Date.now() + 3_600_000))]), 'insert scheduled posts');
});
afterAll(async () => {
  await setBuildHook(SCALE_PRO.id, null);
  await receiver.close();
  await removeTestRows({ postSlugs: [due, later], organizationIds: [SCALE_PRO.id], since });
});

describe('the scheduled publishing function', () => {
  it('publishes the scheduled posts whose time has come, keeps the others, and requests a rebuild', async () => {
    const response = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
    expect(response.status).toBe(200);
    const summary = (await response.json()) as { published: string[] };

    const posts = must(await db.from('blog_posts').select('id, slug, status, published_at').in('slug', [due, later]).order('slug'), 'posts');
    const [duePost, laterPost] = [posts.find((post) => post.slug === due), posts.find((post) => post.slug === later)];
    expect(duePost?.status).toBe('published');
    expect(laterPost?.status).toBe('scheduled');
    expect(summary.published).toContain(duePost?.id);
    expect(summary.published).not.toContain(laterPost?.id);

    // Visible to visitors now, at its scheduled time.
    const anon = await fetch(`${process.env.SUPABASE_URL}/rest/v1/blog_posts?select=slug&slug=eq.${due}`, {
      headers: { apikey: publicSupabaseConfig(process.env).anonKey },
    });
    expect(await anon.json()).toEqual([{ slug: due }]);

    const requests = must(await db.from('site_rebuild_requests').select('reason, batch_id').eq('organization_id', SCALE_PRO.id).gte('requested_at', since), 'requests');
    // The post's trigger recorded it, in the same transaction as the publication; it waits for a send.
    expect(requests).toEqual([{ reason: `Scheduled post published: ${due}`, batch_id: null }]);
  });

  it('does nothing on a run with no post due', async () => {
    const response = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
    expect(await response.json()).toMatchObject({ published: [] });
  });
});
