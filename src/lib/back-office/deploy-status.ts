/**
 * The public site's state as the back office shows it: the facts the database keeps (pending rebuild
 * requests, the scheduler's heartbeat, the last request sent, the builds reported by Netlify or the local
 * build: `site_deploy_status`) turned into one line an editor understands, and whether a post is live.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { countWords } from '../count-words.ts';
import { answerMessage, postAdminFunction } from './functions.ts';

/** What `site_deploy_status(org)` answers (null for a non-member). */
export type DeployFacts = {
  pending_count: number;
  oldest_pending_at: string | null;
  newest_pending_at: string | null;
  scheduler_ran_at: string | null;
  quiet_window_ms: number | null;
  last_request: { sent_at: string | null; status: 'sent' | 'succeeded' | 'failed' | 'skipped'; error: string | null } | null;
  latest_deploy: { state: 'building' | 'succeeded' | 'failed'; started_at: string; finished_at: string | null; error: string | null; url: string | null; stale: boolean } | null;
  live: { started_at: string; finished_at: string | null; url: string | null } | null;
  now: string;
};

export type DeployStateKind = 'unknown' | 'waiting' | 'requested' | 'building' | 'live' | 'failed' | 'not_built' | 'no_answer';

/** One line for the header: a short title, a detail, a link to the live site, whether Retry applies. */
export type DeployState = { kind: DeployStateKind; title: string; detail: string; href: string | null; retry: boolean };

/** The scheduled flush runs every minute; a heartbeat older than this means it is not running. */
const SCHEDULER_PERIOD_MS = 60_000;
const SCHEDULER_LATE_MS = 3 * SCHEDULER_PERIOD_MS;
/**
 * The longest a build can take, from its request to its last report: Netlify stops a build after 30 minutes
 * on its default plans, and the database stops waiting for one after the same time (`private.deploy_hold()`,
 * which then marks a build still "building" as stale). A requested or running build that has not reported
 * within it will not: its notification was lost, or the build died. The header then says "No answer from
 * the build" with Retry, not "Building" or "Build requested" for good.
 */
export const BUILD_REPORT_TIMEOUT_MS = 30 * 60_000;
/** The quiet window when the scheduler has never reported one (the functions' default). */
const DEFAULT_QUIET_WINDOW_MS = 60_000;

/** "3:05 PM" today, else "Nov 22, 3:05 PM". */
export function clockTime(iso: string, now: Date): string {
  const at = new Date(iso);
  const sameDay = at.toDateString() === now.toDateString();
  return at.toLocaleString('en-US', sameDay ? { hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** "about 40 seconds", "about 2 minutes". */
function aboutDuration(ms: number): string {
  const seconds = Math.max(5, Math.round(ms / 5000) * 5);
  if (seconds < 90) return `about ${seconds} seconds`;
  return `about ${Math.round(seconds / 60)} minutes`;
}

/**
 * When the pending changes will be sent: the first scheduler run after the quiet window closed (or after
 * ten windows of a steady stream), counted from its last heartbeat. Null when the scheduler is not running.
 */
export function nextBuildAt(facts: DeployFacts, now: Date): Date | null {
  if (!facts.newest_pending_at || !facts.oldest_pending_at || !facts.scheduler_ran_at) return null;
  const ran = Date.parse(facts.scheduler_ran_at);
  if (now.getTime() - ran > SCHEDULER_LATE_MS) return null;
  const window = facts.quiet_window_ms ?? DEFAULT_QUIET_WINDOW_MS;
  const due = Math.min(Date.parse(facts.newest_pending_at) + window, Date.parse(facts.oldest_pending_at) + 10 * window);
  const runs = Math.max(1, Math.ceil((due - ran) / SCHEDULER_PERIOD_MS));
  return new Date(ran + runs * SCHEDULER_PERIOD_MS);
}

/** The site's state, most pressing first: a running build, waiting changes, then what the last build did. */
export function describeDeployState(facts: DeployFacts, now: Date = new Date(facts.now)): DeployState {
  const deploy = facts.latest_deploy;
  const state = (kind: DeployStateKind, title: string, detail: string, href: string | null = null): DeployState => ({
    kind, title, detail, href, retry: kind === 'failed' || kind === 'not_built' || kind === 'no_answer',
  });
  const noAnswer = (since: string) =>
    state('no_answer', 'No answer from the build', `No answer from the build since ${clockTime(since, now)}. It may have finished without reporting; Retry starts a new build.`);
  if (deploy?.state === 'building' && !deploy.stale) {
    return state('building', `Building since ${clockTime(deploy.started_at, now)}`, 'The site is being rebuilt with the latest changes.');
  }
  if (facts.pending_count > 0) {
    const next = nextBuildAt(facts, now);
    const changes = countWords(facts.pending_count, 'change');
    if (next) return state('waiting', 'Changes waiting', `${changes} waiting; the next build starts in ${aboutDuration(next.getTime() - now.getTime())}.`);
    const since = facts.scheduler_ran_at ? ` since ${clockTime(facts.scheduler_ran_at, now)}` : '';
    return state('waiting', 'Changes waiting', `${changes} waiting, but the build scheduler has not run${since}.`);
  }
  const request = facts.last_request;
  const requestIsNewer = request?.sent_at && (!deploy || Date.parse(request.sent_at) > Date.parse(deploy.started_at));
  if (request && requestIsNewer) {
    if (request.status === 'failed') return state('failed', 'Build failed', request.error ?? 'The build could not be started.');
    if (request.status === 'skipped') return state('not_built', 'Not rebuilt', request.error ?? 'The build was skipped.');
    if (now.getTime() - Date.parse(request.sent_at as string) > BUILD_REPORT_TIMEOUT_MS) return noAnswer(request.sent_at as string);
    return state('requested', `Build requested at ${clockTime(request.sent_at as string, now)}`, 'Waiting for the build to start.');
  }
  if (deploy?.state === 'building') return noAnswer(deploy.started_at);
  if (deploy?.state === 'failed') return state('failed', 'Build failed', deploy.error ?? 'The build failed.');
  if (deploy?.state === 'succeeded') {
    return state('live', 'Up to date', `Live since ${clockTime(deploy.finished_at ?? deploy.started_at, now)}.`, deploy.url);
  }
  return state('unknown', 'No changes waiting', 'No build has been recorded yet.');
}

/** When a post last changed as the site sees it: its last save, or its publication time if that is later. */
function changedAt(post: { published_at: string | null; updated_at: string }): number {
  return Math.max(Date.parse(post.updated_at), post.published_at ? Date.parse(post.published_at) : 0);
}

/**
 * A published post is live once a build that started after its last change succeeded (the build reads the
 * content when it starts). Null when no build was ever recorded for the organization (a site built before
 * builds were reported, or by hand): then nobody knows, and the post is not claimed to be either.
 */
export function isPostLive(post: { status: string; published_at: string | null; updated_at: string }, facts: DeployFacts | null): boolean | null {
  if (post.status !== 'published') return false;
  if (!facts || (!facts.live && !facts.latest_deploy)) return null;
  if (!facts.live) return false;
  return changedAt(post) <= Date.parse(facts.live.started_at);
}

/** How long a build takes here: the last successful one's time, else a minute. */
function buildDurationMs(facts: DeployFacts): number {
  const live = facts.live;
  return live?.finished_at ? Math.max(0, Date.parse(live.finished_at) - Date.parse(live.started_at)) : 60_000;
}

/** Where a post's latest change stands on the public site, in the editor's words. */
export type PostOnSite = { kind: 'done' | 'building' | 'waiting' | 'failed'; text: string };

/**
 * What a published post's latest change (or an unpublished post's leaving) waits for, told to the editor
 * who made it: done once a build that started after the change succeeded (`isPostLive`'s rule), building
 * when such a build runs (done in about the last build's time), failed when that build or its request
 * failed, else waiting for the next build (the header's countdown plus the build's time).
 */
export function postOnSite(post: { status: string; published_at: string | null; updated_at: string }, facts: DeployFacts, now: Date = new Date(facts.now)): PostOnSite {
  const published = post.status === 'published';
  const changed = changedAt(post);
  if (facts.live && changed <= Date.parse(facts.live.started_at)) {
    return { kind: 'done', text: published ? 'Your post is live.' : 'Your post is off the site.' };
  }
  const goes = published ? 'It goes live on the site' : 'It leaves the site';
  const deploy = facts.latest_deploy;
  const duration = buildDurationMs(facts);
  if (deploy?.state === 'building' && !deploy.stale && Date.parse(deploy.started_at) >= changed) {
    const left = Date.parse(deploy.started_at) + duration - now.getTime();
    return { kind: 'building', text: `The site is rebuilding with this change. ${goes} in ${aboutDuration(left)}.` };
  }
  const state = describeDeployState(facts, now);
  if (state.kind === 'failed' || state.kind === 'not_built') {
    const detail = state.detail.endsWith('.') ? state.detail : `${state.detail}.`;
    return { kind: 'failed', text: `${state.title}: ${detail} ${published ? 'Your post is not live yet.' : 'Your post is still on the site.'}` };
  }
  // A request already sent starts its build now; a build running without the change is followed by the next.
  const start = state.kind === 'requested' ? now : nextBuildAt(facts, now);
  if (!start) return { kind: 'waiting', text: `${goes} when the site next rebuilds.` };
  return { kind: 'waiting', text: `${goes} in ${aboutDuration(start.getTime() - now.getTime() + duration)}, when the site rebuilds.` };
}

/** The facts for the organization, or null when the caller is not a member. */
export async function loadDeployFacts(client: SupabaseClient, organizationId: string): Promise<DeployFacts | null> {
  const { data, error } = await client.rpc('site_deploy_status', { p_organization_id: organizationId });
  if (error) throw new Error(`The site status could not be loaded: ${error.message}`);
  return (data as DeployFacts | null) ?? null;
}

/** Retries the site build now (POST /api/admin/rebuild; admins only). */
export async function retrySiteBuild(client: SupabaseClient, organizationId: string, fetchImpl?: typeof fetch): Promise<void> {
  const answer = await postAdminFunction(client, '/api/admin/rebuild', { organization_id: organizationId }, fetchImpl);
  if (!answer.ok) throw new Error(`The rebuild could not be started: ${answerMessage(answer)}`);
}

/**
 * Asks the functions to send the organization's rebuild requests that are already due (POST
 * /api/admin/send-due-rebuilds; editors and admins), right after a change: a lone publish then starts
 * building at once instead of at the scheduler's next minute. Fire and forget: `keepalive` lets it finish
 * while the editor navigates away, and a failure only means the scheduler sends them within a minute.
 */
export function sendDueRebuilds(client: SupabaseClient, organizationId: string): void {
  const keepalive: typeof fetch = (input, init) => fetch(input, { ...init, keepalive: true });
  postAdminFunction(client, '/api/admin/send-due-rebuilds', { organization_id: organizationId }, keepalive).then(
    (answer) => {
      if (!answer.ok) console.error(`Sending due rebuilds: ${answerMessage(answer)}`);
    },
    (error: Error) => console.error(`Sending due rebuilds: ${error.message}`),
  );
}
