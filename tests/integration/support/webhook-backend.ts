/**
 * Shared ground for the webhook and rebuild suites: the local backend from env (the defaults of
 * src/lib/supabase-config.ts when unset), a service client for assertions and clean-up, the seed's
 * organizations, and a local HTTP receiver standing in for Netlify build hooks.
 *
 * Import this module before the functions: it completes process.env, which they read when first called.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { LOCAL_SUPABASE } from '../../../src/lib/server/service-config.ts';

// Any local instance (whatever its port) signs with the local JWT secret, so the demo service key fits it.
process.env.SUPABASE_URL ||= process.env.PUBLIC_SUPABASE_URL || LOCAL_SUPABASE.url;
process.env.SUPABASE_SERVICE_ROLE_KEY ||= LOCAL_SUPABASE.serviceRoleKey;

/** Service-role client for arranging and checking rows. */
export const db: SupabaseClient = createClient(process.env.SUPABASE_URL, process.env.SUPABASE_SERVICE_ROLE_KEY, {
  auth: { persistSession: false, autoRefreshToken: false },
});

/** The seed's organizations and the scale-pro writing-tool token. */
export const SCALE_PRO = { id: '10000000-0000-4000-8000-000000000001', slug: 'scale-pro', token: 'dev-zimmwriter-token-scale-pro' };
export const EVERGREEN = { id: '10000000-0000-4000-8000-000000000002', slug: 'evergreen-landscaping' };

/** A Request to the webhook route, as Netlify hands it to the function. */
export function webhookRequest(token: string, body: unknown, init: RequestInit = {}): Request {
  return new Request(`http://localhost/api/webhooks/zimmwriter/${token}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

/** Throws with the call's context when a supabase-js call failed (for writes that return nothing). */
export function check(result: { error: { message: string } | null }, what: string): void {
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
}

/** The data of a supabase-js query; throws with the query's context when it failed or returned nothing. */
export function must<T>(result: { data: T; error: { message: string } | null }, what: string): NonNullable<T> {
  check(result, what);
  if (result.data == null) throw new Error(`${what}: no data`);
  return result.data;
}

/** How many rows of a table match the filters (eq on each key). */
export async function countRows(table: string, filters: Record<string, string>): Promise<number> {
  let query = db.from(table).select('id', { count: 'exact', head: true });
  for (const [column, value] of Object.entries(filters)) query = query.eq(column, value);
  const { count, error } = await query;
  if (error) throw new Error(`count ${table}: ${error.message}`);
  return count ?? 0;
}

/** Removes posts (with their deliveries) and the organization's rebuild requests made since `since`. */
export async function removeTestRows(options: { postSlugs?: string[]; organizationIds: string[]; since: string }): Promise<void> {
  if (options.postSlugs?.length) {
    check(await db.from('webhook_deliveries').delete().in('slug', options.postSlugs).in('organization_id', options.organizationIds), 'remove deliveries');
    check(await db.from('blog_posts').delete().in('slug', options.postSlugs).in('organization_id', options.organizationIds), 'remove posts');
  }
  check(await db.from('webhook_deliveries').delete().in('organization_id', options.organizationIds).gte('received_at', options.since), 'remove deliveries');
  check(await db.from('site_rebuild_requests').delete().in('organization_id', options.organizationIds).gte('requested_at', options.since), 'remove rebuild requests');
}

/** One call the build-hook receiver got. */
export type HookCall = { method: string; url: string; at: number };

/**
 * A local HTTP server standing in for Netlify's build hook. It listens on REBUILD_HOOK_RECEIVER_PORT (0 =
 * any free port) and answers each call with the next status of `statuses` (then 200).
 */
export async function startHookReceiver(statuses: number[] = []) {
  const calls: HookCall[] = [];
  const queue = [...statuses];
  const server = createServer((req: IncomingMessage, res) => {
    calls.push({ method: req.method ?? '', url: req.url ?? '', at: Date.now() });
    req.resume();
    res.statusCode = queue.shift() ?? 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(Number(process.env.REBUILD_HOOK_RECEIVER_PORT ?? 0), '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    calls,
    url: `http://127.0.0.1:${port}/build_hooks/test-hook`,
    /** The statuses the next calls get. */
    answerWith: (next: number[]) => queue.splice(0, queue.length, ...next),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Records a finished build of each organization, started now, as its deploy notifications would: every batch
 * earlier files of this worker sent has had its build, so the build queue holds nothing behind one of them and
 * the next change is sent at once. The row stays (removing it would make those batches look unstarted again).
 */
export async function settleBuilds(organizationIds: string[]): Promise<void> {
  for (const organizationId of organizationIds) {
    check(
      await db.rpc('record_site_deploy', { p_organization_id: organizationId, p_source: 'local', p_external_id: `settled-${crypto.randomUUID()}`, p_state: 'succeeded' }),
      'settle builds',
    );
  }
}

/** Points the organization's build hook at `url` (null removes the setting). */
export async function setBuildHook(organizationId: string, url: string | null): Promise<void> {
  if (url === null) {
    check(await db.from('site_rebuild_settings').delete().eq('organization_id', organizationId), 'remove build hook');
    return;
  }
  check(await db.from('site_rebuild_settings').upsert({ organization_id: organizationId, build_hook_url: url }), 'set build hook');
}
