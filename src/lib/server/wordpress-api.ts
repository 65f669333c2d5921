/**
 * The WordPress REST API as publishing tools call it (`/wp-json/...`, or `/?rest_route=/...` where pretty links
 * are off), answered for the organization this site shows. WordPress's shapes throughout: errors are
 * `{ code, message, data: { status } }`, ids are integers, every answer carries the API's discovery link.
 *
 * Tools sign in with HTTP Basic auth: the member's e-mail and an application password made for this site's
 * organization (application-passwords.ts). A request without credentials is a visitor's: it may read the index,
 * nothing of a member. Routes: the index (`/`) and the `wp/v2` namespace, `users/me`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { authenticatePublisher, basicCredentials, type Publisher } from './application-passwords.ts';
import type { ClientInfo } from './login-attempts.ts';
import { apiRoot, discoveryLink } from '../wordpress-discovery.ts';

/** The namespace this API serves. */
export const WP_NAMESPACE = 'wp/v2';

/** What a request needs besides itself: the service client, the site's organization and address, the client. */
export interface WordPressContext {
  service: SupabaseClient;
  /** The organization this site shows; null when it shows none (a local site without one). */
  organizationId: string | null;
  /** The origin of the site's address (`https://www.example.com`). */
  siteAddress: string;
  siteName: string;
  client: ClientInfo;
}

/** A WordPress error answer: `{ code, message, data: { status } }` with that status. */
export function wpError(status: number, code: string, message: string, headers: HeadersInit = {}): Response {
  return wpJson({ code, message, data: { status } }, { status, headers });
}

/** A JSON answer with the headers WordPress sends on every REST answer. */
function wpJson(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=UTF-8');
  headers.set('x-robots-tag', 'noindex');
  headers.set('x-content-type-options', 'nosniff');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/**
 * The route a request names: the `rest_route` parameter (`/?rest_route=/wp/v2/posts`), else the path after
 * `/wp-json`; always starting with one slash, without a trailing one (`/` for the index).
 */
export function requestRoute(url: URL): string {
  const named = url.searchParams.get('rest_route') ?? url.pathname.replace(/^\/wp-json(?=\/|$)/, '');
  return `/${named.split('/').filter(Boolean).join('/')}`;
}

type Handler = (request: Request, context: WordPressContext, publisher: Publisher | null) => Promise<Response>;
type Route = { pattern: RegExp; methods: Record<string, Handler>; needsPublisher: boolean };

const ROUTES: Route[] = [
  { pattern: /^\/$/, methods: { GET: async (_request, context) => wpJson(indexDocument(context)) }, needsPublisher: false },
  { pattern: /^\/wp\/v2$/, methods: { GET: async (_request, context) => wpJson(namespaceDocument(context)) }, needsPublisher: false },
  { pattern: /^\/wp\/v2\/users\/me$/, methods: { GET: usersMe }, needsPublisher: true },
];

/** Answers one request to the API (any method, any route), with the discovery link. Throws only when the backend fails. */
export async function answerWordPressRequest(request: Request, context: WordPressContext): Promise<Response> {
  const response = await answer(request, context);
  response.headers.set('link', discoveryLink(context.siteAddress));
  return response;
}

async function answer(request: Request, context: WordPressContext): Promise<Response> {
  const url = new URL(request.url);
  const route = requestRoute(url);
  const found = ROUTES.find((candidate) => candidate.pattern.test(route));
  // WordPress lets a POST name another method in `_method` or X-HTTP-Method-Override (clients that can only
  // POST); never a GET, which a page elsewhere could make a browser send.
  const override = request.method === 'POST' ? (request.headers.get('x-http-method-override') ?? url.searchParams.get('_method')) : null;
  const method = (override ?? request.method).toUpperCase();
  const handler = found?.methods[method];
  if (!found || !handler || context.organizationId === null) {
    return wpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }
  const credentials = basicCredentials(request.headers.get('authorization'));
  let publisher: Publisher | null = null;
  if (credentials) {
    const check = await authenticatePublisher(context.service, context.organizationId, credentials, context.client);
    if (check.kind === 'locked') {
      const seconds = Math.max(1, Math.ceil((check.until.getTime() - Date.now()) / 1000));
      return wpError(429, 'too_many_retries', `Too many failed sign-in attempts. Try again in ${Math.ceil(seconds / 60)} minute(s).`, { 'retry-after': String(seconds) });
    }
    if (check.kind === 'refused') {
      return wpError(401, 'incorrect_password', 'The e-mail address or application password is not right for this site.');
    }
    publisher = check.publisher;
  }
  if (found.needsPublisher && !publisher) {
    return wpError(401, 'rest_not_logged_in', 'You are not currently logged in.');
  }
  return handler(request, context, publisher);
}

/** `GET /wp-json/`: the site and the routes a client may call, as WordPress's index describes them. */
function indexDocument(context: WordPressContext) {
  const root = apiRoot(context.siteAddress);
  return {
    name: context.siteName,
    description: '',
    url: context.siteAddress,
    home: context.siteAddress,
    gmt_offset: 0,
    timezone_string: 'UTC',
    namespaces: [WP_NAMESPACE],
    authentication: {
      'application-passwords': { endpoints: { authorization: `${context.siteAddress}/admin/profile` } },
    },
    routes: {
      '/': routeDescription(['GET'], root),
      [`/${WP_NAMESPACE}`]: { namespace: WP_NAMESPACE, ...routeDescription(['GET'], `${root}${WP_NAMESPACE}`) },
      ...namespaceRoutes(root),
    },
    site_logo: 0,
    site_icon: 0,
    site_icon_url: '',
    _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
  };
}

/** `GET /wp-json/wp/v2`: the namespace and its routes. */
function namespaceDocument(context: WordPressContext) {
  return { namespace: WP_NAMESPACE, routes: namespaceRoutes(apiRoot(context.siteAddress)), _links: { up: [{ href: apiRoot(context.siteAddress) }] } };
}

function namespaceRoutes(root: string) {
  return {
    [`/${WP_NAMESPACE}/users/me`]: { namespace: WP_NAMESPACE, ...routeDescription(['GET'], `${root}${WP_NAMESPACE}/users/me`) },
  };
}

function routeDescription(methods: string[], href: string) {
  return { methods, endpoints: [{ methods, args: {} }], _links: { self: [{ href }] } };
}

/** WordPress's role names: an admin is an administrator; a viewer, who cannot publish, a subscriber. */
const WP_ROLES: Record<Publisher['role'], string> = { admin: 'administrator', editor: 'editor', viewer: 'subscriber' };

/** What each role may do, in WordPress's capability names (clients check `publish_posts` and `upload_files`). */
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
    delete_others_posts: true,
    upload_files: true,
    manage_categories: true,
    unfiltered_html: false,
    [WP_ROLES[role]]: true,
  };
  return role === 'admin' ? { ...editor, list_users: true, manage_options: true } : editor;
}

/** `GET /wp-json/wp/v2/users/me`: the signed-in member (with `context=edit`, their e-mail, roles and capabilities). */
async function usersMe(request: Request, context: WordPressContext, publisher: Publisher | null): Promise<Response> {
  const member = publisher!;
  const { data, error } = await context.service.from('profiles').select('wp_id, email, full_name, created_at').eq('id', member.userId).single();
  if (error) throw new Error(`reading the profile of ${member.userId} failed: ${error.message}`);
  const profile = data as { wp_id: number; email: string; full_name: string | null; created_at: string };
  const name = profile.full_name?.trim() || profile.email;
  const [firstName, ...rest] = (profile.full_name?.trim() ?? '').split(/\s+/);
  const base = {
    id: profile.wp_id,
    name,
    url: '',
    description: '',
    link: `${context.siteAddress}/blog`,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''),
    avatar_urls: {},
    meta: [],
    _links: { self: [{ href: `${apiRoot(context.siteAddress)}${WP_NAMESPACE}/users/${profile.wp_id}` }] },
  };
  if (new URL(request.url).searchParams.get('context') !== 'edit') return wpJson(base);
  return wpJson({
    ...base,
    username: profile.email,
    email: profile.email,
    first_name: firstName ?? '',
    last_name: rest.join(' '),
    nickname: name,
    locale: 'en_US',
    registered_date: new Date(profile.created_at).toISOString().replace(/\.\d{3}Z$/, '+00:00'),
    roles: [WP_ROLES[member.role]],
    capabilities: capabilities(member.role),
    extra_capabilities: { [WP_ROLES[member.role]]: true },
  });
}
