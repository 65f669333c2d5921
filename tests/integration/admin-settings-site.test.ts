/**
 * What the Settings tab saves, as the built site shows it: the evergreen organization gets a contact phone
 * and all five social links, then one `astro build` (SITE_ORG=evergreen-landscaping, into a temporary
 * folder) is read: the footer links every saved profile with an accessible name, the home and contact pages
 * show the phone with a `tel:` link, and the back-office pages are titled with the organization's name.
 * Evergreen's admin first sets ZimmWriter deliveries to the queue through the real admin call (the mode that
 * once stopped every build; publish-modes-everywhere.test.ts reads every mode through the build's data layer
 * and the functions). Evergreen's settings are restored afterwards.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOCIAL_NETWORKS } from '../../src/schemas/organization.ts';
import { astroBuild, pageHtml, visibleText } from './support/built-site';
import { backend, seed, serviceClient, signedInClient } from './support/db-fixtures';

/** A whole `astro build` takes 10-30 s on this machine, more when others build too. */
const BUILD_TIMEOUT = 300_000;
const NAME = 'Evergreen Landscaping';
const PHONE = '+1 (470) 555-0199';
const LINKS = Object.fromEntries(SOCIAL_NETWORKS.map(({ key }) => [key, `https://www.${key}.com/evergreen-${key}`]));

const service = serviceClient();
const work = mkdtempSync(join(tmpdir(), 'settings-build-'));
let originalSettings: unknown;
const since = new Date().toISOString();

beforeAll(async () => {
  const { data, error } = await service.from('organizations').select('settings').eq('id', seed.evergreen).single();
  if (error) throw error;
  originalSettings = data.settings;
  const admin = await signedInClient(seed.users.otherAdmin.email);
  const queued = await admin.rpc('set_webhook_publish_mode', { p_organization_id: seed.evergreen, p_mode: 'queue' });
  if (queued.error) throw queued.error;
  const saved = await service
    .from('organizations')
    .update({ settings: { ...data.settings, webhook: { publish_mode: 'queue' }, contact_phone: PHONE, social_links: LINKS } })
    .eq('id', seed.evergreen);
  if (saved.error) throw saved.error;
  const build = await astroBuild(work, { SITE_ORG: 'evergreen-landscaping', BLOG_SNAPSHOT_DIR: join(work, '.snapshots'), PUBLIC_SUPABASE_URL: backend.url });
  expect(build.status, build.output).toBe(0);
}, BUILD_TIMEOUT);

afterAll(async () => {
  const restored = await service.from('organizations').update({ settings: originalSettings }).eq('id', seed.evergreen);
  if (restored.error) throw restored.error;
  await service.from('user_activity_logs').delete().eq('organization_id', seed.evergreen).eq('action', 'webhook_publish_mode_changed').gte('created_at', since);
  rmSync(work, { recursive: true, force: true });
});

/** The footer's social links as [href, accessible name] pairs. */
function socialLinks(html: string): [string, string][] {
  const list = html.match(/<ul[^>]*aria-label="Social media"[^>]*>([\s\S]*?)<\/ul>/)?.[1] ?? '';
  return [...list.matchAll(/<a href="([^"]+)"[^>]*aria-label="([^"]+)"/g)].map((m) => [m[1]!, m[2]!]);
}

describe('the footer', () => {
  it.each(['/', '/contact', '/blog'])('on %s links every saved social profile, each with its name', (route) => {
    expect(socialLinks(pageHtml(route, work))).toEqual(
      SOCIAL_NETWORKS.map(({ key, label }) => [LINKS[key], `${NAME} on ${label} (opens in a new tab)`]),
    );
  });
});

describe('the contact phone', () => {
  it.each(['/', '/contact'])('is shown on %s with a tel: link', (route) => {
    const html = pageHtml(route, work);
    expect(html).toContain('href="tel:+14705550199"');
    expect(visibleText(html)).toContain(PHONE);
  });
});

describe('back-office page titles', () => {
  it.each([
    ['/auth', 'Admin Access'],
    ['/admin', 'Admin Dashboard'],
    ['/admin/blog', 'Blog Management'],
    ['/admin/blog/new', 'New Post'],
    ['/admin/blog/edit', 'Edit Post'],
    ['/admin/blog/preview', 'Post Preview'],
  ])('%s is "%s | Evergreen Landscaping"', (route, page) => {
    expect(pageHtml(route, work)).toContain(`<title>${page} | ${NAME}</title>`);
  });
});
