/**
 * IndexNow against a local listener (INDEXNOW_ENDPOINT), through the real deploy notification
 * (netlify/functions/deploy-events.mts, signed as Netlify signs) and the real database:
 * - a publish, an update and an unpublish each give one submission, once their deploy is live, with the right
 *   addresses (the post, /blog, its category and tags), host, key and key location; a change made after the
 *   build started waits for the next deploy;
 * - a refused or unreachable endpoint is recorded with its answer, the notification is answered at once, and the
 *   scheduler's retry sends it later;
 * - an organization that switched submissions off sends nothing; only its admins switch or rotate (logged), and
 *   nobody writes the log or the keys through the API;
 * (The built site's key file is checked with the suite's shared build, in site-pages.test.ts.)
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import deployEvents from '../../netlify/functions/deploy-events.mts';
import { retryDueSubmissions } from '../../src/lib/server/indexnow.ts';
import { anonClient, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';
import { settleBuilds } from './support/webhook-backend.ts';

const service = serviceClient();
const run = Date.now().toString(36);
const SECRET = 'indexnow-test-secret';
const ORIGIN = 'http://localhost:8888';

/** What the listener received: each call's JSON body. */
const calls: { host: string; key: string; keyLocation: string; urlList: string[] }[] = [];
const answers: number[] = [];
let listener: Server;
let endpoint = '';
const saved = { endpoint: process.env.INDEXNOW_ENDPOINT, secret: process.env.DEPLOY_NOTIFICATION_SECRET };

beforeAll(async () => {
  listener = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      calls.push(JSON.parse(body));
      res.statusCode = answers.shift() ?? 200;
      res.end(res.statusCode === 200 ? '' : 'Key not valid for this host');
    });
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/indexnow`;
  process.env.INDEXNOW_ENDPOINT = endpoint;
  process.env.DEPLOY_NOTIFICATION_SECRET = SECRET;
  // Earlier files' changes on this backend are not this file's.
  await withDatabase((db) => db.query('delete from private.indexnow_changes'));
});

beforeEach(() => {
  calls.length = 0;
  answers.length = 0;
});

afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `indexnow-${run}-%`);
  await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
  await service.from('indexnow_sites').update({ enabled: true }).eq('organization_id', seed.scalePro);
  await service.from('site_deploys').delete().like('external_id', `indexnow-${run}-%`);
  await settleBuilds([seed.scalePro]);
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  for (const [name, value] of [['INDEXNOW_ENDPOINT', saved.endpoint], ['DEPLOY_NOTIFICATION_SECRET', saved.secret]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

let deploys = 0;
/** A production deploy of the site, as Netlify notifies it: building (now), then ready. Answers the ready call's time. */
async function deploy(between?: () => Promise<unknown>) {
  const id = `indexnow-${run}-${++deploys}`;
  const notify = async (state: string, createdAt: string) => {
    const body = JSON.stringify({ id, state, context: 'production', created_at: createdAt, updated_at: new Date().toISOString(), ssl_url: 'https://scalepromarketing.com' });
    const signature = await new SignJWT({ sha256: createHash('sha256').update(body).digest('hex') }).setProtectedHeader({ alg: 'HS256' }).setIssuer('netlify').sign(new TextEncoder().encode(SECRET));
    const response = await deployEvents(new Request('http://localhost/api/deploy-events', { method: 'POST', headers: { 'content-type': 'application/json', 'x-webhook-signature': signature }, body }));
    expect(response.status).toBe(202);
  };
  const startedAt = new Date().toISOString();
  await notify('building', startedAt);
  await between?.();
  const before = Date.now();
  await notify('ready', startedAt);
  return { id, answeredInMs: Date.now() - before };
}

const key = async () => (await service.from('indexnow_sites').select('key').eq('organization_id', seed.scalePro).single()).data!.key as string;
const submissions = async () =>
  (await service.from('indexnow_submissions').select('urls, status, attempts, response_status, error, next_attempt_at, deploy_id').eq('organization_id', seed.scalePro).order('created_at')).data!;

async function publishPost(name: string) {
  const { data: category } = await service.from('blog_categories').select('id, slug').eq('organization_id', seed.scalePro).eq('is_default', false).limit(1).single();
  const { data, error } = await service
    .from('blog_posts')
    .insert({
      organization_id: seed.scalePro, title: `IndexNow ${name} ${run}`, slug: `indexnow-${run}-${name}`, content: '<p>Body.</p>',
      status: 'published', published_at: new Date().toISOString(), category_id: category!.id, tags: ['Google Maps'],
    })
    .select('id, slug')
    .single();
  if (error) throw new Error(error.message);
  return { ...(data as { id: string; slug: string }), categorySlug: category!.slug as string };
}

describe('submissions once a deploy is live', () => {
  it('sends a publish, an update and an unpublish, each once, with the addresses, host, key and key location', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    const post = await publishPost('lifecycle');
    await deploy();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual({
      host: 'localhost:8888',
      key: await key(),
      keyLocation: `${ORIGIN}/${await key()}.txt`,
      urlList: [`${ORIGIN}/blog/${post.slug}`, `${ORIGIN}/blog`, `${ORIGIN}/blog/category/${post.categorySlug}`, `${ORIGIN}/blog/tag/google-maps`],
    });
    expect(await submissions()).toEqual([expect.objectContaining({ status: 'sent', attempts: 1, response_status: 200, error: null })]);

    await service.from('blog_posts').update({ title: `IndexNow updated ${run}` }).eq('id', post.id);
    await deploy();
    expect(calls).toHaveLength(2);
    expect(calls[1]!.urlList).toEqual([`${ORIGIN}/blog/${post.slug}`, `${ORIGIN}/blog`, `${ORIGIN}/blog/category/${post.categorySlug}`, `${ORIGIN}/blog/tag/google-maps`]);

    await service.from('blog_posts').update({ status: 'draft' }).eq('id', post.id);
    await deploy();
    expect(calls).toHaveLength(3);
    expect(calls[2]!.urlList).toContain(`${ORIGIN}/blog/${post.slug}`);
    expect(await submissions()).toHaveLength(3);

    // Nothing changed: a deploy submits nothing.
    await deploy();
    expect(calls).toHaveLength(3);
  });

  it('never submits a change before it is live: one made while the build runs waits for the next deploy', async () => {
    let late: { slug: string } | undefined;
    await deploy(async () => {
      late = await publishPost('late');
    });
    expect(calls).toEqual([]);
    await deploy();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.urlList[0]).toBe(`${ORIGIN}/blog/${late!.slug}`);
  });

  it('never lists drafts, scheduled or queued posts', async () => {
    await service.from('blog_posts').insert([
      { organization_id: seed.scalePro, title: `Draft ${run}`, slug: `indexnow-${run}-draft`, content: '<p>x</p>', status: 'draft' },
      { organization_id: seed.scalePro, title: `Scheduled ${run}`, slug: `indexnow-${run}-scheduled`, content: '<p>x</p>', status: 'scheduled', published_at: new Date(Date.now() + 86_400_000).toISOString() },
    ]);
    await deploy();
    expect(calls).toEqual([]);
  });
});

describe('a refused or unreachable endpoint', () => {
  it('records the answer, answers the notification at once, and the scheduler sends it again later', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    answers.push(403);
    const post = await publishPost('refused');
    await deploy();
    expect(calls).toHaveLength(1);
    const [failed] = await submissions();
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, response_status: 403, error: '403 Forbidden: Key not valid for this host' });
    expect(Date.parse(failed!.next_attempt_at!)).toBeGreaterThan(Date.now());

    // Not due yet: nothing is sent. Once due, the retry goes out.
    expect(await retryDueSubmissions(service)).toBe(0);
    await service.from('indexnow_submissions').update({ next_attempt_at: new Date(Date.now() - 1000).toISOString() }).eq('organization_id', seed.scalePro);
    expect(await retryDueSubmissions(service)).toBe(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.urlList[0]).toBe(`${ORIGIN}/blog/${post.slug}`);
    expect((await submissions())[0]).toMatchObject({ status: 'sent', attempts: 2, response_status: 200, error: null, next_attempt_at: null });
  });

  it('records an endpoint it cannot reach, and the notification still answers', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    process.env.INDEXNOW_ENDPOINT = 'http://127.0.0.1:9/indexnow';
    try {
      await publishPost('unreachable');
      await deploy();
    } finally {
      process.env.INDEXNOW_ENDPOINT = endpoint;
    }
    expect((await submissions())[0]).toMatchObject({ status: 'failed', attempts: 1, response_status: null, error: expect.stringMatching(/^Could not reach 127\.0\.0\.1:9/) });
  });

  it('gives up after six tries, leaving the failure in the log', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    answers.push(500, 500, 500, 500, 500, 500);
    await publishPost('six');
    await deploy();
    for (let attempt = 2; attempt <= 6; attempt += 1) {
      await service.from('indexnow_submissions').update({ next_attempt_at: new Date(Date.now() - 1000).toISOString() }).eq('organization_id', seed.scalePro).eq('status', 'failed');
      expect(await retryDueSubmissions(service)).toBe(1);
    }
    expect((await submissions())[0]).toMatchObject({ status: 'failed', attempts: 6, response_status: 500, next_attempt_at: null });
    expect(await retryDueSubmissions(service)).toBe(0);
  });
});

describe('switching off, rotating, and who may', () => {
  it('sends nothing while an admin has switched submissions off, and drops what changed meanwhile', async () => {
    const admin = await signedInClient(seed.users.admin.email);
    const off = await admin.rpc('set_indexnow', { p_organization_id: seed.scalePro, p_enabled: false });
    expect(off.error).toBeNull();
    expect(off.data).toMatchObject({ enabled: false });
    await publishPost('while-off');
    await deploy();
    expect(calls).toEqual([]);
    expect((await admin.rpc('set_indexnow', { p_organization_id: seed.scalePro, p_enabled: true })).data).toMatchObject({ enabled: true });
    await deploy();
    expect(calls).toEqual([]);
    const logged = (await service.from('user_activity_logs').select('details').eq('organization_id', seed.scalePro).eq('action', 'indexnow_changed').order('created_at', { ascending: false }).limit(2)).data!;
    expect(logged.map((row) => row.details)).toEqual([{ enabled: true, rotated: false }, { enabled: false, rotated: false }]);
  });

  it('lets only the organization\'s admins switch or rotate, and nobody write keys or the log through the API', async () => {
    const before = await key();
    const editor = await signedInClient(seed.users.editor.email);
    const otherAdmin = await signedInClient(seed.users.otherAdmin.email);
    for (const client of [editor, otherAdmin, anonClient()]) {
      const { error } = await client.rpc('set_indexnow', { p_organization_id: seed.scalePro, p_rotate: true });
      expect(error).not.toBeNull();
      expect((await client.from('indexnow_submissions').insert({ organization_id: seed.scalePro, urls: ['https://evil.example/'] })).error).not.toBeNull();
      expect((await client.from('indexnow_sites').update({ key: 'a'.repeat(32) }).eq('organization_id', seed.scalePro).select()).data ?? []).toEqual([]);
    }
    expect(await key()).toBe(before);
    const admin = await signedInClient(seed.users.admin.email);
    const rotated = await admin.rpc('set_indexnow', { p_organization_id: seed.scalePro, p_rotate: true });
    expect(rotated.data.key).toMatch(/^[a-f0-9]{32}$/);
    expect(rotated.data.key).not.toBe(before);
    const { data: rebuild } = await service.from('site_rebuild_requests').select('reason').eq('organization_id', seed.scalePro).eq('reason', 'IndexNow key rotated');
    expect(rebuild!.length).toBeGreaterThan(0);
    // Anyone reads a key in use (the site serves it); a viewer of another organization reads no log of this one.
    expect((await anonClient().from('indexnow_sites').select('key').eq('organization_id', seed.scalePro).single()).data).toEqual({ key: rotated.data.key });
    expect((await otherAdmin.from('indexnow_submissions').select('id').eq('organization_id', seed.scalePro)).data).toEqual([]);
  });
});

describe('nothing lost to a crash, nothing re-read for ever', () => {
  /** The changes this organization has noted, as the function would claim them. */
  const changeIds = async () => withDatabase(async (db) => (await db.query('select id from private.indexnow_changes where organization_id = $1', [seed.scalePro])).rows.map((row) => Number(row.id)));
  const moveLeasesBack = () => service.from('indexnow_submissions').update({ lease_until: new Date(Date.now() - 1000).toISOString() }).eq('organization_id', seed.scalePro).eq('status', 'pending');

  it('a submission claimed by a function that died before the engine answered is sent once its lease is over, once', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    await withDatabase((db) => db.query('delete from private.indexnow_changes'));
    const post = await publishPost('died');
    // The function claims the changes, then dies: the submission stays `pending` ("Sending"), the engine never called.
    const claimed = await service.rpc('claim_indexnow_submission', { p_organization_id: seed.scalePro, p_deploy_id: null, p_change_ids: await changeIds(), p_urls: [`${ORIGIN}/blog/${post.slug}`] });
    expect(claimed.error).toBeNull();
    expect(await retryDueSubmissions(service)).toBe(0);
    await moveLeasesBack();
    expect(await retryDueSubmissions(service)).toBe(1);
    expect(await retryDueSubmissions(service)).toBe(0);
    expect(calls.map((call) => call.urlList)).toEqual([[`${ORIGIN}/blog/${post.slug}`]]);
    expect((await submissions())[0]).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('records a submission that cannot be sent, with the reason, instead of reading it every minute; waits while switched off', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    const due = new Date(Date.now() - 1000).toISOString();
    await service.from('indexnow_submissions').insert({ organization_id: seed.scalePro, urls: [`${ORIGIN}/blog`], status: 'failed', attempts: 1, next_attempt_at: due });
    // Switched off: it waits.
    await service.from('indexnow_sites').update({ enabled: false }).eq('organization_id', seed.scalePro);
    expect(await retryDueSubmissions(service)).toBe(0);
    await service.from('indexnow_sites').update({ enabled: true }).eq('organization_id', seed.scalePro);
    // A local site with no listener named has no address IndexNow accepts: recorded once, never read again.
    delete process.env.INDEXNOW_ENDPOINT;
    try {
      expect(await retryDueSubmissions(service)).toBe(1);
      expect(await retryDueSubmissions(service)).toBe(0);
    } finally {
      process.env.INDEXNOW_ENDPOINT = endpoint;
    }
    expect((await submissions())[0]).toMatchObject({ status: 'unsendable', error: expect.stringContaining('no address IndexNow accepts'), next_attempt_at: null });
    expect(calls).toEqual([]);
  });

  it("records a local site's live deploy as not sent, with why, so the log has a line for it (and calls nobody)", async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    const post = await publishPost('local');
    delete process.env.INDEXNOW_ENDPOINT;
    try {
      const { id } = await deploy();
      const [row] = await submissions();
      expect(row).toMatchObject({ status: 'unsendable', deploy_id: expect.any(String), next_attempt_at: null, urls: expect.arrayContaining([`${ORIGIN}/blog/${post.slug}`]) });
      expect(row!.error).toBe(`Not sent: the site has no address IndexNow accepts (${ORIGIN} is not a public https address; a local site submits only to INDEXNOW_ENDPOINT).`);
      expect((await service.from('site_deploys').select('id').eq('external_id', id).single()).data!.id).toBe(row!.deploy_id);
      // Never read again.
      expect(await retryDueSubmissions(service)).toBe(0);
    } finally {
      process.env.INDEXNOW_ENDPOINT = endpoint;
    }
    expect(calls).toEqual([]);
  });

  it('starts no call past its time budget (the rest is sent by the next run)', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    await service.from('indexnow_submissions').insert({ organization_id: seed.scalePro, urls: [`${ORIGIN}/blog`], status: 'failed', attempts: 1, next_attempt_at: new Date(Date.now() - 1000).toISOString() });
    expect(await retryDueSubmissions(service, process.env, 0)).toBe(0);
    expect(await retryDueSubmissions(service)).toBe(1);
    expect(calls).toHaveLength(1);
  });

  it('sends a deploy built before a key rotation with the key that deploy serves, and later ones with the new key', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    const old = await key();
    await publishPost('rotated');
    const admin = await signedInClient(seed.users.admin.email);
    // The build started with the old key; the admin rotates while it runs.
    await deploy(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await admin.rpc('set_indexnow', { p_organization_id: seed.scalePro, p_rotate: true })).error).toBeNull();
    });
    const fresh = await key();
    expect(fresh).not.toBe(old);
    expect(calls.map((call) => call.key)).toEqual([old]);
    await publishPost('after-rotation');
    await deploy();
    expect(calls.map((call) => [call.key, call.keyLocation])).toEqual([[old, `${ORIGIN}/${old}.txt`], [fresh, `${ORIGIN}/${fresh}.txt`]]);
  });
});

describe('taxonomy changes reach search engines too', () => {
  it('a renamed category and a renamed tag submit their posts and their pages, old and new, once live', async () => {
    await service.from('indexnow_submissions').delete().eq('organization_id', seed.scalePro);
    await withDatabase((db) => db.query('delete from private.indexnow_changes'));
    const admin = await signedInClient(seed.users.admin.email);
    const { data: category } = await service.from('blog_categories').insert({ organization_id: seed.scalePro, name: `Renamed ${run}`, slug: `renamed-${run}` }).select('id').single();
    const tag = `tagged-${run}`;
    const { data: post } = await service
      .from('blog_posts')
      .insert({ organization_id: seed.scalePro, title: `IndexNow taxonomy ${run}`, slug: `indexnow-${run}-taxonomy`, content: '<p>Body.</p>', status: 'published', published_at: new Date().toISOString(), category_id: category!.id, tags: [tag] })
      .select('slug')
      .single();
    await deploy();
    calls.length = 0;
    // The admin renames the category and the tag in Categories & Tags.
    expect((await admin.from('blog_categories').update({ name: `Renamed again ${run}`, slug: `renamed-again-${run}` }).eq('id', category!.id)).error).toBeNull();
    expect((await admin.rpc('rename_tag', { p_organization_id: seed.scalePro, p_from: tag, p_to: `${tag}-new` })).error).toBeNull();
    await deploy();
    expect(calls).toHaveLength(1);
    expect(calls[0]!.urlList).toEqual(expect.arrayContaining([
      `${ORIGIN}/blog/${post!.slug}`, `${ORIGIN}/blog/category/renamed-${run}`, `${ORIGIN}/blog/category/renamed-again-${run}`,
      `${ORIGIN}/blog/tag/${tag}`, `${ORIGIN}/blog/tag/${tag}-new`,
    ]));
    await service.from('blog_posts').delete().eq('slug', post!.slug);
    await service.from('blog_categories').delete().eq('id', category!.id);
  });
});
