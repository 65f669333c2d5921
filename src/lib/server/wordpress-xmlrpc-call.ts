/**
 * What every XML-RPC method shares (wordpress-xmlrpc.ts dispatches, wordpress-xmlrpc-posts.ts answers the posts'
 * and media's): the call as a method sees it, and the REST API of this site called as the app's user, whose
 * errors become the faults WordPress's XML-RPC gives.
 */
import { answerWordPressRequest } from './wordpress-api.ts';
import type { WordPressContext } from './wordpress-rest.ts';
import { type XmlRpcValue, XmlRpcFault } from './xmlrpc.ts';

/** A REST answer's JSON, read field by field as the REST API of this site writes it (its own answers). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RestJson = any;

/** A REST answer: its status and JSON body. */
export type RestAnswer = { status: number; json: RestJson };

/** Calls the REST API as the app's user: `rest('GET', 'posts/12', { query: { context: 'edit' } })`. */
export type Rest = (method: string, route: string, options?: { query?: Record<string, string | number>; body?: unknown; bytes?: Uint8Array; headers?: Record<string, string> }) => Promise<RestAnswer>;

/** What a method is given: its parameters, the site, and the REST API as the user named at a parameter's index. */
export interface MethodCall {
  params: XmlRpcValue[];
  context: WordPressContext;
  /** The REST API as the user whose name and password are params[index] and params[index + 1]. */
  as: (index: number) => Rest;
}

export type Method = (call: MethodCall) => Promise<XmlRpcValue>;

/** The REST API as the user `username` with `password` (any other values are refused there, as a wrong password). */
export function restAs(request: Request, context: WordPressContext, username: XmlRpcValue | undefined, password: XmlRpcValue | undefined): Rest {
  const user = typeof username === 'string' ? username : '';
  const secret = typeof password === 'string' ? password : '';
  const authorization = `Basic ${Buffer.from(`${user.replace(/:/g, '')}:${secret}`).toString('base64')}`;
  return async (method, route, options = {}) => {
    const address = new URL(`/wp-json/wp/v2/${route}`, request.url);
    for (const [key, value] of Object.entries(options.query ?? {})) address.searchParams.set(key, String(value));
    const headers: Record<string, string> = { authorization, ...options.headers };
    let body: BodyInit | undefined;
    if (options.bytes) body = options.bytes as Uint8Array<ArrayBuffer>;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const answer = await answerWordPressRequest(new Request(address, { method, headers, body }), context);
    return { status: answer.status, json: await answer.json() };
  };
}

/** A REST answer's body, or the fault WordPress's XML-RPC gives for its error. */
export function ok(answer: RestAnswer): RestJson {
  if (answer.status < 400) return answer.json;
  const { code, message, data } = answer.json as { code?: string; message?: string; data?: { params?: Record<string, string> } };
  if (code === 'incorrect_password' || code === 'rest_not_logged_in') return fail(403, 'Incorrect username or password.');
  const details = data?.params ? ` ${Object.values(data.params).join(' ')}` : '';
  // WordPress's XML-RPC says 401 for what a role may not do (the REST API's 403).
  return fail(answer.status === 403 ? 401 : answer.status, `${message ?? 'The request failed.'}${details}`);
}

/** Throws the fault `code` with `message` (a method's refusal, in WordPress's XML-RPC codes). */
export const fail = (code: number, message: string): never => {
  throw new XmlRpcFault(code, message);
};

/** The signed-in user (`users/me?context=edit`); the first call of a method that needs no other. */
export async function me(rest: Rest): Promise<{ id: number; name: string; username: string; email: string; roles: string[]; first_name: string; last_name: string; registered_date: string; capabilities: Record<string, boolean> }> {
  return ok(await rest('GET', 'users/me', { query: { context: 'edit' } }));
}

