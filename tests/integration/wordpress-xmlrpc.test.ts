/**
 * WordPress's XML-RPC API (netlify/functions/xmlrpc.mts served over real HTTP, the real database), called with an
 * XML-RPC client written by others (`xmlrpc`) in the order the writing apps call it (MarsEdit, Open Live Writer:
 * the RSD document, the blogs, the categories, a post with its keywords and categories, an image, an edit, a
 * delete), and with raw requests as an attacker:
 * - every call signs in with the user name and an application password; a wrong one is fault 403 and counts toward
 *   the sign-in lockout; a viewer may not write (401), and nothing is written;
 * - posts take the REST API's one arrival path: the member is the author, the audit names the password, deleting
 *   moves the post to the trash;
 * - another organization's post is no post here; a revoked password and the account's own password are refused;
 * - malformed XML, an unknown method, parameters of the wrong type and entities a document declares are faults or
 *   stay text, never a 500; a body past the functions' limit is 413; `system.multicall` is bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import xmlrpc from 'xmlrpc';
import xmlrpcFunction from '../../netlify/functions/xmlrpc.mts';
import { MULTICALL_LIMIT } from '../../src/lib/server/wordpress-xmlrpc.ts';
import { createMember, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';
import { serveFunction } from './support/function-server.ts';

const service = serviceClient();
const DEV_PASSWORD = 'abcd EFGH 1234 ijkl MNOP 6789';
const run = crypto.randomUUID().slice(0, 8);
let server: Awaited<ReturnType<typeof serveFunction>>;
let client: xmlrpc.Client;
let login: string;
const cleanup: (() => PromiseLike<unknown>)[] = [];

beforeAll(async () => {
  server = await serveFunction(xmlrpcFunction);
  client = xmlrpc.createClient(`${server.origin}/xmlrpc.php`);
  login = (await service.from('profiles').select('user_login').eq('id', seed.users.editor.id).single()).data!.user_login;
});

afterAll(async () => {
  await service.from('blog_posts').delete().eq('organization_id', seed.scalePro).like('title', `%${run}%`);
  await service.from('blog_tags').delete().eq('organization_id', seed.scalePro).like('name', `%${run}%`);
  const { data: files } = await service.from('media').select('storage_path').eq('organization_id', seed.scalePro).like('file_name', `%${run}%`);
  if (files?.length) await service.storage.from('media').remove(files.map((file) => file.storage_path));
  await service.from('media').delete().eq('organization_id', seed.scalePro).like('file_name', `%${run}%`);
  for (const step of cleanup.reverse()) await step();
  await server.close();
});

/** A call through the client library: its value, or its fault as `{ faultCode, faultString }`. */
function call(method: string, params: unknown[]): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) =>
    client.methodCall(method, params, (error, value) => {
      const fault = error as { faultCode?: number; faultString?: string } | null;
      if (fault && fault.faultCode !== undefined) resolve({ faultCode: fault.faultCode, faultString: fault.faultString });
      else if (error) reject(error);
      else resolve(value);
    }),
  );
}

/** A raw POST of `body` to the endpoint: its status and text. */
async function raw(body: string, headers: Record<string, string> = { 'content-type': 'text/xml' }) {
  const response = await fetch(`${server.origin}/xmlrpc.php`, { method: 'POST', headers, body });
  return { status: response.status, text: await response.text() };
}

const postRow = async (wpId: string | number) =>
  (await service.from('blog_posts').select('id, title, status, author_id, content_source, tags, category_id, excerpt, slug, featured_media_id, trashed_at, sticky').eq('wp_id', Number(wpId)).single()).data!;

describe('discovery', () => {
  it('answers the RSD document that points apps at the API, and refuses a GET of the API itself', async () => {
    const rsd = await fetch(`${server.origin}/xmlrpc.php?rsd`);
    expect(rsd.status).toBe(200);
    expect(rsd.headers.get('content-type')).toBe('text/xml; charset=UTF-8');
    const text = await rsd.text();
    expect(text).toContain('<engineName>WordPress</engineName>');
    expect(text).toContain('<api name="WordPress" blogID="1" preferred="true" apiLink="http://localhost:8888/xmlrpc.php" />');
    expect(text).toContain('<api name="MetaWeblog" blogID="1" preferred="false" apiLink="http://localhost:8888/xmlrpc.php" />');
    const get = await fetch(`${server.origin}/xmlrpc.php`);
    expect(get.status).toBe(405);
    expect(await get.text()).toBe('XML-RPC server accepts POST requests only.');
  });
});

describe('a writing app publishes as MarsEdit and Open Live Writer do', () => {
  it('finds its blog, the categories, publishes with keywords and categories, uploads an image, edits, reads back and deletes', async () => {
    const blogs = await call('wp.getUsersBlogs', [login, DEV_PASSWORD]);
    expect(blogs).toEqual([{ isAdmin: false, url: 'http://localhost:8888/', blogid: '1', blogName: 'Scale Pro Marketing', xmlrpc: 'http://localhost:8888/xmlrpc.php' }]);
    expect(await call('blogger.getUsersBlogs', ['appkey', seed.users.editor.email, DEV_PASSWORD])).toEqual(blogs);
    const categories = await call('metaWeblog.getCategories', ['1', login, DEV_PASSWORD]);
    expect(categories.length).toBeGreaterThan(0);
    const category = categories[0] as { categoryId: string; categoryName: string };
    expect(await call('wp.getOptions', ['1', login, DEV_PASSWORD, ['blog_title', 'software_version']])).toEqual({
      blog_title: { desc: 'Site Title', readonly: true, value: 'Scale Pro Marketing' },
      software_version: { desc: 'Software Version', readonly: true, value: '6.7' },
    });

    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 20, b: 90 } } }).png().toBuffer();
    const image = await call('metaWeblog.newMediaObject', ['1', login, DEV_PASSWORD, { name: `cover-${run}.png`, type: 'image/png', bits: png }]);
    expect(image).toMatchObject({ type: 'image/png', file: expect.stringContaining('.png'), url: expect.stringContaining('/storage/v1/object/public/media/') });

    const title = `Written in MarsEdit ${run}`;
    const postid = await call('metaWeblog.newPost', [
      '1',
      login,
      DEV_PASSWORD,
      {
        title,
        description: '<p>The opening.</p>',
        mt_text_more: '<p>The rest, after the fold.</p>',
        mt_excerpt: 'What it is about.',
        mt_keywords: `marsedit ${run}, Second ${run}`,
        categories: [category.categoryName.toUpperCase(), 'A category nobody made'],
        wp_slug: `marsedit-${run}`,
        wp_post_thumbnail: image.id,
        custom_fields: [{ key: '_yoast_wpseo_title', value: 'The SEO title' }, { key: 'other', value: 'not kept' }],
      },
      true,
    ]);
    expect(postid).toMatch(/^\d+$/);
    const row = await postRow(postid);
    expect(row).toMatchObject({ title, status: 'published', author_id: seed.users.editor.id, excerpt: 'What it is about.', slug: `marsedit-${run}`, featured_media_id: expect.any(String) });
    expect(row.content_source).toBe('<p>The opening.</p><!--more--><p>The rest, after the fold.</p>');
    expect(row.tags).toEqual([`marsedit ${run}`, `Second ${run}`]);
    const { data: chosen } = await service.from('blog_categories').select('wp_id').eq('id', row.category_id).single();
    expect(String(chosen!.wp_id)).toBe(category.categoryId);
    const audit = (await service.from('user_activity_logs').select('user_id, details').eq('resource_id', row.id).eq('action', 'post_created')).data!;
    expect(audit).toEqual([expect.objectContaining({ user_id: seed.users.editor.id, details: expect.objectContaining({ application_password: 'Development' }) })]);

    const read = await call('metaWeblog.getPost', [postid, login, DEV_PASSWORD]);
    expect(read).toMatchObject({
      postid,
      title,
      description: '<p>The opening.</p>',
      mt_text_more: '<p>The rest, after the fold.</p>',
      categories: [category.categoryName],
      mt_keywords: `marsedit ${run}, Second ${run}`,
      post_status: 'publish',
      wp_post_thumbnail: image.id,
      custom_fields: [{ id: '_yoast_wpseo_title', key: '_yoast_wpseo_title', value: 'The SEO title' }],
    });
    expect(read.dateCreated).toBeInstanceOf(Date);

    expect(await call('metaWeblog.editPost', [postid, login, DEV_PASSWORD, { title: `${title} edited`, description: '<p>Shorter.</p>' }, true])).toBe(true);
    expect(await postRow(postid)).toMatchObject({ title: `${title} edited`, content_source: '<p>Shorter.</p>', status: 'published' });
    expect(await call('mt.getPostCategories', [postid, login, DEV_PASSWORD])).toEqual([{ categoryName: category.categoryName, categoryId: category.categoryId, isPrimary: true }]);

    // Deleting moves it to the trash, as WordPress's XML-RPC does.
    expect(await call('blogger.deletePost', ['appkey', postid, login, DEV_PASSWORD, true])).toBe(true);
    expect(await postRow(postid)).toMatchObject({ status: 'draft', trashed_at: expect.any(String) });
    expect((await call('wp.getPost', ['1', login, DEV_PASSWORD, postid])).post_status).toBe('trash');
  });

  it("takes WordPress's own post methods: terms by name, a schedule, sticky, a page of posts from an offset", async () => {
    const at = new Date(Date.now() + 3 * 86_400_000);
    at.setUTCMilliseconds(0);
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      ids.push(
        await call('wp.newPost', [
          '1',
          login,
          DEV_PASSWORD,
          { post_type: 'post', post_title: `wp.newPost ${n} ${run}`, post_content: `<p>Number ${n}.</p>`, post_status: n === 3 ? 'future' : 'draft', post_date_gmt: at, sticky: n === 2, terms_names: { post_tag: [`wp tag ${run}`] } },
        ]),
      );
    }
    const third = await call('wp.getPost', ['1', login, DEV_PASSWORD, ids[2]]);
    expect(third).toMatchObject({ post_id: ids[2], post_title: `wp.newPost 3 ${run}`, post_status: 'future', post_type: 'post', sticky: false, terms: [expect.objectContaining({ taxonomy: 'category' }), expect.objectContaining({ name: `wp tag ${run}`, taxonomy: 'post_tag' })] });
    expect((third.post_date_gmt as Date).toISOString()).toBe(at.toISOString());
    expect((await postRow(ids[1]!)).sticky).toBe(true);

    const page = await call('wp.getPosts', ['1', login, DEV_PASSWORD, { post_status: 'any', s: `wp.newPost`, number: 2, offset: 1, orderby: 'post_title', order: 'ASC' }]);
    const ours = (page as { post_title: string }[]).map((post) => post.post_title).filter((name) => name.endsWith(run));
    expect(ours).toEqual([`wp.newPost 2 ${run}`, `wp.newPost 3 ${run}`]);

    expect(await call('wp.editPost', ['1', login, DEV_PASSWORD, ids[0], { post_title: `wp.editPost ${run}`, post_status: 'publish' }])).toBe(true);
    expect(await postRow(ids[0]!)).toMatchObject({ title: `wp.editPost ${run}`, status: 'published' });
    expect(await call('wp.deletePost', ['1', login, DEV_PASSWORD, ids[0]])).toBe(true);
    expect((await postRow(ids[0]!)).trashed_at).not.toBeNull();
  });
});

describe('as an attacker', () => {
  it('refuses a wrong password with fault 403, counted toward the lockout; a viewer writes nothing; private posts are not offered', async () => {
    const failures = async () => (await service.from('login_attempts').select('id', { count: 'exact', head: true }).eq('email', seed.users.editor.email).eq('success', false)).count!;
    const before = await failures();
    const wrong = await call('wp.getUsersBlogs', [login, 'wrong wrong wrong']);
    expect(wrong).toEqual({ faultCode: 403, faultString: 'Incorrect username or password.' });
    expect(await failures()).toBe(before + 1);
    expect(await call('wp.getUsersBlogs', [['not', 'a string'], DEV_PASSWORD])).toMatchObject({ faultCode: 403 });

    const member = await createMember('editor');
    cleanup.push(member.remove);
    const made = await (await signedInClient(member.email)).rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: 'Viewer app' });
    await service.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', member.id).eq('organization_id', seed.scalePro);
    const password = (made.data as { password: string }).password;
    const refused = await call('metaWeblog.newPost', ['1', member.email, password, { title: `By a viewer ${run}`, description: '<p>x</p>' }, true]);
    expect(refused).toMatchObject({ faultCode: 401 });
    expect((await service.from('blog_posts').select('id').eq('title', `By a viewer ${run}`)).data).toEqual([]);

    expect(await call('wp.newPost', ['1', login, DEV_PASSWORD, { post_title: `Private ${run}`, post_content: '<p>x</p>', post_status: 'private' }])).toEqual({
      faultCode: 401,
      faultString: 'Private posts are not offered on this site: use draft or publish.',
    });
    expect(await call('wp.newPost', ['1', login, DEV_PASSWORD, { post_type: 'page', post_title: `Page ${run}`, post_content: '<p>x</p>' }])).toMatchObject({ faultCode: 401 });
    expect(await call('wp.getPost', ['1', login, DEV_PASSWORD, 'abc'])).toEqual({ faultCode: 404, faultString: 'Invalid post ID.' });
    expect(await call('wp.newPost', ['1', login, DEV_PASSWORD, { post_title: '', post_content: '' }])).toMatchObject({ faultCode: 400, faultString: expect.stringContaining('title is required') });
    expect((await service.from('blog_posts').select('id').like('title', `Private ${run}%`)).data).toEqual([]);

    // Another organization's post is no post here; a revoked password is refused like a wrong one.
    const { data: foreign } = await service.from('blog_posts').select('wp_id, title').eq('organization_id', seed.evergreen).limit(1).single();
    expect(await call('wp.getPost', ['1', login, DEV_PASSWORD, foreign!.wp_id])).toMatchObject({ faultCode: 404 });
    expect(await call('wp.editPost', ['1', login, DEV_PASSWORD, foreign!.wp_id, { post_title: 'Taken over' }])).toMatchObject({ faultCode: 404 });
    expect(await call('wp.deletePost', ['1', login, DEV_PASSWORD, foreign!.wp_id])).toMatchObject({ faultCode: 404 });
    expect((await service.from('blog_posts').select('title, trashed_at').eq('wp_id', foreign!.wp_id).single()).data).toEqual({ title: foreign!.title, trashed_at: null });
    const author = await createMember('editor');
    cleanup.push(author.remove);
    const own = await signedInClient(author.email);
    const revoked = (await own.rpc('create_application_password', { p_organization_id: seed.scalePro, p_name: 'Soon revoked' })).data as { id: string; password: string };
    expect(await call('wp.getUsersBlogs', [author.email, revoked.password])).toMatchObject([{ blogid: '1' }]);
    await own.rpc('revoke_application_password', { p_id: revoked.id });
    expect(await call('metaWeblog.newPost', ['1', author.email, revoked.password, { title: `Revoked ${run}`, description: '<p>x</p>' }, true])).toEqual({ faultCode: 403, faultString: 'Incorrect username or password.' });
    expect((await service.from('blog_posts').select('id').eq('title', `Revoked ${run}`)).data).toEqual([]);
    // The account's own sign-in password is never an XML-RPC password.
    expect(await call('wp.getUsersBlogs', [author.email, seed.password])).toMatchObject({ faultCode: 403 });
  });

  it('refuses a body over the functions\' limit before reading it as XML', async () => {
    const answer = await raw(`<methodCall><methodName>demo.sayHello</methodName><params><param><value>${'x'.repeat(7 * 1024 * 1024)}</value></param></params></methodCall>`);
    expect(answer.status).toBe(413);
    expect(answer.text).toContain('<name>faultCode</name><value><int>413</int></value>');
  });

  it('answers malformed XML, unknown methods, bad values and declared entities with faults, never a 500; bounds multicall', async () => {
    const fault = (text: string) => ({ code: Number(text.match(/<name>faultCode<\/name><value><int>(-?\d+)/)?.[1]), text });
    const cases: [string, number][] = [
      ['not xml at all', -32700],
      ['<?xml version="1.0"?><methodCall><params/></methodCall>', -32600],
      ['<?xml version="1.0"?><methodCall><methodName>no.such.method</methodName></methodCall>', -32601],
      ['<methodCall><methodName>wp.getPost</methodName><params><param><value><int>1.5</int></value></param></params></methodCall>', -32602],
      ['<methodCall><methodName>wp.getPost</methodName><params><param><value><dateTime.iso8601>yesterday</dateTime.iso8601></value></param></params></methodCall>', -32602],
      ['<methodCall><methodName>wp.getPost</methodName><params><param><value><boolean>yes</boolean></value></param></params></methodCall>', -32602],
      ['<methodCall><methodName>wp.getPost</methodName><params><param><value><script>x</script></value></param></params></methodCall>', -32600],
      [`<methodCall><methodName>demo.sayHello</methodName><params><param><value>${'<array><data><value>'.repeat(40)}x${'</value></data></array>'.repeat(40)}</value></param></params></methodCall>`, -32602],
    ];
    for (const [body, code] of cases) {
      const answer = await raw(body);
      expect(answer.status, body.slice(0, 60)).toBe(200);
      expect(fault(answer.text).code, body.slice(0, 60)).toBe(code);
    }
    // An entity the document declares stays text: nothing is read from elsewhere, nothing expands.
    const entity = await raw(
      `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY big "${'b'.repeat(1000)}">]><methodCall><methodName>metaWeblog.newPost</methodName><params>` +
        `<param><value>1</value></param><param><value>${login}</value></param><param><value>${DEV_PASSWORD}</value></param>` +
        `<param><value><struct><member><name>title</name><value>Entity &xxe;&big; ${run}</value></member><member><name>description</name><value>&lt;p&gt;x&lt;/p&gt;</value></member></struct></value></param>` +
        `<param><value><boolean>0</boolean></value></param></params></methodCall>`,
    );
    expect(entity.status).toBe(200);
    const id = entity.text.match(/<string>(\d+)<\/string>/)?.[1];
    expect((await postRow(id!)).title).toBe(`Entity &xxe;&big; ${run}`);

    expect(await call('system.listMethods', [])).toEqual(expect.arrayContaining(['metaWeblog.newPost', 'wp.getUsersBlogs', 'system.multicall']));
    const calls = Array.from({ length: MULTICALL_LIMIT + 1 }, () => ({ methodName: 'wp.getUsersBlogs', params: [login, 'guess'] }));
    expect(await call('system.multicall', [calls])).toEqual({ faultCode: -32602, faultString: `system.multicall takes at most ${MULTICALL_LIMIT} calls.` });
    const two = await call('system.multicall', [[{ methodName: 'demo.sayHello', params: [] }, { methodName: 'wp.getPost', params: ['1', login, DEV_PASSWORD, 'x'] }]]);
    expect(two).toEqual([['Hello!'], { faultCode: 404, faultString: 'Invalid post ID.' }]);
  });
});
