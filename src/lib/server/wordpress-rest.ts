/**
 * What every route of the WordPress-compatible API shares (wordpress-api.ts routes; wordpress-posts.ts,
 * wordpress-terms.ts and wordpress-media.ts answer): the request's context, who may write, WordPress's answer shapes (JSON with its headers, errors as
 * `{ code, message, data: { status } }`, invalid parameters named one by one, collections with `X-WP-Total` and
 * `X-WP-TotalPages`, a page past the end), and reading a body as WordPress does (JSON or form fields).
 */
import { TZDate } from '@date-fns/tz';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { z } from 'zod';
import { apiRoot } from '../wordpress-discovery.ts';
import type { Publisher } from './application-passwords.ts';
import { FUNCTION_BODY_LIMIT_BYTES, HttpError, readText } from './http.ts';
import type { ClientInfo } from './login-attempts.ts';

/** The namespace this API serves. */
export const WP_NAMESPACE = 'wp/v2';

/** The address of a route of the namespace, as answers link to it: `wpLink(site, 'posts/12')` is `<site>/wp-json/wp/v2/posts/12`. */
export function wpLink(siteAddress: string, route: string): string {
  return `${apiRoot(siteAddress)}${WP_NAMESPACE}/${route}`;
}

/** What a request needs besides itself: the backend's clients, the site's organization and address, the client. */
export interface WordPressContext {
  service: SupabaseClient;
  /**
   * A client with the anon key: what a visitor (or a viewer, who reads as one) reads comes through it, so the
   * database's row-level security decides what is public (a published post whose time has come, the featured
   * images and authors of such posts), exactly as for the site and the anon REST API.
   */
  visitor: SupabaseClient;
  /** The organization this site shows; null when it shows none (a local site without one). */
  organizationId: string | null;
  /** The origin of the site's address (`https://www.example.com`). */
  siteAddress: string;
  siteName: string;
  /** The organization's time zone (its publishing queue's): `date` fields are wall times in it, as WordPress's. */
  timeZone: string;
  client: ClientInfo;
}

/** A request the router matched: the signed-in member (null for a visitor) and the route's id, when it has one. */
export interface WordPressRequest {
  request: Request;
  url: URL;
  context: WordPressContext & { organizationId: string };
  publisher: Publisher | null;
  id: number | null;
}

export type Handler = (call: WordPressRequest) => Promise<Response>;

/** A JSON answer with the headers WordPress sends on every REST answer. */
export function wpJson(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=UTF-8');
  headers.set('x-robots-tag', 'noindex');
  headers.set('x-content-type-options', 'nosniff');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/** A WordPress error answer: `{ code, message, data: { status, ... } }` with that status. */
export function wpError(status: number, code: string, message: string, headers: HeadersInit = {}, data: Record<string, unknown> = {}): Response {
  return wpJson({ code, message, data: { status, ...data } }, { status, headers });
}

/** WordPress's 400 for parameters it refuses: each named with its problem (`{ status: 'status is not one of …' }`). */
export function invalidParams(params: Record<string, string>): Response {
  return wpError(400, 'rest_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, {}, { params, details: {} });
}

/** A schema's issues as invalidParams, each under its top-level field, worded `field message` as WordPress does. */
export function invalidFromZod(error: z.ZodError): Response {
  const params: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'body');
    params[field] ??= `${[field, ...issue.path.slice(1).map(String)].join('.')} ${issue.message}`;
  }
  return invalidParams(params);
}

/** Whether the caller may write (create, edit, delete, upload): a signed-in editor or admin, not a viewer. */
export function mayWrite(call: WordPressRequest): call is WordPressRequest & { publisher: Publisher } {
  return call.publisher !== null && call.publisher.role !== 'viewer';
}

/**
 * The client a caller's reads go through: the service client for the organization's editors and admins (they
 * read every post of it, as in the back office), the anon client for everyone else (row-level security decides).
 */
export function reader(call: WordPressRequest): SupabaseClient {
  return mayWrite(call) ? call.context.service : call.context.visitor;
}

/**
 * A PostgREST `in` list of text values, each quoted with its quotes and backslashes escaped, so that no value
 * (a tag named `say "hi"`, a slug of `a,b)`) is read as the list's syntax. For `.filter(column, 'in', …)`.
 */
export function inList(values: readonly string[]): string {
  return `(${quotedValues(values)})`;
}

/** A PostgREST array of text values (`{"a","b"}`), quoted as inList quotes: for `ov` (overlaps) and `cs`. */
export function arrayLiteral(values: readonly string[]): string {
  return `{${quotedValues(values)}}`;
}

function quotedValues(values: readonly string[]): string {
  return [...new Set(values)].map((value) => `"${value.replace(/["\\]/g, (char) => `\\${char}`)}"`).join(',');
}

/** The answer to a caller who may not do this: 401 for a visitor (not signed in), 403 for a viewer (WordPress's subscriber). */
export function forbidden(call: WordPressRequest, code: string, message: string): Response {
  return wpError(call.publisher ? 403 : 401, code, message);
}

/**
 * A page of a collection, with WordPress's totals (`X-WP-Total`, `X-WP-TotalPages`) and, from the request's
 * address (`url`), its `Link` to the previous and the next page where there are such (clients that page by links
 * follow `rel="next"`); a page past the end is its 400.
 */
export function collection(items: unknown[], total: number, page: number, perPage: number, url: URL | null): Response {
  const pages = Math.ceil(total / perPage);
  if (page > 1 && page > pages) {
    return wpError(400, 'rest_post_invalid_page_number', 'The page number requested is larger than the number of pages available.');
  }
  const headers = new Headers({ 'x-wp-total': String(total), 'x-wp-totalpages': String(pages) });
  const pageLink = (number: number, rel: string) => {
    const link = new URL(url!);
    link.searchParams.set('page', String(number));
    headers.append('link', `<${link.href}>; rel="${rel}"`);
  };
  if (url && page > 1) pageLink(Math.min(page - 1, pages), 'prev');
  if (url && page < pages) pageLink(page + 1, 'next');
  return wpJson(items, { headers });
}

/**
 * Runs a page's query (a PostgREST select with `count: 'exact'` and a range): its rows and total, or WordPress's
 * answer to a page past the end (PostgREST refuses a range past the last row, PGRST103). Other errors throw.
 */
export async function readPage<Row>(
  query: PromiseLike<{ data: unknown; error: { code?: string; message: string } | null; count: number | null }>,
  page: number,
  perPage: number,
  what: string,
): Promise<{ rows: Row[]; total: number } | Response> {
  const { data, error, count } = await query;
  if (error?.code === 'PGRST103') return collection([], 0, page, perPage, null);
  if (error) throw new Error(`listing ${what} failed: ${error.message}`);
  return { rows: data as Row[], total: count ?? 0 };
}

/** The query's parameters as one object (`tags[]=1&tags[]=2` as a list), for a schema to read. */
export function queryObject(url: URL): Record<string, unknown> {
  return formObject(url.searchParams);
}

function formObject(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [rawKey, value] of params) {
    const list = rawKey.endsWith('[]');
    const key = list ? rawKey.slice(0, -2) : rawKey;
    const meta = key.match(/^meta\[(.+)\]$/);
    if (meta) out.meta = { ...(out.meta as object), [meta[1]!]: value };
    else if (list) out[key] = [...((out[key] as string[] | undefined) ?? []), value];
    else out[key] = value;
  }
  return out;
}

/**
 * A request's body as WordPress reads it: JSON, or form fields (`application/x-www-form-urlencoded`); the
 * query's fields under it. A body it cannot read is WordPress's answer: 400 `rest_invalid_json` for JSON that
 * does not parse (or is not an object), 413 `rest_request_too_large` past the function's limit.
 */
export async function readBody(request: Request, url: URL): Promise<Record<string, unknown> | Response> {
  const type = request.headers.get('content-type') ?? '';
  let text: string;
  try {
    text = await readText(request, { maxBytes: FUNCTION_BODY_LIMIT_BYTES });
  } catch (error) {
    if (error instanceof HttpError) return wpError(error.status === 413 ? 413 : 400, error.status === 413 ? 'rest_request_too_large' : 'rest_invalid_json', error.message);
    throw error;
  }
  const query = queryObject(url);
  delete query._method;
  if (/application\/x-www-form-urlencoded/i.test(type)) return { ...query, ...formObject(new URLSearchParams(text)) };
  if (text.trim() === '') return query;
  const invalid = () => wpError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return invalid();
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return invalid();
  return { ...query, ...(body as Record<string, unknown>) };
}

/** WordPress's `_gmt` dates: `2026-12-01T14:30:00`, the instant in UTC without a zone. */
export function wpDate(iso: string | null): string | null {
  return iso ? new Date(iso).toISOString().slice(0, 19) : null;
}

/** WordPress's `date` and `modified`: the wall time in the site's zone without a zone (`2026-12-01T09:30:00`). */
export function wpLocalDate(iso: string | null, timeZone: string): string | null {
  if (!iso) return null;
  const wall = new TZDate(iso, timeZone);
  return new Date(Date.UTC(wall.getFullYear(), wall.getMonth(), wall.getDate(), wall.getHours(), wall.getMinutes(), wall.getSeconds())).toISOString().slice(0, 19);
}

/**
 * The instant of a date a client sent (as WpDateSchema answers it): one that named its zone is that instant; a wall
 * time is read in `timeZone` (the site's for `date`, `after` and `before`, UTC for the `_gmt` fields).
 */
export function wpInstant(value: string, timeZone: string): string {
  if (value.endsWith('Z')) return value;
  // The wall time read as if in UTC, moved by the zone's offset there (again at the result: a change of summer time
  // between the two moves the offset).
  const wall = new Date(`${value}Z`).getTime();
  const offsetAt = (ms: number) => new TZDate(ms, timeZone).getTimezoneOffset() * 60_000;
  const at = new Date(wall + offsetAt(wall + offsetAt(wall)));
  // The first day of year 1 east of UTC falls in year 0, the last of 9999 west of it in 10000, which Postgres and
  // ISO dates do not take: the first and last instants they do.
  if (at.getUTCFullYear() < 1) return '0001-01-01T00:00:00.000Z';
  return at.getUTCFullYear() > 9999 ? '9999-12-31T23:59:59.999Z' : at.toISOString();
}

/** The zone's offset from UTC now, in hours (WordPress's `gmt_offset`: -5 for New York in winter, 5.5 for India). */
export function gmtOffsetHours(timeZone: string, at: Date = new Date()): number {
  return -new TZDate(at, timeZone).getTimezoneOffset() / 60;
}

/** HTML-escapes text for a `rendered` field (titles are text; WordPress renders them as HTML). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
