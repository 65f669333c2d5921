import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { check, countRows, db, EVERGREEN, must, removeTestRows, SCALE_PRO, webhookRequest } from './support/webhook-backend.ts';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import { FUNCTION_BODY_LIMIT_BYTES } from '../../src/lib/server/http.ts';
import { withDatabase } from './support/db-fixtures.ts';

const since = new Date().toISOString();
const run = Date.now().toString(36);
const slugs: string[] = [];
/** A slug unique to this run, removed afterwards. */
const testSlug = (name: string) => {
  const slug = `webhook-test-${name}-${run}`;
  slugs.push(slug);
  return slug;
};

/** The title of the article delivered under a slug: each slug its own article (the duplicate gate compares titles). */
const titleFor = (slug: string) => `Local SEO Checklist for Atlanta Contractors (${slug})`;

/** Text no other article shares, so the duplicate gate sees each test article as new. */
const uniqueText = () => Array.from({ length: 25 }, () => crypto.randomUUID()).join(' ');

/** What ZimmWriter sends for a finished article: empty optional fields are `false`. */
function zimmwriterPayload(slug: string, extra: Record<string, unknown> = {}) {
  return {
    webhook_name: 'blog_post_created',
    title: titleFor(slug),
    html:
      `<p>${uniqueText()}</p>` +
      '<h2>Why local search matters</h2><p>Most homeowners search <strong>near me</strong> first.</p>' +
      '<script>document.cookie</script><img src="https://cdn.example.com/map.png" alt="Map" onerror="alert(1)">' +
      '<p><a href="javascript:alert(1)">claim</a> <a href="https://example.com/guide">guide</a></p>' +
      '<iframe src="https://www.youtube.com/embed/abc123" title="Walkthrough"></iframe>' +
      `<p>${'word '.repeat(450)}</p>`,
    markdown: false,
    excerpt: 'Ten steps to show up in the map pack.',
    category: 'local seo',
    tags: ['Local SEO', ' Atlanta ', 'Local SEO'],
    slug,
    image_url: false,
    image_base64: false,
    ...extra,
  };
}

async function deliver(token: string, body: unknown, init?: RequestInit) {
  const response = await webhook(webhookRequest(token, body, init));
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

let evergreenToken = '';
beforeAll(async () => {
  evergreenToken = must(await db.rpc('rotate_webhook_token', { p_organization_id: EVERGREEN.id }), 'evergreen token') as string;
});
afterAll(async () => {
  await removeTestRows({ postSlugs: slugs, organizationIds: [SCALE_PRO.id, EVERGREEN.id], since });
  check(await db.from('blog_categories').delete().eq('organization_id', SCALE_PRO.id).like('slug', `%${run}%`), 'remove categories');
  check(await db.from('webhook_integrations').delete().eq('organization_id', EVERGREEN.id), 'remove evergreen integration');
});

describe('a delivery with a valid token', () => {
  const slug = testSlug('checklist');
  let postId = '';

  it('creates a published post with sanitized HTML and answers 201 with its id, status and URL', async () => {
    const response = await deliver(SCALE_PRO.token, zimmwriterPayload(slug));
    expect(response.status).toBe(201);
    postId = response.json?.post_id as string;
    expect(response.json).toEqual({
      post_id: postId, status: 'published', url: `http://localhost:8888/blog/${slug}`,
      // "local seo" means the organization's "Local SEO": mapped there, not created.
      category: { name: 'Local SEO', sent: 'local seo', mapped: true, created: false, needs_review: false },
    });

    const post = must(await db.from('blog_posts').select('*, blog_categories(name)').eq('id', postId).single(), 'post');
    expect(post).toMatchObject({
      organization_id: SCALE_PRO.id, slug, status: 'published', title: titleFor(slug),
      excerpt: 'Ten steps to show up in the map pack.', tags: ['Local SEO', 'Atlanta'], author_id: null,
      featured_image_url: null, featured_media_id: null, reading_time: 3, blog_categories: { name: 'Local SEO' },
    });
    expect(post.published_at).not.toBeNull();
    expect(post.content).not.toMatch(/script|onerror|javascript:|document\.cookie/i);
    expect(post.content).toContain('<img src="https://cdn.example.com/map.png" alt="Map" />');
    expect(post.content).toContain('<a href="https://example.com/guide">guide</a>');
    expect(post.content).toContain('<iframe src="https://www.youtube.com/embed/abc123" title="Walkthrough" referrerpolicy="strict-origin-when-cross-origin" loading="lazy"></iframe>');

    const deliveries = must(await db.from('webhook_deliveries').select('status_code, post_id, error').eq('slug', slug), 'deliveries');
    expect(deliveries).toEqual([{ status_code: 201, post_id: postId, error: null }]);
    const rebuilds = must(await db.from('site_rebuild_requests').select('batch_id, reason').eq('organization_id', SCALE_PRO.id).gte('requested_at', since), 'rebuilds');
    expect(rebuilds).toContainEqual({ batch_id: null, reason: `Post published: ${slug}` });
  });

  it('writes the post, its delivery record and its rebuild request in one transaction', async () => {
    const slug = testSlug('one-transaction');
    const response = await deliver(SCALE_PRO.token, zimmwriterPayload(slug));
    expect(response.status).toBe(201);
    // now() is the transaction's start time: equal defaults mean one transaction wrote all three rows.
    const post = must(await db.from('blog_posts').select('created_at').eq('id', response.json?.post_id as string).single(), 'post');
    const delivery = must(await db.from('webhook_deliveries').select('received_at').eq('slug', slug).single(), 'delivery');
    const rebuilds = must(await db.from('site_rebuild_requests').select('requested_at').eq('organization_id', SCALE_PRO.id).eq('requested_at', post.created_at), 'rebuild');
    expect(delivery.received_at).toBe(post.created_at);
    expect(rebuilds).toHaveLength(1);
  });

  it('updates the same post when the same payload arrives again (200, still one row)', async () => {
    const response = await deliver(SCALE_PRO.token, zimmwriterPayload(slug, { title: 'Local SEO Checklist, Revised', tags: 'Local SEO, Maps' }));
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ post_id: postId, status: 'published' });
    expect(await countRows('blog_posts', { organization_id: SCALE_PRO.id, slug })).toBe(1);
    const post = must(await db.from('blog_posts').select('title, tags').eq('id', postId).single(), 'post');
    expect(post).toEqual({ title: 'Local SEO Checklist, Revised', tags: ['Local SEO', 'Maps'] });
    const codes = must(await db.from('webhook_deliveries').select('status_code').eq('slug', slug).order('received_at'), 'deliveries');
    expect(codes.map((row) => row.status_code)).toEqual([201, 200]);
  });

  it('never duplicates under concurrent identical deliveries', async () => {
    const concurrentSlug = testSlug('concurrent');
    const responses = await Promise.all(Array.from({ length: 12 }, () => deliver(SCALE_PRO.token, zimmwriterPayload(concurrentSlug))));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => response.json?.post_id)).size).toBe(1);
    expect(await countRows('blog_posts', { organization_id: SCALE_PRO.id, slug: concurrentSlug })).toBe(1);
  });

  it('derives the slug from the title, renders markdown, creates a missing category and notes a refused image_base64', async () => {
    const title = `Markdown Only Post ${run}`;
    const slug = testSlug('derived');
    expect(slug).toBe(`webhook-test-derived-${run}`);
    const response = await deliver(SCALE_PRO.token, {
      title, html: false, markdown: '# Heading\n\nSome *text* and <script>alert(1)</script> [x](javascript:alert(1)).',
      category: `Brand New Category ${run}`, slug: `Webhook Test Derived ${run}`, image_base64: 'data:image/png;base64,AAAA',
    });
    expect(response.status).toBe(201);
    const post = must(await db.from('blog_posts').select('slug, content, category_id').eq('id', response.json?.post_id as string).single(), 'post');
    expect(post.slug).toBe(slug);
    expect(post.content).toContain('<h1>Heading</h1>');
    expect(post.content).toContain('<em>text</em>');
    expect(post.content).not.toMatch(/script|javascript:/);
    const category = must(await db.from('blog_categories').select('name, slug, organization_id').eq('id', post.category_id).single(), 'category');
    expect(category).toEqual({ name: `Brand New Category ${run}`, slug: `brand-new-category-${run}`, organization_id: SCALE_PRO.id });
    const delivery = must(await db.from('webhook_deliveries').select('note').eq('slug', slug).single(), 'delivery');
    expect(delivery.note).toBe('image_base64 not stored: it is not an image (JPEG, PNG, WebP, AVIF or GIF)');
  });

  it("follows the organization publish mode: draft for review, no rebuild, the site's address as the WordPress API gives it", async () => {
    const slug = testSlug('draft');
    const response = await deliver(evergreenToken, zimmwriterPayload(slug, { category: 'Lead Generation' }));
    expect(response.status).toBe(201);
    // The local site's address (siteAddress), as /wp-json/ answers it, whether or not the organization has a domain.
    expect(response.json).toMatchObject({ status: 'draft', url: `http://localhost:8888/blog/${slug}` });
    const post = must(await db.from('blog_posts').select('status, published_at, category_id').eq('id', response.json?.post_id as string).single(), 'post');
    expect(post).toEqual({ status: 'draft', published_at: null, category_id: '30000000-0000-4000-8000-200000000002' });
    expect(await countRows('site_rebuild_requests', { organization_id: EVERGREEN.id, reason: `Post published: ${slug}` })).toBe(0);
  });
});

describe('the SEO title and description', () => {
  it('are stored when a delivery sends them, and kept when a later delivery of the same slug sends none', async () => {
    const slug = testSlug('seo');
    const first = await deliver(SCALE_PRO.token, zimmwriterPayload(slug, { meta_title: 'Local SEO in Atlanta: the checklist', meta_description: 'Ten steps to the map pack.' }));
    expect(first.status).toBe(201);
    const seo = async () => must(await db.from('blog_posts').select('meta_title, meta_description').eq('organization_id', SCALE_PRO.id).eq('slug', slug).single(), 'post');
    expect(await seo()).toEqual({ meta_title: 'Local SEO in Atlanta: the checklist', meta_description: 'Ten steps to the map pack.' });
    expect((await deliver(SCALE_PRO.token, zimmwriterPayload(slug, { title: 'Revised', meta_title: false }))).status).toBe(200);
    expect(await seo()).toEqual({ meta_title: 'Local SEO in Atlanta: the checklist', meta_description: 'Ten steps to the map pack.' });
    const tooLong = await deliver(SCALE_PRO.token, zimmwriterPayload(slug, { meta_title: 'x'.repeat(201) }));
    expect(tooLong.status).toBe(422);
    expect(tooLong.text).toContain('meta_title');
  });
});

describe('the webhook name its user chose', () => {
  it.each(['Agency blog', 'ZimmWriter → Scale Pro (bulk run #3)', 'x'.repeat(100)])(
    'accepts a delivery from a webhook named %j and records the name in the delivery log', async (name) => {
      const slug = testSlug(`named-${name.length}`);
      const response = await deliver(SCALE_PRO.token, zimmwriterPayload(slug, { webhook_name: name }));
      expect(response.status).toBe(201);
      const record = must(await db.from('webhook_deliveries').select('status_code, webhook_name, post_id').eq('slug', slug).single(), 'delivery');
      expect(record).toEqual({ status_code: 201, webhook_name: name, post_id: response.json?.post_id });
    },
  );

  it('keeps the name of a refused delivery, and stores none when the writer sent none (false)', async () => {
    const refusedSlug = testSlug('named-refused');
    const refused = await deliver(SCALE_PRO.token, { webhook_name: ' Agency blog ', title: '', html: '<p>x</p>', slug: refusedSlug });
    expect(refused.status).toBe(422);
    const record = must(await db.from('webhook_deliveries').select('status_code, webhook_name').eq('organization_id', SCALE_PRO.id).order('received_at', { ascending: false }).limit(1).single(), 'refused delivery');
    expect(record).toEqual({ status_code: 422, webhook_name: 'Agency blog' });

    const slug = testSlug('unnamed');
    expect((await deliver(SCALE_PRO.token, zimmwriterPayload(slug, { webhook_name: false }))).status).toBe(201);
    expect(must(await db.from('webhook_deliveries').select('webhook_name').eq('slug', slug).single(), 'unnamed').webhook_name).toBeNull();
  });

  it('refuses a name over 100 characters with 422 and stores no post', async () => {
    const slug = testSlug('name-too-long');
    const posts = await countRows('blog_posts', { organization_id: SCALE_PRO.id });
    const response = await deliver(SCALE_PRO.token, zimmwriterPayload(slug, { webhook_name: 'x'.repeat(101) }));
    expect(response.status).toBe(422);
    expect(response.json?.details).toEqual([{ path: 'webhook_name', message: 'webhook_name must be at most 100 characters' }]);
    expect(await countRows('blog_posts', { organization_id: SCALE_PRO.id })).toBe(posts);
  });

  it('is checked by the database too: a name over 100 characters is never stored', async () => {
    const { error } = await db.rpc('receive_arrival', {
      p_arrival: { token: SCALE_PRO.token, refused: { slug: testSlug('db-name'), status: 422, error: 'x' }, webhook_name: 'y'.repeat(101) },
    });
    expect(error?.message).toMatch(/webhook_deliveries_webhook_name_check/);
  });
});

describe('a refused delivery writes no post', () => {
  const postCount = () => countRows('blog_posts', { organization_id: SCALE_PRO.id });
  const deliveryCount = () => countRows('webhook_deliveries', { organization_id: SCALE_PRO.id });

  /** Every post and delivery record of every organization: an unknown token must change neither. */
  const everything = async () => [await countRows('blog_posts', {}), await countRows('webhook_deliveries', {})];
  const unknown = 'whk_0000000000000000000000000000000000000000000000000000000000000000';
  const fiveMegabytes = JSON.stringify(zimmwriterPayload(testSlug('unknown-large'), { html: `<p>${'x'.repeat(5_000_000)}</p>` }));

  it.each<[string, string, BodyInit]>([
    ['a valid payload', unknown, JSON.stringify(zimmwriterPayload(testSlug('unknown')))],
    ['a 5 MB payload', unknown, fiveMegabytes],
    ['a body over the size limit', unknown, `"${'x'.repeat(FUNCTION_BODY_LIMIT_BYTES + 10)}"`],
    ['invalid JSON', unknown, '{"title": "Broken'],
    ['an empty body', unknown, ''],
    ['a previous-looking token', 'whk_1111111111111111111111111111111111111111111111111111111111111111', fiveMegabytes],
    ['a token too short to look up', 'short', '{"title": "Broken'],
    ['a token that is not valid percent-encoding', 'whk_%E0%A4%A', fiveMegabytes],
    ['a token too long to look up', `whk_${'a'.repeat(300)}`, fiveMegabytes],
  ])('answers an unknown token with %s 404, without reading the body or writing anything', async (_case, token, body) => {
    const before = await everything();
    const request = webhookRequest(token, body);
    const response = await webhook(request);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Unknown webhook token' });
    expect(request.bodyUsed).toBe(false); // never read, so never parsed, rendered or sanitized
    expect(await everything()).toEqual(before);
  });

  it('reads the body of a known token (the check above is not vacuous)', async () => {
    const request = webhookRequest(SCALE_PRO.token, '{"title": "Broken');
    expect((await webhook(request)).status).toBe(400);
    expect(request.bodyUsed).toBe(true);
  });

  it.each(['GET', 'PUT', 'DELETE'])('answers 405 with Allow: POST to %s', async (method) => {
    const posts = await postCount();
    const response = await deliver(SCALE_PRO.token, undefined, { method, body: null });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await postCount()).toBe(posts);
  });

  it.each([
    ['malformed JSON', '{"title": "Broken', 400, /must be JSON/],
    ['a missing title', { html: '<p>x</p>' }, 422, /title/],
    ['neither html nor markdown', { title: 'T', html: false, markdown: false }, 422, /html/],
    ['html that is only unsafe markup', { title: 'T', html: '<script>alert(1)</script>' }, 422, /unsafe markup/],
  ])('answers %s with its status and logs the attempt', async (_case, body, status, message) => {
    const [posts, deliveries] = [await postCount(), await deliveryCount()];
    const response = await deliver(SCALE_PRO.token, body);
    expect(response.status).toBe(status);
    expect(response.text).toMatch(message);
    expect(await postCount()).toBe(posts);
    expect(await deliveryCount()).toBe(deliveries + 1);
    const logged = must(await db.from('webhook_deliveries').select('status_code, error, post_id').eq('organization_id', SCALE_PRO.id).order('received_at', { ascending: false }).limit(1).single(), 'delivery');
    expect(logged).toMatchObject({ status_code: status, post_id: null });
    expect(logged.error).toMatch(message);
  });

  it('answers 500 without Postgres text when the database refuses the post; the log and the record have the details under the same reference', async () => {
    const [posts, deliveries] = [await postCount(), await deliveryCount()];
    const slug = testSlug('refused-by-db');
    const category = `Refused Category ${run}`;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // The payload's limits are the database's, so no payload makes it refuse a post: a constraint of this test's
    // own does (a failure of the database's, as a migration gone wrong would be).
    const title = `Refused by the database ${run}`;
    await withDatabase((pg) => pg.query(`alter table public.blog_posts add constraint blog_posts_refused_by_test check (title <> '${title}') not valid`));
    const response = await deliver(SCALE_PRO.token, { title, html: '<p>A post the database refuses.</p>', slug, category }).finally(() =>
      withDatabase((pg) => pg.query('alter table public.blog_posts drop constraint blog_posts_refused_by_test')),
    );
    const log = logged.mock.calls.map((args) => args.join(' ')).join('\n');
    logged.mockRestore();

    expect(response.status).toBe(500);
    const reference = response.json?.reference as string;
    expect(reference).toMatch(/^[0-9a-f]{8}$/);
    expect(response.json).toEqual({ message: `Could not store the post (reference ${reference})`, reference });
    expect(response.text).not.toMatch(/blog_posts|check|constraint|violat|relation|column|sql/i);

    expect(log).toContain(reference);
    expect(log).toMatch(/blog_posts_refused_by_test/);
    expect(await postCount()).toBe(posts);
    expect(await deliveryCount()).toBe(deliveries + 1);
    expect(await countRows('blog_categories', { organization_id: SCALE_PRO.id, name: category })).toBe(0);
    const record = must(await db.from('webhook_deliveries').select('id, status_code, post_id, error').eq('slug', slug).single(), 'delivery');
    expect(record).toMatchObject({ status_code: 500, post_id: null });
    expect(record.error).toMatch(new RegExp(`^Could not store the post \\(reference ${reference}\\): .*blog_posts_refused_by_test`));
    expect(record.id.startsWith(reference)).toBe(true);
  });

  it('lists every invalid field in the 422 answer', async () => {
    const response = await deliver(SCALE_PRO.token, { title: '', html: false, image_url: 'ftp://x', tags: Array(21).fill('t').map((t, i) => t + i) });
    expect(response.status).toBe(422);
    const paths = (response.json?.details as { path: string }[]).map((problem) => problem.path);
    expect(paths).toEqual(expect.arrayContaining(['title', 'image_url', 'tags']));
    // The message itself names each field and its problem, for a reader of only the message.
    expect(response.json?.message).toMatch(/^Invalid payload: title: Title is required; /);
    expect(response.json?.message).toMatch(/; image_url: Enter a full URL/);
  });

  it('answers 413 to a body over the limit, by Content-Length and by the bytes actually read', async () => {
    const [posts, deliveries] = [await postCount(), await deliveryCount()];
    const oversized = JSON.stringify(zimmwriterPayload(testSlug('oversized'), { html: `<p>${'x'.repeat(FUNCTION_BODY_LIMIT_BYTES)}</p>` }));
    expect((await deliver(SCALE_PRO.token, oversized)).status).toBe(413);

    // A stream without Content-Length: only counting the bytes read catches it.
    const chunk = new TextEncoder().encode('x'.repeat(1_000_000));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 20) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const streamed = await webhook(new Request(`http://localhost/api/webhooks/zimmwriter/${SCALE_PRO.token}`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit));
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(20); // reading stopped at the limit
    expect(await postCount()).toBe(posts);
    expect(await deliveryCount()).toBe(deliveries + 2);
  });
});
