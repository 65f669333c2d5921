/**
 * Real view counts: POST /api/post-view as a handler fed real Requests, counting in the real local backend
 * (SUPABASE_URL / PUBLIC_SUPABASE_URL point at it), and the raw REST attacks on the tables and functions
 * behind it. The site's organization is scale-pro (no SITE_ORG, no URL: the local fallback slug).
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import postView, { config } from '../../netlify/functions/post-view.mts';
import { ADDRESS_HOURLY_LIMIT, addressKey } from '../../src/lib/server/post-views.ts';
import { anonClient, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';

const service = serviceClient();
const SP = seed.scalePro;
/** Published posts of scale-pro that no other case of this file counts. */
const POSTS = {
  first: '40000000-0000-4000-8000-000000000002',
  other: '40000000-0000-4000-8000-000000000003',
  rate: ['40000000-0000-4000-8000-000000000004', '40000000-0000-4000-8000-000000000005'],
  hash: '40000000-0000-4000-8000-000000000006',
  attacked: '40000000-0000-4000-8000-000000000007',
  inflated: '40000000-0000-4000-8000-000000000010',
};
const OTHER_ORG_POST = '40000000-0000-4000-8000-000000000020';
const run = randomUUID().slice(0, 8);
const browser = (name: string) => `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36 ${name}-${run}`;
/**
 * A documentation address (2001:db8::/32) in a /64 of its own, so no two visitors of a run, nor of two runs the
 * same day, share one (an address counts once per post and day).
 */
const address = () => `2001:db8:${randomUUID().slice(0, 4)}:${randomUUID().slice(0, 4)}::${Math.floor(Math.random() * 0xffff).toString(16)}`;

const today = () => new Date().toISOString().slice(0, 10);

/** What the database keeps of a visitor: sha256(today's salt, address, organization). */
const visitorHash = (salt: Buffer, ip: string) => createHash('sha256').update(Buffer.concat([salt, Buffer.from(`${addressKey(ip)}\n${SP}`)])).digest('hex');
const todaysSalt = async (db: { query: (sql: string) => Promise<{ rows: { salt: Buffer }[] }> }) =>
  (await db.query("select salt from private.post_view_salts where day = (now() at time zone 'utc')::date")).rows[0]!.salt;

function view(postId: unknown, headers: Record<string, string>, body?: string) {
  return postView(
    new Request('http://localhost/api/post-view', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: body ?? JSON.stringify({ post_id: postId }),
    }),
  );
}

/** What a view may change: the post's counter, its count for today and today's visitor rows. */
async function counts(postId: string) {
  return withDatabase(async (db) => {
    const { rows } = await db.query(
      `select p.view_count,
              coalesce((select views from public.post_view_days where post_id = p.id and day = (now() at time zone 'utc')::date), 0) as today,
              (select count(*)::int from private.post_view_visitors where post_id = p.id) as visitors
       from public.blog_posts p where p.id = $1`,
      [postId],
    );
    return rows[0] as { view_count: number; today: number; visitors: number };
  });
}

/** The post's version (updated_at, to the microsecond), which an open editor saves over. */
const postVersion = (postId: string) =>
  withDatabase(async (db) => (await db.query("select updated_at::text as version from public.blog_posts where id = $1", [postId])).rows[0]!.version as string);

afterAll(async () => {
  // Rate windows of this run's addresses would refuse a rerun within the hour.
  await withDatabase((db) => db.query('delete from private.post_view_rate_windows'));
});

describe('POST /api/post-view', () => {
  const ip = address();
  const headers = { 'user-agent': browser('first'), 'x-nf-client-connection-ip': ip };

  it('answers POST /api/post-view', () => {
    expect(config).toMatchObject({ path: '/api/post-view', method: 'POST' });
  });

  it("counts a first visit: the post, its day and one visitor row go up by one; the post's version stays", async () => {
    const before = await counts(POSTS.first);
    const version = await postVersion(POSTS.first);
    const response = await view(POSTS.first, headers);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ counted: true });
    expect(await counts(POSTS.first)).toEqual({ view_count: before.view_count + 1, today: before.today + 1, visitors: before.visitors + 1 });
    // A view is not an edit: an editor open on the post may still save over the version it opened (and the
    // sitemap's lastmod, which updated_at gives, stays).
    expect(await postVersion(POSTS.first)).toBe(version);
  });

  it('does not count a second visit of the same visitor the same day', async () => {
    const before = await counts(POSTS.first);
    const response = await view(POSTS.first, headers);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ counted: false });
    expect(await counts(POSTS.first)).toEqual(before);
  });

  it('an attacker changing the User-Agent on every request from one address adds one view, not ten', async () => {
    const attacker = address();
    const before = await counts(POSTS.inflated);
    const answers = [];
    for (let n = 0; n < 10; n += 1) answers.push(await (await view(POSTS.inflated, { 'user-agent': browser(`agent-${n}`), 'x-nf-client-connection-ip': attacker })).json());
    expect(answers).toEqual([{ counted: true }, ...Array(9).fill({ counted: false })]);
    expect(await counts(POSTS.inflated)).toEqual({ view_count: before.view_count + 1, today: before.today + 1, visitors: before.visitors + 1 });
    // Control: another address is another visitor.
    expect(await (await view(POSTS.inflated, { 'user-agent': browser('agent-0'), 'x-nf-client-connection-ip': address() })).json()).toEqual({ counted: true });
  });

  it('an IPv6 client counts once for its /64 network, however many of its addresses it uses', async () => {
    const network = `2001:db8:${run.slice(0, 4)}:${run.slice(4, 8)}`;
    const before = await counts(POSTS.inflated);
    const answers = [];
    for (const host of ['1', 'abcd:1234:5678:9', 'ffff:ffff:ffff:fffe']) answers.push(await (await view(POSTS.inflated, { 'user-agent': browser('v6'), 'x-nf-client-connection-ip': `${network}:${host.includes(':') ? host : `0:0:0:${host}`}` })).json());
    expect(answers).toEqual([{ counted: true }, { counted: false }, { counted: false }]);
    expect((await counts(POSTS.inflated)).view_count).toBe(before.view_count + 1);
    // Control: the next /64 is another subscriber.
    expect(await (await view(POSTS.inflated, { 'user-agent': browser('v6'), 'x-nf-client-connection-ip': `2001:db8:${run.slice(0, 4)}:${(parseInt(run.slice(4, 8), 16) ^ 1).toString(16)}::1` })).json()).toEqual({ counted: true });
  });

  it('does not trust X-Forwarded-For: a client naming other addresses there is still one visitor', async () => {
    const ip = address();
    const before = await counts(POSTS.inflated);
    for (let n = 0; n < 3; n += 1) await view(POSTS.inflated, { 'user-agent': browser('xff'), 'x-nf-client-connection-ip': ip, 'x-forwarded-for': `198.51.100.${n + 1}` });
    expect((await counts(POSTS.inflated)).view_count).toBe(before.view_count + 1);
  });

  it('counts the same visitor once per post: another post counts', async () => {
    const before = await counts(POSTS.other);
    expect(await (await view(POSTS.other, headers)).json()).toEqual({ counted: true });
    expect((await counts(POSTS.other)).view_count).toBe(before.view_count + 1);
  });

  it.each([
    ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
    ['a headless browser', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/130.0 Safari/537.36'],
    ['Lighthouse', 'Mozilla/5.0 (Linux; Android 11) Chrome-Lighthouse'],
    ['curl', 'curl/8.5.0'],
    ['no user agent', ''],
  ])('answers %s with 204 and writes nothing', async (_name, userAgent) => {
    const before = await counts(POSTS.first);
    const response = await view(POSTS.first, { 'user-agent': userAgent, 'x-nf-client-connection-ip': address() });
    expect(response.status).toBe(204);
    expect(await counts(POSTS.first)).toEqual(before);
  });

  it.each([
    ['Sec-Purpose: prefetch', { 'sec-purpose': 'prefetch' }],
    ['Sec-Purpose: prefetch;prerender', { 'sec-purpose': 'prefetch;prerender' }],
    ['Purpose: prefetch', { purpose: 'prefetch' }],
    ['X-Moz: prefetch', { 'x-moz': 'prefetch' }],
  ])('answers a request with %s with 204 and writes nothing', async (_name, extra) => {
    const before = await counts(POSTS.first);
    const response = await view(POSTS.first, { 'user-agent': browser('prefetch'), 'x-nf-client-connection-ip': address(), ...extra });
    expect(response.status).toBe(204);
    expect(await counts(POSTS.first)).toEqual(before);
  });

  it.each([
    ["another organization's published post", OTHER_ORG_POST],
    ['a draft', seed.draftPost],
    ['a scheduled post', seed.scheduledPost],
    ['an unknown id', randomUUID()],
  ])('refuses %s with 404 and writes nothing', async (_name, postId) => {
    const before = postId.startsWith('40000000') ? await counts(postId) : null;
    const response = await view(postId, { 'user-agent': browser('refused'), 'x-nf-client-connection-ip': address() });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'No such post on this site.' });
    if (before) expect(await counts(postId)).toEqual(before);
  });

  it.each([
    ['a missing post_id', '{}', 400],
    ['a post_id that is no id', JSON.stringify({ post_id: "1' or 1=1" }), 400],
    ['a body that is not JSON', '{not json', 400],
    ['a body over 1 KB', JSON.stringify({ post_id: POSTS.first, padding: 'x'.repeat(2000) }), 413],
  ])('refuses %s', async (_name, body, status) => {
    const response = await view(undefined, { 'user-agent': browser('invalid'), 'x-nf-client-connection-ip': address() }, body);
    expect(response.status).toBe(status);
  });

  it('refuses a body that is not declared as JSON with 415 (a cross-site form cannot post one)', async () => {
    const response = await view(POSTS.first, { 'content-type': 'text/plain', 'user-agent': browser('form'), 'x-nf-client-connection-ip': address() });
    expect(response.status).toBe(415);
  });

  it(`answers 429 once an address made ${ADDRESS_HOURLY_LIMIT} requests in the hour, and the refused view writes nothing`, async () => {
    const ip = address();
    const [counted, fresh] = POSTS.rate as [string, string];
    expect((await view(counted, { 'user-agent': browser('rate'), 'x-nf-client-connection-ip': ip })).status).toBe(200);
    // The rest of the hour's requests, as the window would hold them after them.
    await withDatabase(async (db) => {
      const { rowCount } = await db.query('update private.post_view_rate_windows set hits = $1 where key_hash = $2', [ADDRESS_HOURLY_LIMIT, `address:${visitorHash(await todaysSalt(db), ip)}`]);
      expect(rowCount).toBe(1);
    });
    const before = await counts(fresh);
    const refused = await view(fresh, { 'user-agent': browser('rate-other-browser'), 'x-nf-client-connection-ip': ip });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await counts(fresh)).toEqual(before);
    // Another address is not affected.
    expect((await view(fresh, { 'user-agent': browser('rate'), 'x-nf-client-connection-ip': address() })).status).toBe(200);
  });
});

describe('count_post_view (the SQL function behind the endpoint)', () => {
  it('limits requests per address, whatever the user agent (limit 2 here)', async () => {
    const ip = address();
    const call = (postId: string) => service.rpc('count_post_view', { p_organization_id: SP, p_post_id: postId, p_address: ip, p_address_limit: 2 });
    expect((await call(POSTS.rate[1]!)).data).toBe('counted');
    expect((await call(POSTS.rate[1]!)).data).toBe('duplicate');
    const before = await counts(POSTS.rate[0]!);
    expect((await call(POSTS.rate[0]!)).data).toBe('rate_limited');
    expect(await counts(POSTS.rate[0]!)).toEqual(before);
  });

  it('stores only sha256(today\'s salt, address, organization): no address, no user agent', async () => {
    const ip = address();
    const userAgent = browser('hash');
    expect(await (await view(POSTS.hash, { 'user-agent': userAgent, 'x-nf-client-connection-ip': ip })).json()).toEqual({ counted: true });
    await withDatabase(async (db) => {
      const expected = visitorHash(await todaysSalt(db), ip);
      const rows = (await db.query('select day::text, visitor_hash from private.post_view_visitors where post_id = $1', [POSTS.hash])).rows;
      expect(rows).toContainEqual({ day: today(), visitor_hash: expected });
      const stored = JSON.stringify((await db.query('select * from private.post_view_visitors union all select null, null, key_hash from private.post_view_rate_windows')).rows);
      expect(stored).not.toContain(ip);
      expect(stored).not.toContain(addressKey(ip).replace('::/64', ''));
      expect(stored).not.toContain(`hash-${run}`);
    });
  });

  it("rolls the day over: yesterday's salt and visitor rows are deleted by the next view", async () => {
    await withDatabase(async (db) => {
      const yesterday = "(now() at time zone 'utc')::date - 1";
      await db.query(`insert into private.post_view_salts (day, salt) values (${yesterday}, '\\x00') on conflict do nothing`);
      await db.query(`insert into private.post_view_visitors (day, post_id, visitor_hash) values (${yesterday}, $1, $2)`, [POSTS.hash, 'a'.repeat(64)]);
      await view(POSTS.hash, { 'user-agent': browser('rollover'), 'x-nf-client-connection-ip': address() });
      const left = await db.query(`select (select count(*)::int from private.post_view_salts where day < (now() at time zone 'utc')::date) as salts,
        (select count(*)::int from private.post_view_visitors where day < (now() at time zone 'utc')::date) as visitors`);
      expect(left.rows[0]).toEqual({ salts: 0, visitors: 0 });
    });
  });
});

describe('attacks through the raw API: nobody but the endpoint counts', () => {
  const args = { p_organization_id: SP, p_post_id: POSTS.attacked, p_address: '198.51.100.1', p_address_limit: 1000 };

  it.each([
    ['anon', async () => anonClient()],
    ['an admin of the organization', async () => signedInClient(seed.users.admin.email)],
    ["another organization's admin", async () => signedInClient(seed.users.otherAdmin.email)],
  ])('%s cannot call count_post_view or the dropped increment_post_view; nothing is counted', async (_who, client) => {
    const caller = await client();
    const before = await counts(POSTS.attacked);
    expect((await caller.rpc('count_post_view', args)).error).not.toBeNull();
    expect((await caller.rpc('increment_post_view', { p_post_id: POSTS.attacked })).error).not.toBeNull();
    expect(await counts(POSTS.attacked)).toEqual(before);
  });

  it('anon cannot read or write the day counts, nor read the totals', async () => {
    const anon = anonClient();
    const read = await anon.from('post_view_days').select('views').eq('organization_id', SP);
    expect(read.error?.code ?? (read.data?.length === 0 ? 'empty' : 'rows')).not.toBe('rows');
    const before = await counts(POSTS.attacked);
    expect((await anon.from('post_view_days').insert({ post_id: POSTS.attacked, organization_id: SP, day: today(), views: 1000 })).error).not.toBeNull();
    expect((await anon.rpc('count_organization_views', { p_organization_id: SP })).error).not.toBeNull();
    expect((await anon.rpc('post_views_per_day', { p_organization_id: SP })).error).not.toBeNull();
    expect(await counts(POSTS.attacked)).toEqual(before);
  });

  it("an editor cannot write the day counts or a post's view_count; nothing changes", async () => {
    const editor = await signedInClient(seed.users.editor.email);
    const before = await counts(POSTS.attacked);
    expect((await editor.from('post_view_days').insert({ post_id: POSTS.attacked, organization_id: SP, day: today(), views: 1000 })).error).not.toBeNull();
    await editor.from('post_view_days').update({ views: 1000 }).eq('post_id', POSTS.attacked);
    const update = await editor.from('blog_posts').update({ view_count: 1_000_000 }).eq('id', POSTS.attacked);
    expect(update.error?.code).toBe('42501');
    const created = await editor.from('blog_posts').insert({ organization_id: SP, title: 'Inflated', slug: `inflated-${run}`, content: '<p>x</p>', author_id: seed.users.editor.id, view_count: 999 });
    expect(created.error?.code).toBe('42501');
    expect(await counts(POSTS.attacked)).toEqual(before);
  });

  it("a member of another organization reads none of scale-pro's view rows, and zeros from its functions", async () => {
    const otherAdmin = await signedInClient(seed.users.otherAdmin.email);
    const rows = await otherAdmin.from('post_view_days').select('views').eq('organization_id', SP);
    expect(rows.data).toEqual([]);
    const perDay = await otherAdmin.rpc('post_views_per_day', { p_organization_id: SP });
    expect(perDay.error).toBeNull();
    expect((perDay.data as { views: number }[]).every((day) => Number(day.views) === 0)).toBe(true);
  });

  it('a member reads 30 days of counts, zero days included, ending today, and the real total', async () => {
    const viewer = await signedInClient(seed.users.viewer.email);
    const perDay = await viewer.rpc('post_views_per_day', { p_organization_id: SP, p_days: 30 });
    expect(perDay.error).toBeNull();
    const days = perDay.data as { day: string; views: number }[];
    expect(days).toHaveLength(30);
    expect(days.at(-1)!.day).toBe(today());
    const todays = await service.from('post_view_days').select('views').eq('organization_id', SP).eq('day', today());
    expect(Number(days.at(-1)!.views)).toBe((todays.data ?? []).reduce((sum, row) => sum + row.views, 0));
    const total = await viewer.rpc('count_organization_views', { p_organization_id: SP });
    const posts = await service.from('blog_posts').select('view_count').eq('organization_id', SP);
    expect(Number(total.data)).toBe((posts.data ?? []).reduce((sum, row) => sum + row.view_count, 0));
  });
});
