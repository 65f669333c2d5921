/**
 * IndexNow: search engines hear of a change once it is live. One call reaches Bing, Yandex, Seznam, Naver and
 * Yep (https://www.indexnow.org/documentation). The database notes every change visitors could see of a post
 * (migration 20261129000500_indexnow.sql); when a deploy reports success (deploy-events.mts, from Netlify or the
 * local build hook), `submitLiveChanges` takes the changes made before that build started, turns them into the
 * addresses they touched (the post's page, /blog, its category's page and its tags' pages, old and new), records
 * one submission of at most 10,000 addresses and sends it with the key that deploy serves. A refused or unreachable
 * endpoint is recorded with its answer and tried again by the scheduler (`retryDueSubmissions`) after a backoff
 * that doubles; nothing here ever holds a publish or a build: callers log what throws.
 *
 * Nothing is lost to a crash (migration 20261129001400_indexnow_leases.sql): a submission is claimed under a
 * two-minute lease, and one whose outcome was never recorded (the function died before the engine answered, or
 * the backend was out of reach when it did) is due again once the lease is over. A submission that cannot be sent
 * (no key, no address IndexNow accepts) is recorded as such, with the reason, instead of being read every minute.
 * The scheduler's retries stop starting new calls after RETRY_BUDGET_MS, within the scheduled function's limit.
 *
 * The endpoint is INDEXNOW_ENDPOINT, else IndexNow's shared one for a site on a public https address; a local
 * site (http://localhost…) sends nothing unless INDEXNOW_ENDPOINT names a listener (as the tests do), so a
 * developer's work never reaches the engines; each of its live deploys still records its submission, as not sent
 * and why, so the Search Engines log has a line per deploy there too.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { BLOG_PATH, categoryPath, postPath, tagPath, tagSlug } from '../blog-urls.ts';
import { siteAddress, type SiteAddressOrganization } from './site-address.ts';

/** IndexNow's shared endpoint, which passes submissions on to every participating engine. */
export const INDEXNOW_DEFAULT_ENDPOINT = 'https://api.indexnow.org/indexnow';

/** IndexNow takes at most 10,000 addresses in one call. */
export const INDEXNOW_MAX_URLS = 10_000;

/** How long a submission may wait for the engine's answer. */
const REQUEST_TIMEOUT_MS = 10_000;

/** How long the scheduler's retries may take in all (a scheduled function has 30 seconds, and builds to send). */
export const RETRY_BUDGET_MS = 15_000;

/** Why a submission of a site without a usable address is never sent. */
/** Why a submission of the site at `origin` is not sent: the Search Engines log says so for each live deploy. */
const noEndpoint = (origin: string) =>
  `Not sent: the site has no address IndexNow accepts (${origin} is not a public https address; a local site submits only to INDEXNOW_ENDPOINT).`;

type Env = Record<string, string | undefined>;

/** The site's address and key, as a submission names them. */
interface SiteKey {
  origin: string;
  key: string;
}

/** A noted change: the post's address, its category's and its tags, as they were or are. */
interface Change {
  id: number;
  post_slug: string;
  category_slug: string | null;
  tags: string[] | null;
}

/** The addresses a change touched on the site (absolute, deduplicated by the caller). */
export function changedUrls(origin: string, change: Omit<Change, 'id'>): string[] {
  return [
    postPath(change.post_slug),
    BLOG_PATH,
    ...(change.category_slug ? [categoryPath(change.category_slug)] : []),
    ...(change.tags ?? []).filter((tag) => tagSlug(tag) !== '').map((tag) => tagPath(tag)),
  ].map((path) => `${origin}${path}`);
}

/** Where submissions go: INDEXNOW_ENDPOINT, else the shared endpoint for a public https site; null: nowhere. */
export function indexNowEndpoint(origin: string, env: Env): string | null {
  const configured = env.INDEXNOW_ENDPOINT?.trim();
  if (configured) return configured;
  const { protocol, hostname } = new URL(origin);
  return protocol === 'https:' && hostname !== 'localhost' && !hostname.endsWith('.localhost') ? INDEXNOW_DEFAULT_ENDPOINT : null;
}

/** The key file's address: IndexNow reads the key from it on the site's own host. */
export function keyLocation(site: SiteKey): string {
  return `${site.origin}/${site.key}.txt`;
}

/** The organization's site address (its origin). Throws when it cannot be read. */
async function siteOrigin(client: SupabaseClient, organizationId: string, env: Env): Promise<string> {
  const { data, error } = await client.from('organizations').select('slug, domain, domain_confirmed').eq('id', organizationId).single();
  if (error) throw new Error(`reading organization ${organizationId} failed: ${error.message}`);
  return siteAddress(data as SiteAddressOrganization, env);
}

/**
 * After deploy `deployId` of the organization went live: submits the addresses changed before its build
 * started, in submissions of at most 10,000 addresses (one for a deploy of ordinary size). Answers the ids
 * of the submissions made. Throws when the database cannot answer.
 */
export async function submitLiveChanges(client: SupabaseClient, organizationId: string, deployId: string, env: Env = process.env): Promise<string[]> {
  const origin = await siteOrigin(client, organizationId, env);
  const endpoint = indexNowEndpoint(origin, env);
  const made: string[] = [];
  for (;;) {
    const { data, error } = await client.rpc('live_indexnow_changes', { p_organization_id: organizationId, p_deploy_id: deployId });
    if (error) throw new Error(`live_indexnow_changes failed: ${error.message}`);
    const changes = data as Change[];
    if (changes.length === 0) return made;
    const urls = new Set<string>();
    const taken: number[] = [];
    for (const change of changes) {
      const more = changedUrls(origin, change).filter((url) => !urls.has(url));
      if (urls.size + more.length > INDEXNOW_MAX_URLS) break;
      more.forEach((url) => urls.add(url));
      taken.push(change.id);
    }
    const claimed = await client.rpc('claim_indexnow_submission', {
      p_organization_id: organizationId, p_deploy_id: deployId, p_change_ids: taken, p_urls: [...urls],
    });
    // Another notification of the same deploy took them: it sends them.
    if (claimed.error?.code === '40001') return made;
    if (claimed.error) throw new Error(`claim_indexnow_submission failed: ${claimed.error.message}`);
    const [submission] = claimed.data as { id: string; key: string | null }[];
    made.push(submission!.id);
    // A site without an address IndexNow takes (a local one) records each deploy's submission as not sent, with why.
    if (!endpoint) await recordAttempt(client, submission!.id, { status: 'unsendable', code: null, error: noEndpoint(origin) });
    else if (submission!.key) await send(client, submission!.id, { origin, key: submission!.key }, [...urls], endpoint, REQUEST_TIMEOUT_MS);
    else await recordAttempt(client, submission!.id, { status: 'unsendable', code: null, error: 'This organization has no IndexNow key.' });
  }
}

/**
 * Sends the submissions due for another try (the scheduler, every minute): failed ones whose retry came, and
 * claimed ones whose lease ran out, of organizations with submissions on; each claimed under a new lease, so a
 * concurrent run takes others. Starts no call after `budgetMs`. Answers how many were tried.
 */
export async function retryDueSubmissions(client: SupabaseClient, env: Env = process.env, budgetMs = RETRY_BUDGET_MS): Promise<number> {
  const deadline = Date.now() + budgetMs;
  const origins = new Map<string, string>();
  let tried = 0;
  while (Date.now() < deadline) {
    const { data, error } = await client.rpc('claim_indexnow_retries', { p_limit: 5 });
    if (error) throw new Error(`claim_indexnow_retries failed: ${error.message}`);
    const due = data as { id: string; organization_id: string; urls: string[]; key: string }[];
    if (due.length === 0) break;
    for (const submission of due) {
      tried += 1;
      if (!origins.has(submission.organization_id)) origins.set(submission.organization_id, await siteOrigin(client, submission.organization_id, env));
      const origin = origins.get(submission.organization_id)!;
      const endpoint = indexNowEndpoint(origin, env);
      const left = deadline - Date.now();
      if (!endpoint) await recordAttempt(client, submission.id, { status: 'unsendable', code: null, error: noEndpoint(origin) });
      // Out of time: its lease runs out, and the next run sends it.
      else if (left > 1_000) await send(client, submission.id, { origin, key: submission.key }, submission.urls, endpoint, Math.min(REQUEST_TIMEOUT_MS, left));
    }
  }
  return tried;
}

/** One call to the endpoint, and its outcome recorded (a failure with the engine's answer, for the log and the retry). */
async function send(client: SupabaseClient, submissionId: string, site: SiteKey, urls: string[], endpoint: string, timeoutMs: number): Promise<void> {
  let outcome: Outcome;
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ host: new URL(site.origin).host, key: site.key, keyLocation: keyLocation(site), urlList: urls }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = response.ok ? '' : (await response.text()).slice(0, 300);
    outcome = response.ok
      ? { status: 'sent', code: response.status, error: null }
      : { status: 'failed', code: response.status, error: `${response.status} ${response.statusText}${text ? `: ${text}` : ''}` };
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message;
    outcome = { status: 'failed', code: null, error: `Could not reach ${new URL(endpoint).host}: ${cause ?? (error as Error).message}` };
  }
  await recordAttempt(client, submissionId, outcome);
  if (outcome.status === 'failed') console.error(`IndexNow submission ${submissionId} failed (retried later): ${outcome.error}`);
}

/** What became of one attempt. */
type Outcome = { status: 'sent' | 'failed' | 'unsendable'; code: number | null; error: string | null };

/** Records an attempt's outcome; the claim's lease ends. Throws when it cannot (the lease then brings the submission back). */
async function recordAttempt(client: SupabaseClient, submissionId: string, outcome: Outcome): Promise<void> {
  const { error } = await client.rpc('record_indexnow_attempt', {
    p_submission_id: submissionId, p_status: outcome.status, p_response_status: outcome.code, p_error: outcome.error,
  });
  if (error) throw new Error(`record_indexnow_attempt failed: ${error.message}`);
}
