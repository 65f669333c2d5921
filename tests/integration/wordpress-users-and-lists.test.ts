/**
 * The WordPress API's people and lists, through the real function (netlify/functions/wordpress-api.mts, called
 * as Netlify calls it) and the real database, as n8n's credential test, its author picker and mcp-wordpress
 * call them, and as an attacker:
 * - `users` and `users/{id}`: signed-in members only; an admin sees every active member, an editor or a viewer
 *   the members with a post on the site; `who=authors` (not for viewers), `search` in names only; `context=edit`
 *   an admin's, with roles and never another member's e-mail; nobody of another organization, nobody deactivated;
 * - `posts` filtered by categories, tags, authors (and their `_exclude`), `include`/`exclude`, dates, ordered by
 *   `orderby`/`order`; bad parameters are WordPress's 400 naming them;
 * - `_embed` adds each post's author (a name, never an e-mail), featured image and terms as the caller may read them;
 * - collections link to their previous and next pages (`Link: rel="prev"`, `rel="next"`) beside the discovery link.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import wordpressApi from '../../netlify/functions/wordpress-api.mts';
import { createMember, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const EDITOR_PASSWORD = 'abcd EFGH 1234 ijkl MNOP 6789';
const made: { remove: () => Promise<unknown> }[] = [];

type Auth = [string, string];
let admin: Auth;
let viewer: Auth;
const editor: Auth = [seed.users.editor.email, EDITOR_PASSWORD];
let otherOrganizationAdmin: Auth;

/**
 * The address this run's requests come from (documentation space, one of its own per run): the refused password
 * of another organization counts toward the sign-in lockout of the e-mail and address, and a backend kept
 * between runs would lock a fixed address out by the fifth run.
 */
const CLIENT_ADDRESS = `2001:db8:${crypto.randomUUID().slice(0, 4)}:${crypto.randomUUID().slice(0, 4)}::1`;

/** A request to the API as Netlify hands it to the function. */
function call(path: string, auth?: Auth) {
  const headers: Record<string, string> = { 'user-agent': 'wordpress-users-test' };
  if (auth) headers.authorization = `Basic ${Buffer.from(`${auth[0]}:${auth[1]}`).toString('base64')}`;
  return wordpressApi(new Request(`http://localhost:8888${path}`, { headers }), { ip: CLIENT_ADDRESS });
}

/** An answer's body: a list of items, or an object (one item, or an error with its parameters). */
type Body<Item> = Item[] & { id?: number; code?: string; data?: { status: number; params: Record<string, string> } };

async function json<Item = { id: number; [field: string]: unknown }>(path: string, auth?: Auth): Promise<{ status: number; body: Body<Item>; headers: Headers }> {
  const answer = await call(path, auth);
  return { status: answer.status, body: (await answer.json()) as Body<Item>, headers: answer.headers };
}

/** An application password of `email` for the organization, made through the API the back office calls. */
async function passwordOf(email: string, organizationId: string = seed.scalePro): Promise<Auth> {
  const client = await signedInClient(email);
  const { data, error } = await client.rpc('create_application_password', { p_organization_id: organizationId, p_name: `users-test-${crypto.randomUUID().slice(0, 6)}` });
  if (error) throw new Error(`create_application_password: ${error.message}`);
  made.push({ remove: async () => service.from('application_passwords').delete().eq('id', (data as { id: string }).id) });
  return [email, (data as { password: string }).password];
}

const wpIdOf = async (userId: string) => ((await service.from('profiles').select('wp_id').eq('id', userId).single()).data as { wp_id: number }).wp_id;
const ids = (items: { id: number }[]) => items.map((item) => item.id);

let wp: { admin: number; editor: number; viewer: number; otherAdmin: number };

beforeAll(async () => {
  admin = await passwordOf(seed.users.admin.email);
  // Viewers make no passwords: an editor's, then the member demoted to viewer (WordPress's subscriber).
  const demoted = await createMember('editor');
  made.push(demoted);
  viewer = await passwordOf(demoted.email);
  const { error } = await service.from('organization_memberships').update({ role: 'viewer' }).eq('user_id', demoted.id).eq('organization_id', seed.scalePro);
  if (error) throw new Error(`demoting to viewer: ${error.message}`);
  otherOrganizationAdmin = await passwordOf(seed.users.otherAdmin.email, seed.evergreen);
  wp = {
    admin: await wpIdOf(seed.users.admin.id),
    editor: await wpIdOf(seed.users.editor.id),
    viewer: await wpIdOf(seed.users.viewer.id),
    otherAdmin: await wpIdOf(seed.users.otherAdmin.id),
  };
});

afterAll(async () => {
  for (const each of made) await each.remove();
});

describe('users', () => {
  it("n8n's credential test: an editor's password lists the site's authors, in WordPress's public fields, with no e-mail", async () => {
    const { status, body, headers } = await json('/wp-json/wp/v2/users', editor);
    expect(status).toBe(200);
    expect(ids(body)).toEqual(expect.arrayContaining([wp.admin, wp.editor]));
    // The viewer has no post on the site; the other organization's admin is not a member.
    expect(ids(body)).not.toContain(wp.viewer);
    expect(ids(body)).not.toContain(wp.otherAdmin);
    expect(headers.get('x-wp-total')).toBe(String(body.length));
    for (const user of body) {
      expect(Object.keys(user).sort()).toEqual(['_links', 'avatar_urls', 'description', 'id', 'link', 'meta', 'name', 'slug', 'url']);
      expect(JSON.stringify(user)).not.toMatch(/@/);
    }
    const one = await json(`/wp-json/wp/v2/users/${wp.admin}`, editor);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: wp.admin, _links: { self: [{ href: `http://localhost:8888/wp-json/wp/v2/users/${wp.admin}` }] } });
  });

  it('an admin sees every active member; context=edit adds roles, never an e-mail; an editor asking for it is 403', async () => {
    const { body } = await json('/wp-json/wp/v2/users?context=edit&per_page=100', admin);
    expect(ids(body)).toEqual(expect.arrayContaining([wp.admin, wp.editor, wp.viewer]));
    expect(body.find((user) => user.id === wp.viewer)).toMatchObject({ roles: ['subscriber'], capabilities: { read: true } });
    expect(body.find((user) => user.id === wp.editor)).toMatchObject({ roles: ['editor'] });
    expect(JSON.stringify(body)).not.toMatch(/@/);
    const refused = await json('/wp-json/wp/v2/users?context=edit', editor);
    expect(refused).toMatchObject({ status: 403, body: { code: 'rest_forbidden_context' } });
    expect((await json(`/wp-json/wp/v2/users/${wp.admin}?context=edit`, editor)).status).toBe(403);
  });

  it('who=authors keeps those who may write; a viewer may not ask, and lists only the authors of the site', async () => {
    const authors = await json('/wp-json/wp/v2/users?who=authors&per_page=100', admin);
    expect(ids(authors.body)).toEqual(expect.arrayContaining([wp.admin, wp.editor]));
    expect(ids(authors.body)).not.toContain(wp.viewer);
    expect(await json('/wp-json/wp/v2/users?who=authors', viewer)).toMatchObject({ status: 403, body: { code: 'rest_forbidden_who' } });
    const listed = await json('/wp-json/wp/v2/users?per_page=100', viewer);
    expect(listed.status).toBe(200);
    expect(ids(listed.body)).not.toContain(wp.viewer);
    expect((await json(`/wp-json/wp/v2/users/${wp.viewer}`, editor)).body).toMatchObject({ code: 'rest_user_invalid_id', data: { status: 404 } });
  });

  it('searches names only: an e-mail address finds nobody', async () => {
    const name = ((await service.from('profiles').select('full_name').eq('id', seed.users.editor.id).single()).data as { full_name: string }).full_name;
    expect(ids((await json(`/wp-json/wp/v2/users?search=${encodeURIComponent(name.slice(0, 4))}`, admin)).body)).toContain(wp.editor);
    const byEmail = await json(`/wp-json/wp/v2/users?search=${encodeURIComponent(seed.users.editor.email)}`, admin);
    expect(byEmail.body).toEqual([]);
    expect(byEmail.headers.get('x-wp-total')).toBe('0');
  });

  it("refuses visitors, and shows nobody of another organization nor a deactivated member, whoever asks", async () => {
    expect(await json('/wp-json/wp/v2/users')).toMatchObject({ status: 401, body: { code: 'rest_not_logged_in' } });
    expect((await json(`/wp-json/wp/v2/users/${wp.admin}`)).status).toBe(401);
    expect((await json(`/wp-json/wp/v2/users/${wp.otherAdmin}`, admin)).status).toBe(404);
    // Another organization's password signs nobody in on this site.
    expect((await json('/wp-json/wp/v2/users?per_page=100', otherOrganizationAdmin)).body).toMatchObject({ code: 'incorrect_password', data: { status: 401 } });
    const member = await createMember('editor');
    made.push(member);
    const memberWpId = await wpIdOf(member.id);
    expect(ids((await json('/wp-json/wp/v2/users?per_page=100', admin)).body)).toContain(memberWpId);
    expect((await service.from('organization_memberships').update({ is_active: false }).eq('user_id', member.id).eq('organization_id', seed.scalePro)).error).toBeNull();
    expect(ids((await json('/wp-json/wp/v2/users?per_page=100', admin)).body)).not.toContain(memberWpId);
    expect((await json(`/wp-json/wp/v2/users/${memberWpId}`, admin)).status).toBe(404);
  });

  it('pages with Link headers beside the discovery link, and answers bad parameters with a 400 naming them', async () => {
    const first = await json('/wp-json/wp/v2/users?per_page=1&orderby=id', admin);
    const total = Number(first.headers.get('x-wp-total'));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(first.headers.get('x-wp-totalpages')).toBe(String(total));
    expect(first.headers.get('link')).toBe(
      '<http://localhost:8888/wp-json/wp/v2/users?per_page=1&orderby=id&page=2>; rel="next", <http://localhost:8888/wp-json/>; rel="https://api.w.org/"',
    );
    const second = await json('/wp-json/wp/v2/users?per_page=1&orderby=id&page=2', admin);
    expect(second.headers.get('link')).toContain('<http://localhost:8888/wp-json/wp/v2/users?per_page=1&orderby=id&page=1>; rel="prev"');
    expect(second.headers.get('link')).toContain('page=3>; rel="next"');
    expect(ids(second.body)[0]).toBeGreaterThan(ids(first.body)[0]!);
    for (const [query, param] of [['orderby=email', 'orderby'], ['who=everyone', 'who'], ['include=abc', 'include'], ['orderby=include', 'orderby']] as const) {
      const bad = await json(`/wp-json/wp/v2/users?${query}`, admin);
      expect(bad.status, query).toBe(400);
      expect(bad.body.data?.params, query).toHaveProperty(param);
    }
  });
});

describe('posts lists filtered as WordPress filters them', () => {
  type Post = { id: number; title: { rendered: string }; categories: number[]; tags: number[]; author: number; date: string };
  const posts = (query: string, auth?: Auth) => json<Post>(`/wp-json/wp/v2/posts?per_page=100&${query}`, auth);
  let all: Post[];
  beforeAll(async () => {
    all = (await posts('')).body;
    expect(all.length).toBeGreaterThan(4);
  });

  it('by category and tag, and without them', async () => {
    const category = all[0]!.categories[0]!;
    const inCategory = (await posts(`categories=${category}`)).body;
    expect(inCategory.length).toBeGreaterThan(0);
    expect(inCategory.length).toBeLessThan(all.length);
    expect(inCategory.every((post) => post.categories.includes(category))).toBe(true);
    const outside = (await posts(`categories_exclude=${category}`)).body;
    expect(outside.length).toBe(all.length - inCategory.length);
    expect(outside.some((post) => post.categories.includes(category))).toBe(false);

    const tag = all.find((post) => post.tags.length)!.tags[0]!;
    const tagged = (await posts(`tags=${tag}`)).body;
    expect(tagged.length).toBeGreaterThan(0);
    expect(tagged.every((post) => post.tags.includes(tag))).toBe(true);
    const untagged = (await posts(`tags_exclude=${tag}`)).body;
    expect(untagged.length).toBe(all.length - tagged.length);
    // An id that names nothing of the organization matches nothing.
    expect((await posts('categories=999999999')).body).toEqual([]);
  });

  it('by author, by post ids in the order given, and by date', async () => {
    const byAdmin = (await posts(`author=${wp.admin}`)).body;
    expect(byAdmin.length).toBeGreaterThan(0);
    expect(byAdmin.every((post) => post.author === wp.admin)).toBe(true);
    expect((await posts(`author_exclude=${wp.admin}`)).body.every((post) => post.author !== wp.admin)).toBe(true);
    const chosen = [all[3]!.id, all[0]!.id, all[2]!.id];
    expect(ids((await posts(`include=${chosen.join(',')}&orderby=include`)).body)).toEqual(chosen);
    // As in WordPress, the order of `include` is the list's, whatever `order` says.
    expect(ids((await posts(`include=${chosen.join(',')}&orderby=include&order=asc`)).body)).toEqual(chosen);
    expect(ids((await posts(`exclude=${chosen.join(',')}`)).body)).toEqual(ids(all).filter((id) => !chosen.includes(id)));
    const middle = all[2]!.date;
    const after = (await posts(`after=${middle}`)).body;
    const before = (await posts(`before=${middle}`)).body;
    expect(after.every((post) => post.date > middle)).toBe(true);
    expect(before.every((post) => post.date < middle)).toBe(true);
    expect(after.length + before.length).toBeLessThan(all.length + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(before.length).toBeGreaterThan(0);
  });

  it('ordered by title or date, either way; paged with Link headers; bad parameters are 400 naming them', async () => {
    const titles = (await posts('orderby=title&order=asc')).body.map((post) => post.title.rendered);
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    const oldestFirst = (await posts('order=asc')).body.map((post) => post.date);
    expect(oldestFirst).toEqual([...oldestFirst].sort());
    expect(oldestFirst).toEqual(all.map((post) => post.date).reverse());
    const page = await json('/wp-json/wp/v2/posts?per_page=2&page=2');
    expect(page.headers.get('link')).toMatch(/^<http:\/\/localhost:8888\/wp-json\/wp\/v2\/posts\?per_page=2&page=1>; rel="prev", <http:\/\/localhost:8888\/wp-json\/wp\/v2\/posts\?per_page=2&page=3>; rel="next", /);
    for (const [query, param] of [['orderby=popularity', 'orderby'], ['order=up', 'order'], ['categories=abc', 'categories'], ['orderby=relevance', 'orderby'], ['orderby=include', 'orderby'], ['after=yesterday', 'after']] as const) {
      const bad = await posts(query);
      expect(bad.status, query).toBe(400);
      expect(bad.body.data?.params, query).toHaveProperty(param);
    }
  });

  it('_embed gives each post its author, featured image, category and tags as the caller may read them; _embed=author only that', async () => {
    type Embedded = Post & { featured_media: number; _embedded: { author: { id: number; name: string }[]; 'wp:featuredmedia'?: { id: number; source_url: string }[]; 'wp:term': { id: number; taxonomy: string; name: string }[][] } };
    const embedded = (await json<Embedded>('/wp-json/wp/v2/posts?per_page=100&_embed')).body;
    const names = new Map(((await service.from('profiles').select('wp_id, full_name').in('wp_id', [wp.admin, wp.editor])).data as { wp_id: number; full_name: string }[]).map((row) => [row.wp_id, row.full_name]));
    for (const post of embedded) {
      expect(post._embedded.author.map((author) => [author.id, author.name])).toEqual([[post.author, names.get(post.author)]]);
      expect(JSON.stringify(post._embedded.author)).not.toMatch(/@/);
      expect(post._embedded['wp:term'][0]!.map((term) => [term.id, term.taxonomy])).toEqual(post.categories.map((id) => [id, 'category']));
      expect(post._embedded['wp:term'][1]!.map((term) => term.id)).toEqual(post.tags);
      if (post.featured_media) expect(post._embedded['wp:featuredmedia']![0]).toMatchObject({ id: post.featured_media, source_url: expect.stringMatching(/^http/) });
    }
    expect(embedded.some((post) => post.featured_media && post.tags.length)).toBe(true);
    const one = (await json<Embedded>(`/wp-json/wp/v2/posts/${embedded[0]!.id}?_embed=author`)).body as unknown as Embedded;
    expect(Object.keys(one._embedded)).toEqual(['author']);
    expect((await json<Embedded>('/wp-json/wp/v2/posts?per_page=1')).body[0]).not.toHaveProperty('_embedded');
  });

  it('keeps what a visitor may not read out of every filter: a draft named in include stays unlisted', async () => {
    const draft = ((await service.from('blog_posts').select('wp_id').eq('id', seed.draftPost).single()).data as { wp_id: number }).wp_id;
    expect((await posts(`include=${draft}`)).body).toEqual([]);
    expect(ids((await posts(`include=${draft}&status=draft`, editor)).body)).toEqual([draft]);
  });
});
