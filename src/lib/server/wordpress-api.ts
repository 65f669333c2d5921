/**
 * The WordPress REST API as publishing tools call it (`/wp-json/...`, or `/?rest_route=/...` where pretty links
 * are off), answered for the organization this site shows. WordPress's shapes throughout: errors are
 * `{ code, message, data: { status } }`, ids are integers, every answer carries the API's discovery link.
 *
 * Tools sign in with HTTP Basic auth: the member's e-mail or user name and an application password made for this
 * site's organization (application-passwords.ts). A request without credentials is a visitor's: it may read the index
 * and what the site shows anyway (published posts, categories, tags), nothing of a member. Routes: the index
 * (`/`) and the `wp/v2` namespace, `users` (wordpress-users.ts), `types`, `statuses`, `posts` (wordpress-posts.ts),
 * `categories` and `tags` (wordpress-terms.ts), `media` (wordpress-media.ts).
 */
import { authenticatePublisher, basicCredentials, type Publisher } from './application-passwords.ts';
import { apiRoot, discoveryLink } from '../wordpress-discovery.ts';
import { mediaRoutes, mediaRoutesById } from './wordpress-media.ts';
import { postRoutes, postRoutesById } from './wordpress-posts.ts';
import { gmtOffsetHours, type Handler, type WordPressContext, wpError, wpJson, wpLink, WP_NAMESPACE } from './wordpress-rest.ts';
import { categoryRoutes, tagRoutes } from './wordpress-terms.ts';
import { userRoutes, userRoutesById, userRoutesMe } from './wordpress-users.ts';

/**
 * The route a request names: the `rest_route` parameter (`/?rest_route=/wp/v2/posts`), else the path after
 * `/wp-json`; always starting with one slash, without a trailing one (`/` for the index).
 */
export function requestRoute(url: URL): string {
  const named = url.searchParams.get('rest_route') ?? url.pathname.replace(/^\/wp-json(?=\/|$)/, '');
  return `/${named.split('/').filter(Boolean).join('/')}`;
}

/** An id in a route's path, in WordPress's notation (the index shows routes so). */
const ID = '(?P<id>[\\d]+)';

/** A route: its path as the index shows it, what each method does, whether a visitor may not call it. */
type Route = { path: string; pattern: RegExp; methods: Record<string, Handler>; needsPublisher: boolean };

const route = (path: string, methods: Record<string, Handler>, needsPublisher = false): Route => ({
  path,
  pattern: new RegExp(`^${path.replace(ID, '(\\d+)')}$`),
  methods,
  needsPublisher,
});

const ROUTES: Route[] = [
  route('/', { GET: async ({ context }) => wpJson(indexDocument(context)) }),
  route(`/${WP_NAMESPACE}`, { GET: async ({ context }) => wpJson(namespaceDocument(context)) }),
  route(`/${WP_NAMESPACE}/users`, userRoutes, true),
  route(`/${WP_NAMESPACE}/users/me`, userRoutesMe, true),
  route(`/${WP_NAMESPACE}/users/${ID}`, userRoutesById, true),
  route(`/${WP_NAMESPACE}/types`, { GET: async ({ context }) => wpJson({ post: postType(context.siteAddress) }) }),
  route(`/${WP_NAMESPACE}/types/post`, { GET: async ({ context }) => wpJson(postType(context.siteAddress)) }),
  route(`/${WP_NAMESPACE}/statuses`, { GET: async () => wpJson(STATUSES) }),
  route(`/${WP_NAMESPACE}/posts`, postRoutes),
  route(`/${WP_NAMESPACE}/posts/${ID}`, postRoutesById),
  route(`/${WP_NAMESPACE}/categories`, categoryRoutes.collection),
  route(`/${WP_NAMESPACE}/categories/${ID}`, categoryRoutes.byId),
  route(`/${WP_NAMESPACE}/tags`, tagRoutes.collection),
  route(`/${WP_NAMESPACE}/tags/${ID}`, tagRoutes.byId),
  route(`/${WP_NAMESPACE}/media`, mediaRoutes),
  route(`/${WP_NAMESPACE}/media/${ID}`, mediaRoutesById),
];

/** Answers one request to the API (any method, any route), with the discovery link. Throws only when the backend fails. */
export async function answerWordPressRequest(request: Request, context: WordPressContext): Promise<Response> {
  const response = await answer(request, context);
  // Beside a collection's links to its pages, as WordPress sends both.
  response.headers.append('link', discoveryLink(context.siteAddress));
  return response;
}

async function answer(request: Request, context: WordPressContext): Promise<Response> {
  const url = new URL(request.url);
  const route = requestRoute(url);
  const found = ROUTES.find((candidate) => candidate.pattern.test(route));
  // An id past the safe integers is no row's (the ids are identities counting from 1): it reads as id 0, which
  // each route answers with its own 404, rather than reaching the database as a number it cannot take.
  const digits = found ? route.match(found.pattern)![1] : undefined;
  const id = digits === undefined ? null : Number.isSafeInteger(Number(digits)) ? Number(digits) : 0;
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
      return wpError(401, 'incorrect_password', 'The user name, e-mail address or application password is not right for this site.');
    }
    publisher = check.publisher;
  }
  if (found.needsPublisher && !publisher) {
    return wpError(401, 'rest_not_logged_in', 'You are not currently logged in.');
  }
  return handler({ request, url, context: { ...context, organizationId: context.organizationId }, publisher, id });
}

/** `GET /wp-json/`: the site and the routes a client may call, as WordPress's index describes them. */
function indexDocument(context: WordPressContext) {
  const root = apiRoot(context.siteAddress);
  return {
    name: context.siteName,
    description: '',
    url: context.siteAddress,
    home: context.siteAddress,
    gmt_offset: gmtOffsetHours(context.timeZone),
    timezone_string: context.timeZone,
    namespaces: [WP_NAMESPACE],
    authentication: {
      'application-passwords': { endpoints: { authorization: `${context.siteAddress}/wp-admin/authorize-application.php` } },
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

/** The namespace's routes as the index lists them (a route with an id has no link of its own). */
function namespaceRoutes(root: string) {
  return Object.fromEntries(
    ROUTES.filter(({ path }) => path.startsWith(`/${WP_NAMESPACE}/`)).map(({ path, methods }) => [
      path,
      { namespace: WP_NAMESPACE, ...routeDescription(Object.keys(methods), path.includes(ID) ? null : `${root}${path.slice(1)}`) },
    ]),
  );
}

function routeDescription(methods: string[], href: string | null) {
  return { methods, endpoints: [{ methods, args: {} }], ...(href ? { _links: { self: [{ href }] } } : {}) };
}

/** `GET /wp-json/wp/v2/types/post`: the one post type, with the taxonomies it takes. */
function postType(siteAddress: string) {
  return {
    description: '',
    hierarchical: false,
    has_archive: false,
    name: 'Posts',
    slug: 'post',
    icon: 'dashicons-admin-post',
    taxonomies: ['category', 'post_tag'],
    rest_base: 'posts',
    rest_namespace: WP_NAMESPACE,
    _links: { collection: [{ href: wpLink(siteAddress, 'types') }], 'wp:items': [{ href: wpLink(siteAddress, 'posts') }] },
  };
}

/** `GET /wp-json/wp/v2/statuses`: the statuses a post may be given (pending is kept as a draft). */
const STATUSES = Object.fromEntries(
  [
    ['publish', 'Published', true],
    ['future', 'Scheduled', false],
    ['draft', 'Draft', false],
    ['pending', 'Pending', false],
  ].map(([slug, name, isPublic]) => [slug, { name, public: isPublic, queryable: isPublic, slug, date_floating: slug === 'draft' || slug === 'pending' }]),
);
