/**
 * IndexNow: search engines hear of a change once it is live. One call reaches Bing, Yandex, Seznam, Naver and
 * Yep (https://www.indexnow.org/documentation). The database notes every change visitors could see of a post
 * (migration 20261203000100_indexnow.sql); when a deploy reports success (deploy-events.mts, from Netlify or the
 * local build hook), `submitLiveChanges` takes the changes made before that build started, turns them into the
 * addresses they touched (the post's page, /blog, its category's page and its tags' pages, old and new), records
 * one submission of at most 10,000 addresses and sends it with the organization's key. A refused or unreachable
 * endpoint is recorded with its answer and tried again by the scheduler (`retryDueSubmissions`) after a backoff
 * that doubles; nothing here ever holds a publish or a build: callers log what throws.
 *
 * The endpoint is INDEXNOW_ENDPOINT, else IndexNow's shared one for a site on a public https address; a local
 * site (http://localhost…) submits nothing unless INDEXNOW_ENDPOINT names a listener (as the tests do), so a
 * developer's work never reaches the engines.
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

/** The organization's address and key; null when it has no key row. Throws when it has no address. */
async function siteKey(client: SupabaseClient, organizationId: string, env: Env): Promise<SiteKey | null> {
  const [organization, key] = await Promise.all([
    client.from('organizations').select('slug, domain, domain_confirmed').eq('id', organizationId).single(),
    client.from('indexnow_sites').select('key').eq('organization_id', organizationId).maybeSingle(),
  ]);
  if (organization.error) throw new Error(`reading organization ${organizationId} failed: ${organization.error.message}`);
  if (key.error) throw new Error(`reading the IndexNow key of ${organizationId} failed: ${key.error.message}`);
  if (!key.data) return null;
  return { origin: siteAddress(organization.data as SiteAddressOrganization, env), key: (key.data as { key: string }).key };
}

/**
 * After deploy `deployId` of the organization went live: submits the addresses changed before its build
 * started, in submissions of at most 10,000 addresses (one for a deploy of ordinary size). Answers the ids
 * of the submissions made. Throws when the database cannot answer.
 */
export async function submitLiveChanges(client: SupabaseClient, organizationId: string, deployId: string, env: Env = process.env): Promise<string[]> {
  const site = await siteKey(client, organizationId, env);
  const endpoint = site && indexNowEndpoint(site.origin, env);
  if (!site || !endpoint) return [];
  const made: string[] = [];
  for (;;) {
    const { data, error } = await client.rpc('live_indexnow_changes', { p_organization_id: organizationId, p_deploy_id: deployId });
    if (error) throw new Error(`live_indexnow_changes failed: ${error.message}`);
    const changes = data as Change[];
    if (changes.length === 0) return made;
    const urls = new Set<string>();
    const taken: number[] = [];
    for (const change of changes) {
      const more = changedUrls(site.origin, change).filter((url) => !urls.has(url));
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
    const id = claimed.data as string;
    made.push(id);
    await send(client, id, site, [...urls], endpoint);
  }
}

/** Sends the failed submissions whose retry is due (the scheduler, every minute). Answers how many were tried. */
export async function retryDueSubmissions(client: SupabaseClient, env: Env = process.env): Promise<number> {
  const { data, error } = await client
    .from('indexnow_submissions')
    .select('id, organization_id, urls')
    .eq('status', 'failed')
    .lte('next_attempt_at', new Date().toISOString())
    .order('next_attempt_at')
    .limit(20);
  if (error) throw new Error(`reading due IndexNow submissions failed: ${error.message}`);
  const due = data as { id: string; organization_id: string; urls: string[] }[];
  for (const submission of due) {
    const site = await siteKey(client, submission.organization_id, env);
    const endpoint = site && indexNowEndpoint(site.origin, env);
    if (site && endpoint) await send(client, submission.id, site, submission.urls, endpoint);
  }
  return due.length;
}

/** One call to the endpoint, and its outcome recorded (a failure with the engine's answer, for the log and the retry). */
async function send(client: SupabaseClient, submissionId: string, site: SiteKey, urls: string[], endpoint: string): Promise<void> {
  let outcome: { status: 'sent' | 'failed'; code: number | null; error: string | null };
  try {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ host: new URL(site.origin).host, key: site.key, keyLocation: keyLocation(site), urlList: urls }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = response.ok ? '' : (await response.text()).slice(0, 300);
    outcome = response.ok
      ? { status: 'sent', code: response.status, error: null }
      : { status: 'failed', code: response.status, error: `${response.status} ${response.statusText}${text ? `: ${text}` : ''}` };
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message;
    outcome = { status: 'failed', code: null, error: `Could not reach ${new URL(endpoint).host}: ${cause ?? (error as Error).message}` };
  }
  const { error } = await client.rpc('record_indexnow_attempt', {
    p_submission_id: submissionId, p_status: outcome.status, p_response_status: outcome.code, p_error: outcome.error,
  });
  if (error) throw new Error(`record_indexnow_attempt failed: ${error.message}`);
  if (outcome.status === 'failed') console.error(`IndexNow submission ${submissionId} failed (retried later): ${outcome.error}`);
}
