/**
 * `/xmlrpc.php`: WordPress's XML-RPC API, for the writing apps that speak it (MarsEdit, Open Live Writer, Drafts,
 * Markdown Monster, the WordPress mobile apps) and find it through the RSD document (`/xmlrpc.php?rsd`, named by
 * every page's `<link rel="EditURI">`). The WordPress, MetaWeblog, Blogger and Movable Type methods those apps
 * call are answered by calling the REST API of this site (wordpress-api.ts) as the app's user: every rule of the
 * REST API holds here unchanged (the application password and the sign-in lockout, roles, the arrival path and
 * the organization's choice for arrivals, the trash, the limits, the rebuild), and nothing is written twice.
 *
 * - Users sign in with their user name (or e-mail) and an application password, as apps send them in each call.
 *   A refusal is WordPress's fault 403 "Incorrect username or password."; what a role may not do is 401.
 * - Deleting a post (`wp.deletePost`, `blogger.deletePost`) moves it to the trash, as WordPress's XML-RPC does.
 * - `system.multicall` runs at most MULTICALL_LIMIT calls: the amplification WordPress sites are attacked with
 *   (hundreds of password guesses in one request) is refused, and each guess counts toward the lockout anyway.
 * - Not offered (answered as empty lists or faults naming them): pages, comments, private posts, users other than
 *   the authors list, post revisions.
 */
import { FUNCTION_BODY_LIMIT_BYTES, HttpError, readText } from './http.ts';
import type { WordPressContext } from './wordpress-rest.ts';
import { me, type Method, type MethodCall, ok, restAs } from './wordpress-xmlrpc-call.ts';
import { POST_METHODS } from './wordpress-xmlrpc-posts.ts';
import { faultResponse, INVALID_PARAMS, methodResponse, NO_SUCH_METHOD, parseMethodCall, type XmlRpcStruct, type XmlRpcValue, XmlRpcFault, escapeXml } from './xmlrpc.ts';

/** At most this many calls in one `system.multicall`. */
export const MULTICALL_LIMIT = 20;

/** Answers one request to `/xmlrpc.php`. Throws only when the backend fails. */
export async function answerXmlRpc(request: Request, context: WordPressContext): Promise<Response> {
  const url = new URL(request.url);
  if (request.method === 'GET' || request.method === 'HEAD') {
    if (url.searchParams.has('rsd')) return xml(rsdDocument(context.siteAddress));
    return new Response('XML-RPC server accepts POST requests only.', { status: 405, headers: { allow: 'POST', 'content-type': 'text/plain; charset=UTF-8' } });
  }
  if (request.method !== 'POST') return new Response('XML-RPC server accepts POST requests only.', { status: 405, headers: { allow: 'POST' } });
  let body: string;
  try {
    body = await readText(request, { maxBytes: FUNCTION_BODY_LIMIT_BYTES });
  } catch (error) {
    if (error instanceof HttpError) return xml(faultResponse(new XmlRpcFault(error.status, error.message)), error.status);
    throw error;
  }
  try {
    const { methodName, params } = parseMethodCall(body);
    return xml(methodResponse(await run(methodName, params, request, context, 0)));
  } catch (error) {
    if (error instanceof XmlRpcFault) return xml(faultResponse(error));
    throw error;
  }
}

async function run(methodName: string, params: XmlRpcValue[], request: Request, context: WordPressContext, depth: number): Promise<XmlRpcValue> {
  if (methodName === 'system.multicall') return multicall(params, request, context, depth);
  const method = METHODS[methodName];
  if (!method) throw new XmlRpcFault(NO_SUCH_METHOD, `server error. requested method ${methodName} does not exist.`);
  return method({ params, context, as: (index) => restAs(request, context, params[index], params[index + 1]) });
}

/** `system.multicall`: each call's answer as a one-item array, or its fault as a struct, in order. */
async function multicall(params: XmlRpcValue[], request: Request, context: WordPressContext, depth: number): Promise<XmlRpcValue> {
  const calls = params[0];
  if (depth > 0) throw new XmlRpcFault(INVALID_PARAMS, 'system.multicall cannot call itself.');
  if (!Array.isArray(calls)) throw new XmlRpcFault(INVALID_PARAMS, 'system.multicall takes an array of calls.');
  if (calls.length > MULTICALL_LIMIT) throw new XmlRpcFault(INVALID_PARAMS, `system.multicall takes at most ${MULTICALL_LIMIT} calls.`);
  const answers: XmlRpcValue[] = [];
  for (const each of calls) {
    const call = each as XmlRpcStruct;
    try {
      if (typeof call?.methodName !== 'string' || !Array.isArray(call.params)) throw new XmlRpcFault(INVALID_PARAMS, 'Each call needs a methodName and params.');
      answers.push([await run(call.methodName, call.params, request, context, depth + 1)]);
    } catch (error) {
      if (!(error instanceof XmlRpcFault)) throw error;
      answers.push({ faultCode: error.code, faultString: error.message });
    }
  }
  return answers;
}

function xml(text: string, status = 200): Response {
  return new Response(text, { status, headers: { 'content-type': 'text/xml; charset=UTF-8', 'x-robots-tag': 'noindex', 'cache-control': 'no-store' } });
}

/** Really Simple Discovery: where this site's publishing APIs are, as WordPress describes its own. */
export function rsdDocument(siteAddress: string): string {
  const endpoint = escapeXml(`${siteAddress}/xmlrpc.php`);
  const api = (name: string, preferred: boolean, link = endpoint) => `      <api name="${name}" blogID="1" preferred="${preferred}" apiLink="${link}" />`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rsd version="1.0" xmlns="http://archipelago.phrasewise.com/rsd">',
    '  <service>',
    '    <engineName>WordPress</engineName>',
    '    <engineLink>https://wordpress.org/</engineLink>',
    `    <homePageLink>${escapeXml(siteAddress)}</homePageLink>`,
    '    <apis>',
    api('WordPress', true),
    api('Movable Type', false),
    api('MetaWeblog', false),
    api('Blogger', false),
    api('WP-API', false, escapeXml(`${siteAddress}/wp-json/`)),
    '    </apis>',
    '  </service>',
    '</rsd>',
    '',
  ].join('\n');
}

/** The one blog of this site, as `wp.getUsersBlogs` lists it. */
async function usersBlogs(call: MethodCall, userIndex: number): Promise<XmlRpcValue> {
  const user = await me(call.as(userIndex));
  const { siteAddress, siteName } = call.context;
  return [{ isAdmin: user.roles.includes('administrator'), url: `${siteAddress}/`, blogid: '1', blogName: siteName, xmlrpc: `${siteAddress}/xmlrpc.php` }];
}

/** WordPress's options as `wp.getOptions` answers them (read-only here: the site's settings live in the back office). */
async function options(call: MethodCall): Promise<XmlRpcValue> {
  await me(call.as(1));
  const { siteAddress, siteName } = call.context;
  const all: XmlRpcStruct = {
    software_version: { desc: 'Software Version', readonly: true, value: '6.7' },
    blog_url: { desc: 'WordPress Address (URL)', readonly: true, value: siteAddress },
    home_url: { desc: 'Site Address (URL)', readonly: true, value: siteAddress },
    login_url: { desc: 'Login Address (URL)', readonly: true, value: `${siteAddress}/auth` },
    admin_url: { desc: 'The URL to the admin area', readonly: true, value: `${siteAddress}/admin` },
    blog_title: { desc: 'Site Title', readonly: true, value: siteName },
    blog_tagline: { desc: 'Site Tagline', readonly: true, value: '' },
    time_zone: { desc: 'Time Zone', readonly: true, value: '0' },
    date_format: { desc: 'Date Format', readonly: true, value: 'F j, Y' },
    time_format: { desc: 'Time Format', readonly: true, value: 'g:i a' },
    post_thumbnail: { desc: 'Post Thumbnail', readonly: true, value: true },
    image_default_link_type: { desc: 'Image default link type', readonly: true, value: 'none' },
    default_comment_status: { desc: 'Allow people to post comments on new articles', readonly: true, value: 'closed' },
  };
  const asked = Array.isArray(call.params[3]) ? call.params[3].filter((name): name is string => typeof name === 'string') : [];
  return asked.length ? Object.fromEntries(asked.filter((name) => name in all).map((name) => [name, all[name]!])) : all;
}

/** `wp.getProfile`: the signed-in user as WordPress describes them. */
async function profile(call: MethodCall): Promise<XmlRpcValue> {
  const user = await me(call.as(1));
  return {
    user_id: String(user.id),
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    registered: new Date(user.registered_date),
    bio: '',
    email: user.email,
    nickname: user.name,
    nicename: user.username,
    url: '',
    display_name: user.name,
    roles: user.roles,
  };
}

/** `blogger.getUserInfo` (appkey, user, password). */
async function userInfo(call: MethodCall): Promise<XmlRpcValue> {
  const user = await me(call.as(1));
  return { nickname: user.name, userid: String(user.id), url: '', lastname: user.last_name, firstname: user.first_name, email: user.email };
}

/** `wp.getAuthors`: the members who may write posts (editors and admins), as the REST API's `who=authors` lists them. */
async function authors(call: MethodCall): Promise<XmlRpcValue> {
  const rest = call.as(1);
  const list: { id: number; name: string; slug: string }[] = [];
  for (let page = 1; ; page++) {
    const batch = ok(await rest('GET', 'users', { query: { who: 'authors', per_page: 100, page } })) as { id: number; name: string; slug: string }[];
    list.push(...batch);
    if (batch.length < 100) break;
  }
  return list.map((user) => ({ user_id: String(user.id), user_login: user.slug, display_name: user.name }));
}

/** A method that only checks the user and answers a constant (what the site does not have: pages, comments…). */
const signedInConstant = (userIndex: number, value: XmlRpcValue): Method => async (call) => {
  await me(call.as(userIndex));
  return value;
};

const METHODS: Record<string, Method> = {
  'system.listMethods': async () => ['system.multicall', ...Object.keys(METHODS)].sort(),
  'system.getCapabilities': async () => ({
    xmlrpc: { specUrl: 'http://www.xmlrpc.com/spec', specVersion: 1 },
    faults_interop: { specUrl: 'http://xmlrpc-epi.sourceforge.net/specs/rfc.fault_codes.php', specVersion: 20010516 },
    system_multicall: { specUrl: 'http://www.xmlrpc.com/discuss/msgReader$1208', specVersion: 1 },
  }),
  'demo.sayHello': async () => 'Hello!',
  'demo.addTwoNumbers': async ({ params }) => {
    const [a, b] = params;
    if (typeof a !== 'number' || typeof b !== 'number') throw new XmlRpcFault(INVALID_PARAMS, 'demo.addTwoNumbers takes two numbers.');
    return a + b;
  },
  'wp.getUsersBlogs': (call) => usersBlogs(call, 0),
  'blogger.getUsersBlogs': (call) => usersBlogs(call, 1),
  'blogger.getUserInfo': userInfo,
  'wp.getProfile': profile,
  'wp.getOptions': options,
  'wp.getAuthors': authors,
  'wp.getPages': signedInConstant(1, []),
  'wp.getPageList': signedInConstant(1, []),
  'wp.getComments': signedInConstant(1, []),
  'wp.getCommentCount': signedInConstant(1, { approved: 0, awaiting_moderation: 0, spam: 0, total_comments: 0 }),
  'mt.supportedTextFilters': async () => [],
  ...POST_METHODS,
};
