/**
 * The functions while the backend is down, on a separate local backend instance that the tests stop and start
 * again: every function that needs the backend answers 503 with Retry-After and a plain message within 2 s,
 * writes nothing, and works again by itself once the backend is back (no restart of the site). A delivery
 * refused while down is stored once when the writing tool sends it again; a burst of 50 deliveries through a
 * restart, each retried as the tool would, stores every article once; a delivery whose image Storage fails
 * to save stores nothing and is stored whole when sent again.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import adminUsers from '../../netlify/functions/admin-users.mts';
import invitationDetails from '../../netlify/functions/invitation-details.mts';
import newsletter from '../../netlify/functions/newsletter.mts';
import postView from '../../netlify/functions/post-view.mts';
import publishScheduled from '../../netlify/functions/publish-scheduled.mts';
import signIn from '../../netlify/functions/auth-sign-in.mts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import wordpressApi from '../../netlify/functions/wordpress-api.mts';
import { RETRY_AFTER_SECONDS } from '../../src/lib/server/backend.ts';
import { SERVICE_UNAVAILABLE } from '../../src/lib/service-unavailable.ts';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { DEMO_PASSWORD } from '../fixtures/demo-logins.ts';
import { startTestBackend, type TestBackend } from './support/local-backend-instance.ts';

const SCALE_PRO = '10000000-0000-4000-8000-000000000001';
const TOKEN = 'dev-zimmwriter-token-scale-pro';
const ENV_NAMES = ['SUPABASE_URL', 'PUBLIC_SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'PUBLIC_SUPABASE_ANON_KEY', 'SITE_ORG'] as const;
const savedEnv = Object.fromEntries(ENV_NAMES.map((name) => [name, process.env[name]]));
const run = Date.now().toString(36);
let backend: TestBackend;

const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`http://localhost${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const delivery = (slug: string) =>
  json(`/api/webhooks/zimmwriter/${TOKEN}`, { webhook_name: 'Backend down test', title: `Backend down ${slug}`, html: '<p>Sent while the backend was down.</p>', slug });

/** Every function that needs the backend, with a request that would succeed (or be refused on its merits) when it is up. */
const calls: Record<string, () => Promise<Response>> = {
  'writing-tool delivery': () => webhook(delivery(`backend-down-${run}-table`)),
  'sign-in': () => signIn(json('/api/auth/sign-in', { email: 'admin@scale-pro.test', password: DEMO_PASSWORD })),
  newsletter: () => newsletter(json('/api/newsletter', { email: `reader-${run}@example.test` })),
  'post view': () => postView(json('/api/post-view', { post_id: crypto.randomUUID() }, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0' })),
  'invitation details': () => invitationDetails(new Request(`http://localhost/api/invitations/${crypto.randomUUID()}`)),
  'admin user creation': () =>
    adminUsers(
      json('/api/admin/users', { organization_id: SCALE_PRO, email: `new-${run}@example.test`, full_name: 'New Person', role: 'editor', password: 'Temporary-Pass-1' }, { authorization: `Bearer ${LOCAL_SUPABASE.anonKey}` }),
    ),
  'scheduled publishing': () => publishScheduled(new Request('http://localhost/.netlify/functions/publish-scheduled', { method: 'POST' })),
};

/** Calls one function; answers its response and how long it took. */
async function timed(call: () => Promise<Response>): Promise<{ response: Response; ms: number }> {
  const started = performance.now();
  const response = await call();
  return { response, ms: performance.now() - started };
}

beforeAll(async () => {
  backend = startTestBackend();
  Object.assign(process.env, {
    SUPABASE_URL: backend.apiUrl,
    PUBLIC_SUPABASE_URL: backend.apiUrl,
    SUPABASE_SERVICE_ROLE_KEY: LOCAL_SUPABASE.serviceRoleKey,
    PUBLIC_SUPABASE_ANON_KEY: LOCAL_SUPABASE.anonKey,
    SITE_ORG: 'scale-pro',
  });
}, 120_000);

afterAll(async () => {
  for (const name of ENV_NAMES) {
    if (savedEnv[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnv[name];
  }
  await backend?.stop();
});

/** What the deliveries of these slugs wrote: posts per slug, and revisions of those posts. */
async function storedOnce(slugs: string[]) {
  const rows = await backend.sql<{ slug: string; posts: number; revisions: number }>(
    `select p.slug, count(distinct p.id)::int as posts, count(r.id)::int as revisions
     from public.blog_posts p left join public.blog_post_revisions r on r.post_id = p.id
     where p.slug = any($1) group by p.slug`,
    [slugs],
  );
  return { missing: slugs.filter((slug) => !rows.some((row) => row.slug === slug)), repeated: rows.filter((row) => row.posts !== 1 || row.revisions !== 1) };
}

describe('while the backend is down', () => {
  it('every function answers 503 with Retry-After and a plain message, within 2 s', async () => {
    await backend.takeDown();
    try {
      for (const [name, call] of Object.entries(calls)) {
        const { response, ms } = await timed(call);
        expect(response.status, name).toBe(503);
        expect(response.headers.get('retry-after'), name).toBe(String(RETRY_AFTER_SECONDS));
        expect(await response.json(), name).toEqual(SERVICE_UNAVAILABLE);
        expect(ms, name).toBeLessThan(2000);
      }
    } finally {
      await backend.bringUp();
    }
  });

  it('the WordPress API answers WordPress\'s 503 with Retry-After and its discovery link, as publishing tools read errors', async () => {
    await backend.takeDown();
    try {
      const response = await wordpressApi(new Request('http://localhost:8888/wp-json/wp/v2/posts', { headers: { authorization: `Basic ${Buffer.from('editor@scale-pro.test:abcd EFGH 1234 ijkl MNOP 6789').toString('base64')}` } }), { ip: '203.0.113.7' });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
      expect(response.headers.get('link')).toBe('<http://localhost:8888/wp-json/>; rel="https://api.w.org/"');
      expect(await response.json()).toEqual({ code: 'rest_service_unavailable', message: SERVICE_UNAVAILABLE.message, data: { status: 503 } });
    } finally {
      await backend.bringUp();
    }
  });

  it('a delivery refused while down wrote nothing, and is stored once when sent again after the backend is back', async () => {
    const slug = `backend-down-${run}-retried`;
    await backend.takeDown();
    try {
      expect((await webhook(delivery(slug))).status).toBe(503);
    } finally {
      await backend.bringUp();
    }
    expect(await backend.sql('select count(*)::int as n from public.blog_posts where slug = $1', [slug])).toEqual([{ n: 0 }]);
    expect(await backend.sql('select count(*)::int as n from public.webhook_deliveries where slug = $1', [slug])).toEqual([{ n: 0 }]);

    // The same site, not restarted: the next try is stored.
    const stored = await webhook(delivery(slug));
    expect(stored.status).toBe(201);
    expect(await backend.sql('select count(*)::int as n from public.blog_posts where slug = $1', [slug])).toEqual([{ n: 1 }]);
  });

  it('sign-in works again by itself once the backend is back', async () => {
    await backend.takeDown();
    try {
      const refused = await signIn(json('/api/auth/sign-in', { email: 'admin@scale-pro.test', password: DEMO_PASSWORD }));
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ title: 'Temporarily Unavailable' });
    } finally {
      await backend.bringUp();
    }
    const admitted = await signIn(json('/api/auth/sign-in', { email: 'admin@scale-pro.test', password: DEMO_PASSWORD }));
    expect(admitted.status).toBe(200);
    expect(await admitted.json()).toHaveProperty('session.access_token');
  });

  it('a burst of 50 deliveries through a restart, each retried as the tool would, stores every article once', async () => {
    const slugs = Array.from({ length: 50 }, (_, n) => `backend-down-${run}-burst-${n}`);
    const word = () => Math.random().toString(36).slice(2, 9);
    const bodies = slugs.map((slug) => ({ webhook_name: 'Burst', title: `Burst ${slug}`, slug, html: `<p>${Array.from({ length: 80 }, word).join(' ')}.</p>` }));
    let answered = 0;
    let restart: Promise<void> | undefined;
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        for (let n = next++; n < slugs.length; n = next++) {
          for (let tryNumber = 1; tryNumber <= 20; tryNumber++) {
            const response = await webhook(json(`/api/webhooks/zimmwriter/${TOKEN}`, bodies[n]));
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            if (response.status < 500) break;
            await new Promise((done) => setTimeout(done, 300));
          }
          answered += 1;
          if (answered === 15) restart = backend.restart();
        }
      }),
    );
    await restart;
    expect(statuses.get(503), 'some deliveries met the backend down').toBeGreaterThan(0);
    expect([...statuses.keys()].filter((status) => status !== 201 && status !== 503)).toEqual([]);
    expect(await storedOnce(slugs)).toEqual({ missing: [], repeated: [] });
  }, 120_000);

  it('a delivery whose image Storage fails to save stores nothing, and is stored whole when sent again', async () => {
    const slug = `backend-down-${run}-image`;
    const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: { r: 200, g: 40, b: 90 } } }).png().toBuffer();
    const body = { webhook_name: 'Image', title: `Image ${slug}`, slug, html: '<p>With a picture.</p>', image_base64: png.toString('base64') };
    // The media bucket's folder becomes a file: Storage answers an error for every write into it.
    const bucket = join(backend.dataDir, 'storage', 'media');
    rmSync(`${bucket}.kept`, { recursive: true, force: true });
    try {
      renameSync(bucket, `${bucket}.kept`);
    } catch {
      // No file stored in the bucket yet: nothing to keep.
    }
    writeFileSync(bucket, 'not a folder');
    try {
      const refused = await webhook(json(`/api/webhooks/zimmwriter/${TOKEN}`, body));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe(String(RETRY_AFTER_SECONDS));
    } finally {
      rmSync(bucket, { force: true });
      try {
        renameSync(`${bucket}.kept`, bucket);
      } catch {
        // Nothing was kept.
      }
    }
    expect(await backend.sql('select count(*)::int as n from public.blog_posts where slug = $1', [slug])).toEqual([{ n: 0 }]);
    expect(await backend.sql('select count(*)::int as n from public.webhook_deliveries where slug = $1', [slug])).toEqual([{ n: 0 }]);

    const stored = await webhook(json(`/api/webhooks/zimmwriter/${TOKEN}`, body));
    expect(stored.status).toBe(201);
    const [post] = await backend.sql<{ featured_media_id: string | null }>('select featured_media_id from public.blog_posts where slug = $1', [slug]);
    expect(post?.featured_media_id).not.toBeNull();
  });

  it('answers as before when the backend is up: a refusal on its merits stays a refusal', async () => {
    expect((await signIn(json('/api/auth/sign-in', { email: 'admin@scale-pro.test', password: 'Wrong-Password-1' }))).status).toBe(401);
    expect((await invitationDetails(new Request(`http://localhost/api/invitations/${crypto.randomUUID()}`))).status).toBe(404);
    expect((await webhook(json('/api/webhooks/zimmwriter/no-such-token-at-all', { title: 'x' }))).status).toBe(404);
  });
});
