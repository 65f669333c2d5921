/**
 * Site rebuilds: how the changes the database recorded become builds of an organization's static site.
 *
 * How changes become builds, in a serverless world with no process that outlives a request: Netlify's own
 * queue is the model, one build running and one waiting per organization, with no quiet window.
 * 1. Every change visitors could see records a `pending` row in site_rebuild_requests in its own transaction
 *    (database triggers on posts, categories and the organization; see the migration
 *    20261123007000_rebuilds_from_database.sql). An admin's Retry records one through `requestRebuild`
 *    (`request_site_rebuild`), which also flushes that organization at once.
 * 2. A flush (`flushDueRebuilds`) asks Postgres (`claim_due_site_rebuilds`, migration
 *    20261129000200_build_queue.sql) for the organizations whose requests are due: a request waits, and no
 *    build of the organization is in flight (a deploy reports `building`, or a batch went to the hook and no
 *    build has started since). Everything waiting goes into one batch, so what arrives during a build goes
 *    into the next one, sent as soon as the running build reports its end. The claim records one send
 *    (site_rebuild_sends) and points the requests at it in one UPDATE that re-checks each, so concurrent
 *    flushers never claim a request twice.
 *    REBUILD_AT_ONCE=off holds every request until the newest is REBUILD_QUIET_WINDOW_MS old (the browser
 *    suite, whose server must not rebuild under it, holds its builds for the whole run).
 * 2b. Builds cost credits on Netlify's plans: the claim also asks the hosting team's budget (migration
 *    20261129001100_hosting_teams.sql). A team within its pace builds at once; ahead of it, changes wait for the
 *    next build the pace allows (all of them go into it); the sites with the fewest builds go first; once the
 *    cycle's share is spent, automatic builds stop. An admin's Build now or Retry (`manual`) builds anyway.
 * 2a. Failures recover by themselves: a hook call that failed is tried again after a growing backoff (1, 2, 4,
 *    8, 16, 30 minutes; then only a new change or Retry sends it), a batch claimed but never sent (the function
 *    died before its hook call) is sent again once its two-minute lease is over, a hook call whose build never
 *    started within ten minutes is sent again, a failed build queues a retry with a growing backoff. A claim
 *    never puts a request into two batches (migration 20261129001300_build_queue_leases.sql).
 * 3. Whoever made the change flushes its organization right after it: the webhook after a delivery, the back
 *    office after a save (`POST /api/admin/send-due-rebuilds`, editors and admins), and the deploy
 *    notification of a build's end (deploy-events), so a change starts building within a second when nothing
 *    builds, and right after the running build otherwise. The scheduled function publish-scheduled runs every
 *    minute (locally too: netlify/local/cli.ts runs it), publishes the scheduled and queued posts whose time
 *    has come and flushes every due organization: the retries, and whatever a closed tab did not flush.
 * 4. The batch goes to the organization's Netlify build hook (site_rebuild_settings.build_hook_url, never
 *    exposed to visitors), retried with exponential backoff; the outcome (`hook_called`: the hook answered;
 *    `failed` with the error; the attempts) is recorded on the send, which then follows its build as that
 *    reports (`started`, `succeeded` or `failed`) through Netlify's
 *    deploy notifications (netlify/functions/deploy-events.mts). An organization with no hook is `skipped`
 *    with the reason. A loopback hook is only called when the backend is local too: locally, `npm run dev` and
 *    `npm run serve` configure such a hook for the organization the local site shows and build as Netlify
 *    would (netlify/local/build-hook.ts); a hosted deployment never calls its own host.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { serviceSupabaseConfig } from './service-config.ts';

/** The organization a rebuild is for. */
export type RebuildOrganization = { id: string; slug: string };

/** One claimed batch of coalesced requests and what became of it. */
export type RebuildBatch = {
  batch_id: string;
  organization_id: string;
  organization_slug: string;
  build_hook_url: string | null;
  request_count: number;
  reasons: string[];
};
/** `hook_called`: the hook answered, and the build reports its result later (site_deploys). */
export type FlushedBatch = RebuildBatch & { outcome: 'hook_called' | 'failed' | 'skipped'; error?: string };

/** A flushed batch in a log line: "scale-pro (3 request(s)): hook called", "...: failed (Build hook answered 500)". */
export function describeBatch(batch: FlushedBatch): string {
  return `${batch.organization_slug} (${batch.request_count} request(s)): ${batch.outcome.replace('_', ' ')}${batch.error ? ` (${batch.error})` : ''}`;
}

const DEFAULT_QUIET_WINDOW_MS = 60_000;
const HOOK_ATTEMPTS = 3;
const HOOK_TIMEOUT_MS = 4_000;
const DEFAULT_RETRY_BASE_MS = 500;

type Env = Record<string, string | undefined>;

/** REBUILD_QUIET_WINDOW_MS, or the 60 s default: how long REBUILD_AT_ONCE=off holds requests. */
export function quietWindowMs(env: Env = process.env): number {
  const value = Number(env.REBUILD_QUIET_WINDOW_MS);
  return env.REBUILD_QUIET_WINDOW_MS !== undefined && Number.isInteger(value) && value >= 0 ? value : DEFAULT_QUIET_WINDOW_MS;
}

/** False when REBUILD_AT_ONCE is `off` (or `0`, `false`): then every request is held for the quiet window. */
export function buildAtOnce(env: Env = process.env): boolean {
  return !['off', '0', 'false'].includes((env.REBUILD_AT_ONCE ?? '').trim().toLowerCase());
}

/**
 * Records a rebuild request for the organization and flushes it at once unless a build is in flight (then it
 * goes into the next build). `manual`: an admin's Build now or Retry, which builds whatever the budget's pace
 * (each build still costs its credits). Returns the request id and any batches flushed now.
 */
export async function requestRebuild(
  client: SupabaseClient,
  org: RebuildOrganization,
  reason: string,
  env: Env = process.env,
  { manual = false }: { manual?: boolean } = {},
): Promise<{ requestId: string; flushed: FlushedBatch[] }> {
  const { data, error } = await client.rpc('request_site_rebuild', {
    p_organization_id: org.id,
    p_reason: reason,
    p_quiet_window_ms: quietWindowMs(env),
    p_manual: manual,
  });
  if (error) throw new Error(`Could not record the rebuild request of ${org.slug} (${reason}): ${error.message}`);
  const requested = data as RequestedRebuild;
  return { requestId: requested.request_id, flushed: await sendRebuildBatches(client, requested.batches, env) };
}

/** What `request_site_rebuild` answers: the new request and the batches it claimed. */
export type RequestedRebuild = { request_id: string; batches: RebuildBatch[] };

/** Claims every due batch (of one organization, or all) and sends each; returns what happened to them. */
export async function flushDueRebuilds(
  client: SupabaseClient,
  options: { organizationId?: string; env?: Env } = {},
): Promise<FlushedBatch[]> {
  const env = options.env ?? process.env;
  const { data, error } = await client.rpc('claim_due_site_rebuilds', {
    p_quiet_window_ms: quietWindowMs(env),
    p_organization_id: options.organizationId ?? null,
    p_at_once: buildAtOnce(env),
  });
  if (error) throw new Error(`Could not claim due rebuild requests: ${error.message}`);
  return sendRebuildBatches(client, data as RebuildBatch[], env);
}

/**
 * Sends the batches a stored change's database call claimed (an arrival, a deletion through the WordPress API),
 * after the change is committed: a send that fails is logged under `who` (and recorded on its send record),
 * never thrown, since what was saved stays saved and the answer says so.
 */
export async function sendAfterChange(client: SupabaseClient, rebuild: { batches: RebuildBatch[] } | null | undefined, who: string, env: Env = process.env): Promise<void> {
  if (!rebuild?.batches.length) return;
  await sendRebuildBatches(client, rebuild.batches, env).catch((cause: Error) => console.error(`${who}: rebuild: ${cause.message}`));
}

/** Sends claimed batches to their organizations' build hooks; returns what happened to each. */
export function sendRebuildBatches(client: SupabaseClient, batches: RebuildBatch[], env: Env = process.env): Promise<FlushedBatch[]> {
  return Promise.all(batches.map((batch) => sendBatch(client, batch, env)));
}

async function sendBatch(client: SupabaseClient, batch: RebuildBatch, env: Env): Promise<FlushedBatch> {
  if (batch.build_hook_url && isLoopbackUrl(batch.build_hook_url) && !isLocalBackend(env)) {
    // The database accepts loopback hooks for local development; a hosted deployment never calls its own host.
    const reason = 'A loopback build hook is only used with a local backend';
    await recordOutcome(client, batch.batch_id, { status: 'skipped', attempts: 0, error: reason });
    return { ...batch, outcome: 'skipped', error: reason };
  }
  if (batch.build_hook_url) {
    const { attempts, error } = await callBuildHook(batch, env);
    const outcome = error ? 'failed' : 'hook_called';
    await recordOutcome(client, batch.batch_id, { status: outcome, attempts, error: error ?? null });
    if (error) console.error(`Rebuild of ${batch.organization_slug}: the build hook failed after ${attempts} attempts (tried again after a backoff, or with the next change): ${error}`);
    return { ...batch, outcome, error };
  }
  const reason = 'No build hook configured for this organization';
  await recordOutcome(client, batch.batch_id, { status: 'skipped', attempts: 0, error: reason });
  return { ...batch, outcome: 'skipped', error: reason };
}

/** POSTs to the build hook, retrying failures (network or non-2xx) with exponential backoff. */
async function callBuildHook(batch: RebuildBatch, env: Env): Promise<{ attempts: number; error?: string }> {
  const url = new URL(batch.build_hook_url as string);
  // Shown in Netlify's deploy list: why this build ran.
  url.searchParams.set('trigger_title', `${batch.request_count} change(s): ${batch.reasons.join(', ')}`.slice(0, 200));
  const retryBaseMs = Number(env.REBUILD_RETRY_BASE_MS ?? DEFAULT_RETRY_BASE_MS);
  let lastError = '';
  for (let attempt = 1; attempt <= HOOK_ATTEMPTS; attempt += 1) {
    try {
      const response = await fetch(url, { method: 'POST', body: '{}', signal: AbortSignal.timeout(HOOK_TIMEOUT_MS) });
      if (response.ok) return { attempts: attempt };
      lastError = `Build hook answered ${response.status} ${response.statusText}`.trim();
    } catch (error) {
      lastError = `Build hook unreachable: ${(error as Error).message}`;
    }
    if (attempt < HOOK_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, retryBaseMs * 2 ** (attempt - 1)));
  }
  return { attempts: HOOK_ATTEMPTS, error: lastError };
}

/** True when the functions talk to a backend on this machine, i.e. local development. */
function isLocalBackend(env: Env): boolean {
  return isLoopbackUrl(serviceSupabaseConfig(env).url);
}

/** True for an address on this machine (127.0.0.1, localhost, [::1]). */
export function isLoopbackUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

/**
 * Records a batch's outcome on its send (`record_rebuild_outcome`): a failed hook call makes its changes due again
 * after a backoff, and no longer by themselves after six failures in a row.
 */
async function recordOutcome(
  client: SupabaseClient,
  batchId: string,
  outcome: { status: FlushedBatch['outcome']; attempts: number; error: string | null },
): Promise<void> {
  const { error } = await client.rpc('record_rebuild_outcome', {
    p_batch_id: batchId,
    p_status: outcome.status,
    p_attempts: outcome.attempts,
    p_error: outcome.error?.slice(0, 2000) ?? null,
  });
  if (error) throw new Error(`Could not record the outcome of rebuild batch ${batchId}: ${error.message}`);
}
