/**
 * `wp/v2/users` of the WordPress-compatible API: the people of the site's organization as WordPress shows them
 * to a signed-in tool (n8n's credential test is `GET /users`; its author picker and mcp-wordpress list them).
 *
 * - Only a signed-in member (an application password of this organization) reads users; a visitor is 401.
 *   The site's pages show each post's author already; the API does not list an organization's people to anyone.
 * - Who is listed: the organization's active members. An admin (WordPress's `list_users`) sees every one; an
 *   editor or a viewer, as WordPress shows users to those without `list_users`, only the members who have a
 *   post on the site. `who=authors` keeps the members who may write posts (editors and admins), and asks for
 *   the right to write (a viewer is 403, as WordPress's `rest_forbidden_who`).
 * - What is shown: WordPress's public fields (id, name, slug, link, avatar_urls...). `context=edit` (admins
 *   only, as in WordPress) adds the roles and the registration date, never another member's e-mail address;
 *   `users/me` shows the caller their own. `search` looks through names only, so no e-mail address can be
 *   probed through it.
 */
import type { Publisher } from './application-passwords.ts';
import { WpUserListSchema, type WpUserListQuery } from '../../schemas/wordpress.ts';
import { collection, type Handler, invalidFromZod, queryObject, type WordPressRequest, wpError, wpJson, wpLink } from './wordpress-rest.ts';

/** WordPress's role names: an admin is an administrator; a viewer, who cannot publish, a subscriber. */
const WP_ROLES: Record<Publisher['role'], string> = { admin: 'administrator', editor: 'editor', viewer: 'subscriber' };

/** An active member of the organization, as the list reads them. */
type Member = { userId: string; wpId: number; name: string; login: string; email: string; fullName: string; role: Publisher['role']; registered: string };

export const userRoutes: Record<string, Handler> = { GET: listUsers };
export const userRoutesById: Record<string, Handler> = { GET: getUser };
export const userRoutesMe: Record<string, Handler> = { GET: usersMe };

/**
 * What each role may do, in WordPress's capability names (clients check `publish_posts` and `upload_files`):
 * exactly what the database lets the role do through this API and the back office. Editors and admins write
 * and publish any post of the organization; an editor deletes only their own posts, an admin any
 * (private.may_delete_post, which the delete policy and delete_arrived_post share).
 */
function capabilities(role: Publisher['role']): Record<string, boolean> {
  const reader = { read: true };
  if (role === 'viewer') return { ...reader, subscriber: true };
  const editor = {
    ...reader,
    edit_posts: true,
    edit_published_posts: true,
    edit_others_posts: true,
    publish_posts: true,
    delete_posts: true,
    delete_published_posts: true,
    delete_others_posts: role === 'admin',
    upload_files: true,
    manage_categories: true,
    unfiltered_html: false,
    [WP_ROLES[role]]: true,
  };
  return role === 'admin' ? { ...editor, list_users: true, manage_options: true } : editor;
}

/** The organization's active members (active accounts with an active membership), read with the service role. */
async function activeMembers(call: WordPressRequest): Promise<Member[]> {
  const { data, error } = await call.context.service
    .from('organization_memberships')
    .select('role, profile:profiles!inner(id, wp_id, user_login, email, full_name, created_at, is_active)')
    .eq('organization_id', call.context.organizationId)
    .eq('is_active', true);
  if (error) throw new Error(`reading the organization's members failed: ${error.message}`);
  type Row = { role: Publisher['role']; profile: { id: string; wp_id: number; user_login: string; email: string; full_name: string | null; created_at: string; is_active: boolean } };
  return (data as unknown as Row[])
    .filter(({ profile }) => profile.is_active)
    .map(({ role, profile }) => ({
      userId: profile.id,
      wpId: profile.wp_id,
      name: displayName(profile),
      login: profile.user_login,
      email: profile.email,
      fullName: profile.full_name?.trim() ?? '',
      role,
      registered: profile.created_at,
    }));
}

/** The members this caller may see: every one for an admin; for others, those with a post on the site. */
async function visibleMembers(call: WordPressRequest): Promise<Member[]> {
  const members = await activeMembers(call);
  if (call.publisher!.role === 'admin') return members;
  const now = new Date().toISOString();
  const onSite = await Promise.all(
    members.map(async (member) => {
      const { count, error } = await call.context.service
        .from('blog_posts')
        .select('id', { count: 'exact', head: true })
        .eq('organization_id', call.context.organizationId)
        .eq('author_id', member.userId)
        .eq('status', 'published')
        .lte('published_at', now);
      if (error) throw new Error(`reading the posts of a member failed: ${error.message}`);
      return (count ?? 0) > 0;
    }),
  );
  return members.filter((_, index) => onSite[index]);
}

const slugOf = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

/** The name a person is shown by: their full name, else the part of their e-mail before the @ (never the whole). */
const displayName = (profile: { full_name: string | null; email: string }) => profile.full_name?.trim() || profile.email.split('@')[0]!;

/** WordPress's public fields of a user (what anyone who may see them is shown). */
function publicUser(call: WordPressRequest, wpId: number, name: string) {
  return {
    id: wpId,
    name,
    url: '',
    description: '',
    link: `${call.context.siteAddress}/blog`,
    slug: slugOf(name),
    avatar_urls: {},
    meta: [],
    _links: { self: [{ href: wpLink(call.context.siteAddress, `users/${wpId}`) }], collection: [{ href: wpLink(call.context.siteAddress, 'users') }] },
  };
}

/** A member in WordPress's shape; with `edit` (an admin's `context=edit`), their roles and registration too. */
function wpUser(call: WordPressRequest, member: Member, edit: boolean) {
  const base = publicUser(call, member.wpId, member.name);
  if (!edit) return base;
  const [firstName, ...rest] = member.fullName.split(/\s+/);
  return {
    ...base,
    first_name: firstName ?? '',
    last_name: rest.join(' '),
    nickname: member.name,
    registered_date: new Date(member.registered).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    roles: [WP_ROLES[member.role]],
    capabilities: capabilities(member.role),
    extra_capabilities: { [WP_ROLES[member.role]]: true },
  };
}

/**
 * The authors of posts the caller reads, in WordPress's public fields, by id (posts' `_embed`): the name the
 * site's pages show under each post, for visitors too; never more.
 */
export async function embeddableAuthors(call: WordPressRequest, wpIds: number[]): Promise<Map<number, ReturnType<typeof publicUser>>> {
  if (wpIds.length === 0) return new Map();
  const { data, error } = await call.context.service.from('profiles').select('wp_id, email, full_name').in('wp_id', [...new Set(wpIds)]);
  if (error) throw new Error(`reading the authors failed: ${error.message}`);
  return new Map((data as { wp_id: number; email: string; full_name: string | null }[]).map((row) => [row.wp_id, publicUser(call, row.wp_id, displayName(row))]));
}

/** `context=edit` is an admin's (WordPress's `list_users`); anyone else asking for it is 403. */
function editContext(call: WordPressRequest): boolean | Response {
  if (call.url.searchParams.get('context') !== 'edit') return false;
  if (call.publisher!.role !== 'admin') return wpError(403, 'rest_forbidden_context', 'Sorry, you are not allowed to list users.');
  return true;
}

/** Orders members as `orderby`/`order` ask (by name, then id, so equal names keep one order). */
function ordered(members: Member[], query: WpUserListQuery): Member[] {
  const include = query.include ?? [];
  const key: Record<WpUserListQuery['orderby'], (member: Member) => string | number> = {
    id: (member) => member.wpId,
    include: (member) => include.indexOf(member.wpId),
    name: (member) => member.name.toLowerCase(),
    registered_date: (member) => member.registered,
    slug: (member) => slugOf(member.name),
  };
  const by = key[query.orderby];
  // The order of `include` is the list's, whatever `order` says (as WordPress orders posts by it).
  const sign = query.order === 'asc' || query.orderby === 'include' ? 1 : -1;
  return [...members].sort((a, b) => {
    const [x, y] = [by(a), by(b)];
    return (x < y ? -sign : x > y ? sign : 0) || a.wpId - b.wpId;
  });
}

/** `GET /users`: a page of the members the caller may see (`who`, `search`, `include`, `exclude`, order, paging). */
async function listUsers(call: WordPressRequest): Promise<Response> {
  const parsed = WpUserListSchema.safeParse(queryObject(call.url));
  if (!parsed.success) return invalidFromZod(parsed.error);
  const query = parsed.data;
  const edit = editContext(call);
  if (edit instanceof Response) return edit;
  if (query.who === 'authors' && call.publisher!.role === 'viewer') {
    return wpError(403, 'rest_forbidden_who', 'Sorry, you are not allowed to query users by this parameter.');
  }
  const search = query.search?.toLowerCase();
  const members = (await visibleMembers(call)).filter(
    (member) =>
      (query.who !== 'authors' || member.role !== 'viewer') &&
      (!search || member.name.toLowerCase().includes(search)) &&
      (!query.include || query.include.includes(member.wpId)) &&
      !query.exclude?.includes(member.wpId),
  );
  const { page, per_page: perPage } = query;
  const items = ordered(members, query).slice((page - 1) * perPage, page * perPage).map((member) => wpUser(call, member, edit));
  return collection(items, members.length, page, perPage, call.url);
}

/** `GET /users/{id}`: one member the caller may see; any other id is WordPress's 404. */
async function getUser(call: WordPressRequest): Promise<Response> {
  const edit = editContext(call);
  if (edit instanceof Response) return edit;
  const member = (await visibleMembers(call)).find((each) => each.wpId === call.id);
  if (!member) return wpError(404, 'rest_user_invalid_id', 'Invalid user ID.');
  return wpJson(wpUser(call, member, edit));
}

/**
 * `GET /users/me`: the signed-in member (with `context=edit`, their user name, e-mail, roles and capabilities:
 * `username` is what they may sign in with instead of the e-mail).
 */
async function usersMe(call: WordPressRequest): Promise<Response> {
  const publisher = call.publisher!;
  const member = (await activeMembers(call)).find((each) => each.userId === publisher.userId);
  if (!member) return wpError(401, 'rest_not_logged_in', 'You are not currently logged in.');
  if (call.url.searchParams.get('context') !== 'edit') return wpJson(wpUser(call, member, false));
  return wpJson({ ...wpUser(call, member, true), username: member.login, email: member.email, locale: 'en_US', roles: [WP_ROLES[publisher.role]], capabilities: capabilities(publisher.role) });
}
