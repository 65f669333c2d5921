/**
 * The writing tool's delivery in queue mode, end to end on the served site: the admin chooses "Add to the
 * queue" in the ZimmWriter tab; a delivery answers its slot (`scheduled_for`), Recent Deliveries say when it
 * goes out, its new category awaits review; when its slot comes, the scheduled function publishes it and the
 * build it requests puts it on the public blog. The organization's settings and every row made are restored.
 *
 * It is the last spec of the publishing lane (the lane runs its files in name order): the post it publishes
 * is removed from the database afterwards, and no later spec of the lane reads the blog's lists before the
 * next build.
 */
import { expect, test } from './fixtures';
import { formatInTimeZone, timeZoneLabel } from '../../src/lib/back-office/zoned-time.ts';
import { SCALE_PRO_ID, service } from './support/backend';
import { rebuildPublicSite } from './support/rebuild';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';

test.use({ signedInAs: 'seed admin' });

/**
 * One run of the scheduled function publish-scheduled, in this process with the served functions' hold on
 * builds (playwright.config.ts), so it publishes what is due and sends nothing: the test builds. Answers the
 * published posts' ids.
 */
async function scheduledRun(): Promise<string[]> {
  const saved = { atOnce: process.env.REBUILD_AT_ONCE, window: process.env.REBUILD_QUIET_WINDOW_MS };
  Object.assign(process.env, { REBUILD_AT_ONCE: 'off', REBUILD_QUIET_WINDOW_MS: '3600000' });
  try {
    const answer = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
    expect(answer.status).toBe(200);
    return (await answer.json()).published;
  } finally {
    for (const [name, value] of [['REBUILD_AT_ONCE', saved.atOnce], ['REBUILD_QUIET_WINDOW_MS', saved.window]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

test('in queue mode a delivery answers its slot, Recent Deliveries say when it goes out, its new category awaits review, and it goes live when its slot comes', async ({ page, request }) => {
  test.setTimeout(180_000);
  const { data: scalePro } = await service.from('organizations').select('settings').eq('id', SCALE_PRO_ID).single();
  const since = new Date().toISOString();
  const marker = `e2e-slot-${Date.now().toString(36)}`;
  try {
    await page.goto('/admin?tab=zimmwriter');
    await expect(page.getByRole('heading', { name: 'ZimmWriter Integration' })).toBeVisible();
    await page.getByLabel('When a post arrives').selectOption('queue');
    await expect(page.getByRole('status', { name: 'Notifications' })).toContainText('Publish Mode Saved');

    // The writing tool's delivery, through the served function as the tool sends it.
    const delivered = await request.post('/api/webhooks/zimmwriter/dev-zimmwriter-token-scale-pro', {
      data: { webhook_name: 'Slot check', title: `${marker} queued`, html: `<p>${marker} ${'words '.repeat(30)}</p>`, markdown: false, slug: marker, category: `${marker} topic` },
    });
    expect(delivered.status()).toBe(201);
    const answer = await delivered.json();
    const { data: post } = await service.from('blog_posts').select('id, published_at').eq('slug', marker).single();
    expect(answer).toMatchObject({ status: 'scheduled', scheduled_for: { utc: new Date(post!.published_at).toISOString(), time_zone: 'America/New_York', queued: true } });
    expect(new Date(answer.scheduled_for.local).getTime()).toBe(new Date(post!.published_at).getTime());

    await page.reload();
    const entry = page.getByRole('list', { name: 'Webhook deliveries' }).getByRole('listitem').filter({ hasText: `${marker} queued` });
    // The slot in the queue's zone, as the back office writes times (spaces compared as spaces: ICU puts a narrow one before AM).
    const wall = `In the queue, goes out ${formatInTimeZone(post!.published_at, 'America/New_York')} ${timeZoneLabel('America/New_York', new Date(post!.published_at))}`;
    const goesOut = entry.getByTestId('delivery-goes-out');
    await expect(goesOut).toBeVisible();
    expect((await goesOut.textContent())?.replace(/\s/g, ' ')).toBe(wall.replace(/\s/g, ' '));
    await expect(page.getByRole('list', { name: 'Categories' })).toContainText(`${marker} topic · awaiting review`);
    expect((await page.request.get(`/blog/${marker}`)).status()).toBe(404);

    // Its slot comes (the clock is moved on to it): the scheduler's run publishes it, and the build it requests
    // puts it on the public blog.
    await service.from('blog_posts').update({ published_at: new Date(Date.now() - 1000).toISOString() }).eq('slug', marker);
    const published = await scheduledRun();
    // The server's own scheduler runs every minute too, and may have been the one to take it in that moment.
    if (!published.includes(post!.id)) {
      expect((await service.from('blog_posts').select('status').eq('id', post!.id).single()).data).toEqual({ status: 'published' });
    }
    await rebuildPublicSite(SCALE_PRO_ID);
    await page.goto(`/blog/${marker}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${marker} queued`);
  } finally {
    await service.from('organizations').update({ settings: scalePro!.settings }).eq('id', SCALE_PRO_ID);
    await service.from('webhook_deliveries').delete().eq('organization_id', SCALE_PRO_ID).eq('slug', marker);
    await service.from('blog_posts').delete().eq('organization_id', SCALE_PRO_ID).eq('slug', marker);
    // No build puts the blog back: this spec is the publishing lane's last (playwright.config.ts), and the
    // other lanes read no list a post more or less would change.
    await service.from('blog_categories').delete().eq('organization_id', SCALE_PRO_ID).eq('name', `${marker} topic`);
    await service.from('site_rebuild_requests').delete().eq('organization_id', SCALE_PRO_ID).gte('requested_at', since);
    await service.from('user_activity_logs').delete().eq('organization_id', SCALE_PRO_ID).gte('created_at', since).in('action', ['webhook_publish_mode_changed', 'post_created', 'post_scheduled', 'category_created']);
  }
});
