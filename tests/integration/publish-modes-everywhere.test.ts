/**
 * Every publish mode an admin can choose is read everywhere without harm, for its own organization and for the
 * others: each mode is set through the real admin call (`set_webhook_publish_mode`, as the ZimmWriter tab saves
 * it), Scale Pro and Evergreen on different modes, then the build's data layer reads each site's organization
 * (what every page of a build reads) and every public function that reads organizations is called as a visitor,
 * the writing tool, Netlify and the scheduler would call it. One mode the TypeScript schema did not know once
 * stopped every site's build and the newsletter of every organization. The real `astro build` with a queue mode
 * is in admin-settings-site.test.ts (one build serves both files).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { check, db, EVERGREEN, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import { seed, signedInClient } from './support/db-fixtures.ts';
import deployEvents from '../../netlify/functions/deploy-events.mts';
import newsletterLink from '../../netlify/functions/newsletter-link.mts';
import newsletter from '../../netlify/functions/newsletter.mts';
import postView from '../../netlify/functions/post-view.mts';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import signIn from '../../netlify/functions/auth-sign-in.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import invitationDetails from '../../netlify/functions/invitation-details.mts';
import { signDeployNotification } from '../../netlify/local/deploy-notifications.ts';
import { readSiteOrganization } from '../../src/lib/site/organizations.ts';
import { PUBLISH_MODES, type PublishMode } from '../../src/schemas/organization.ts';

const SECRET = 'publish-modes-everywhere-secret';
const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs: string[] = [];
const emails: string[] = [];
let admins: Record<'scalePro' | 'evergreen', SupabaseClient>;
let original: Record<string, unknown>;
let viewedPostId: string;

/** The functions keep the site's organization for 5 minutes: each mode moves their clock past that. */
const realNow = Date.now.bind(Date);
let clockAhead = 0;

beforeAll(async () => {
  process.env.DEPLOY_NOTIFICATION_SECRET = SECRET;
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() + clockAhead);
  admins = { scalePro: await signedInClient(seed.users.admin.email), evergreen: await signedInClient(seed.users.otherAdmin.email) };
  const rows = must(await db.from('organizations').select('id, settings').in('id', [SCALE_PRO.id, EVERGREEN.id]), 'settings');
  original = Object.fromEntries(rows.map((row) => [row.id, row.settings]));
  const viewed = `modes-${run}-viewed`;
  slugs.push(viewed);
  viewedPostId = must(await db.from('blog_posts').insert({
    organization_id: SCALE_PRO.id, author_id: seed.users.editor.id, title: `Publish modes viewed ${run}`, slug: viewed, content: '<p>Read me.</p>', status: 'published', published_at: new Date().toISOString(),
  }).select('id').single(), 'viewed post').id;
});

afterAll(async () => {
  vi.restoreAllMocks();
  delete process.env.DEPLOY_NOTIFICATION_SECRET;
  for (const [id, settings] of Object.entries(original)) check(await db.from('organizations').update({ settings }).eq('id', id), 'restore settings');
  await removeTestRows({ postSlugs: slugs, organizationIds: [SCALE_PRO.id, EVERGREEN.id], since });
  check(await db.from('newsletter_subscribers').delete().in('email', emails), 'remove subscribers');
  check(await db.from('site_deploys').delete().like('external_id', `modes-${run}-%`), 'remove deploys');
  check(await db.from('user_activity_logs').delete().eq('action', 'webhook_publish_mode_changed').gte('created_at', since), 'remove mode entries');
});

const json = (url: string, body: unknown) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** What a delivery in each mode stores. */
const STORED_AS: Record<PublishMode, { status: string; queued: boolean }> = {
  publish: { status: 'published', queued: false },
  draft: { status: 'draft', queued: false },
  queue: { status: 'scheduled', queued: true },
};

describe.each(PUBLISH_MODES.map((mode, i) => [mode, PUBLISH_MODES[(i + 1) % PUBLISH_MODES.length]!] as const))(
  'Scale Pro set to "%s", Evergreen to "%s"',
  (mode, otherMode) => {
    beforeAll(async () => {
      expect(must(await admins.scalePro.rpc('set_webhook_publish_mode', { p_organization_id: SCALE_PRO.id, p_mode: mode }), 'set mode')).toBe(mode);
      expect(must(await admins.evergreen.rpc('set_webhook_publish_mode', { p_organization_id: EVERGREEN.id, p_mode: otherMode }), 'set other mode')).toBe(otherMode);
      clockAhead += 6 * 60_000;
    });

    it('the build reads each site\'s organization with its mode', async () => {
      const scalePro = await readSiteOrganization({ ...process.env, SITE_ORG: SCALE_PRO.slug });
      const evergreen = await readSiteOrganization({ ...process.env, SITE_ORG: EVERGREEN.slug });
      expect([scalePro.id, scalePro.settings.webhook?.publish_mode]).toEqual([SCALE_PRO.id, mode]);
      expect([evergreen.id, evergreen.settings.webhook?.publish_mode]).toEqual([EVERGREEN.id, otherMode]);
    });

    it('a newsletter sign-up is taken', async () => {
      const email = `modes-${mode}-${run}@example.com`;
      emails.push(email);
      const response = await newsletter(json('http://localhost/api/newsletter', { email }));
      expect(response.status, await response.clone().text()).toBe(200);
      expect(must(await db.from('newsletter_subscribers').select('organization_id').eq('email', email).single(), 'subscriber').organization_id).toBe(SCALE_PRO.id);
    });

    it('a newsletter link is answered (an unknown one as invalid, not as a failure)', async () => {
      const response = await newsletterLink(new Request(`http://localhost/api/newsletter/confirm?token=${'0'.repeat(64)}`, { method: 'POST' }));
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(/\/newsletter\/link-invalid$/);
    });

    it('a view of a published post is counted', async () => {
      const request = json('http://localhost/api/post-view', { post_id: viewedPostId });
      request.headers.set('user-agent', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36');
      const response = await postView(request, { ip: `203.0.113.${PUBLISH_MODES.indexOf(mode) + 10}` });
      expect(response.status, await response.clone().text()).toBe(200);
    });

    it('a signed deploy notification is recorded for the site\'s organization', async () => {
      const id = `modes-${run}-${mode}`;
      const body = JSON.stringify({ id, state: 'building', context: 'production', created_at: new Date().toISOString(), ssl_url: 'https://scalepromarketing.com', error_message: null });
      const response = await deployEvents(new Request('http://localhost/api/deploy-events', {
        method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': await signDeployNotification(body, SECRET) }, body,
      }));
      expect(response.status, await response.clone().text()).toBe(202);
      expect(must(await db.from('site_deploys').select('organization_id').eq('external_id', id).single(), 'deploy').organization_id).toBe(SCALE_PRO.id);
    });

    it('a delivery from the writing tool is stored as the mode says, and its dry run says the same', async () => {
      const slug = `modes-${run}-${mode}`;
      slugs.push(slug);
      const payload = { webhook_name: 'blog_post_created', title: `Publish modes ${mode} ${run}`, html: `<p>${crypto.randomUUID()} ${'words '.repeat(40)}</p>`, markdown: false, slug };
      const dryRun = await webhook(webhookRequest(`${SCALE_PRO.token}?dry_run=1`, payload));
      expect(dryRun.status, await dryRun.clone().text()).toBe(200);
      const response = await webhook(webhookRequest(SCALE_PRO.token, payload));
      expect(response.status, await response.clone().text()).toBe(201);
      const post = must(await db.from('blog_posts').select('status, queued').eq('organization_id', SCALE_PRO.id).eq('slug', slug).single(), 'post');
      expect(post).toEqual(STORED_AS[mode]);
    });

    it('the scheduler runs', async () => {
      const response = await publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' }));
      expect(response.status, await response.clone().text()).toBe(200);
    });

    it('sign-in answers (a wrong password as a refusal, not a failure) and an invitation link is read', async () => {
      const refused = await signIn(json('http://localhost/api/auth/sign-in', { email: `nobody-${run}@example.com`, password: 'Not-The-Password-1' }));
      expect(refused.status).toBe(401);
      const invitation = await invitationDetails(new Request('http://localhost/api/invitations/dev-invite-token-scale-pro'));
      expect([200, 410]).toContain(invitation.status);
    });
  },
);
