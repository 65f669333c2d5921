/**
 * The public site's state as the back office shows it: the facts the database keeps (pending rebuild
 * requests, the scheduler's heartbeat, the latest send to the build hook, the builds reported by Netlify or the local
 * build: `site_deploy_status`) turned into one line an editor understands, and whether a post is live.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { BuildBudget } from '../../schemas/hosting-team.ts';
import { countWords } from './count-words.ts';

/** What `site_deploy_status(org)` answers (null for a non-member). */
export type DeployFacts = {
  pending_count: number;
  oldest_pending_at: string | null;
  newest_pending_at: string | null;
  /** When the first automatic retry is due, while only retries wait (after a failed build). */
  next_attempt_at: string | null;
  scheduler_ran_at: string | null;
  /** How long the functions hold a request before sending it: 0 in production (REBUILD_AT_ONCE=off holds). */
  quiet_window_ms: number | null;
  /** Whether the organization's builds report (deploy notifications): without them a start is never seen. */
  reports_builds: boolean;
  /** The median time of the last five successful builds. */
  recent_build_ms: number | null;
  /** The latest send of the changes to the build hook (site_rebuild_sends): when, and what became of it. */
  last_send: { sent_at: string; state: 'claimed' | 'hook_called' | 'started' | 'succeeded' | 'failed' | 'skipped'; error: string | null } | null;
  latest_deploy: { state: 'building' | 'succeeded' | 'failed'; started_at: string; finished_at: string | null; error: string | null; url: string | null; stale: boolean } | null;
  live: { started_at: string; finished_at: string | null; url: string | null } | null;
  /** The site's build budget (its hosting team's pace); null for an organization without a team. */
  budget: BuildBudget | null;
  /** When a failing build hook is next tried by itself (the backoff), while only such tries wait. */
  hook_retry_at?: string | null;
  /** Whether a failing build hook is no longer tried by itself (six failures in a row): a change or Retry sends it. */
  hook_retries_stopped?: boolean;
  /** False when the organization has no build hook: what it changes is saved but never reaches the site until one is set. */
  build_hook_set?: boolean;
  now: string;
};

export type DeployStateKind = 'unknown' | 'waiting' | 'requested' | 'building' | 'live' | 'failed' | 'not_built' | 'no_answer' | 'no_hook';

/** One line for the header: a short title, a detail, a link to the live site, whether Retry applies. */
export type DeployState = { kind: DeployStateKind; title: string; detail: string; href: string | null; retry: boolean };

/** The scheduled flush runs every minute; a heartbeat older than this means it is not running. */
const SCHEDULER_PERIOD_MS = 60_000;
const SCHEDULER_LATE_MS = 3 * SCHEDULER_PERIOD_MS;
/**
 * The longest a build can take, from its request to its last report: Netlify stops a build after 30 minutes
 * on its default plans, and the database stops waiting for one after the same time (`private.deploy_hold()`,
 * which then marks a build still "building" as stale). A requested or running build that has not reported
 * within it will not: its notification was lost, or the build died. The header then says "Build failed: No
 * answer from the build" with Retry, not "Building" or "Build requested" for good.
 */
export const BUILD_REPORT_TIMEOUT_MS = 30 * 60_000;
/**
 * How long a requested build may take to start where builds report (`private.build_start_timeout()`): then the
 * hook call is presumed lost, and the next flush sends the changes again.
 */
export const BUILD_START_TIMEOUT_MS = 10 * 60_000;
/** A build's time before any succeeded here. */
const DEFAULT_BUILD_MS = 60_000;

/** "3:05 PM" today, else "Nov 22, 3:05 PM". */
export function clockTime(iso: string, now: Date): string {
  const at = new Date(iso);
  const sameDay = at.toDateString() === now.toDateString();
  return at.toLocaleString('en-US', sameDay ? { hour: 'numeric', minute: '2-digit' } : { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

/** "about 40 seconds", "about 2 minutes", "about 3 hours", "about 2 days" (a build the budget holds back). */
function aboutDuration(ms: number): string {
  const seconds = Math.max(5, Math.round(ms / 5000) * 5);
  if (seconds < 90) return `about ${seconds} seconds`;
  if (seconds < 90 * 60) return `about ${Math.round(seconds / 60)} minutes`;
  if (seconds < 36 * 3600) return `about ${Math.round(seconds / 3600)} hours`;
  return `about ${Math.round(seconds / 86_400)} days`;
}

/**
 * How long a change waits for its own save's send (the back office, a delivery and the API send what is due
 * right after the change) before only the scheduler's run is left to send it.
 */
const SAVE_SEND_MS = 10_000;

/** Whether something holds a change back from its save's send: a hold window, an automatic retry's wait, the budget. */
function heldBack(facts: DeployFacts): boolean {
  return Boolean(facts.next_attempt_at) || (facts.quiet_window_ms ?? 0) > 0 || budgetHolds(facts);
}

/**
 * When the pending changes are sent, while no build is in flight: at once for a change just made that nothing
 * holds (its save sends it: the header and the editor give this one estimate), else the scheduler's first run
 * after the hold (none in production), an automatic retry's time or the budget's next build, counted from its
 * last heartbeat. Null when that scheduler is not running.
 */
export function nextBuildAt(facts: DeployFacts, now: Date): Date | null {
  if (!facts.newest_pending_at) return null;
  if (!heldBack(facts) && now.getTime() - Date.parse(facts.newest_pending_at) < SAVE_SEND_MS) return now;
  if (!facts.scheduler_ran_at) return null;
  const ran = Date.parse(facts.scheduler_ran_at);
  if (now.getTime() - ran > SCHEDULER_LATE_MS) return null;
  const due = Math.max(
    Date.parse(facts.newest_pending_at) + (facts.quiet_window_ms ?? 0),
    facts.next_attempt_at ? Date.parse(facts.next_attempt_at) : 0,
    budgetHolds(facts) ? Date.parse(facts.budget!.next_build_at) : 0,
  );
  const runs = Math.max(1, Math.ceil((due - ran) / SCHEDULER_PERIOD_MS));
  return new Date(ran + runs * SCHEDULER_PERIOD_MS);
}

/** Whether the build budget holds the next automatic build back (the team is ahead of its pace, or its share is spent). */
export function budgetHolds(facts: DeployFacts): boolean {
  return facts.budget !== null && facts.budget !== undefined && !facts.budget.may_build;
}

/**
 * Why changes wait for the budget, and until when: "Next build at 2:20 PM: 41 of 213 builds left this month.", or,
 * once the share is spent, when automatic builds resume.
 */
export function budgetWaitDetail(budget: BuildBudget, next: Date | null, now: Date): string {
  const builds = countWords(budget.builds_in_cycle, 'build');
  if (budget.share_spent) {
    const resumes = new Date(budget.cycle_end).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
    return `This month's ${builds} ${budget.builds_in_cycle === 1 ? 'is' : 'are'} used: automatic builds resume on ${resumes}, and the site stays as it is until then.`;
  }
  const at = next ?? new Date(budget.next_build_at);
  return `Next build at ${clockTime(at.toISOString(), now)}: ${budget.builds_left.toLocaleString('en-US')} of ${builds} left this month.`;
}

/** The latest send, when it is newer than the latest build (its build has not reported starting). */
function sendNewerThanBuild(facts: DeployFacts): DeployFacts['last_send'] {
  const send = facts.last_send;
  const deploy = facts.latest_deploy;
  return send && !(deploy && Date.parse(send.sent_at) <= Date.parse(deploy.started_at)) ? send : null;
}

/**
 * The site's state, most pressing first: a running build, a failure (with its reason, Retry, and when it is
 * tried again by itself), a requested build, waiting changes, silence from a build (no answer), then what the
 * last build did. Changes that wait while a build is in flight are said to go into the next build.
 */
export function describeDeployState(facts: DeployFacts, now: Date = new Date(facts.now)): DeployState {
  const deploy = facts.latest_deploy;
  const state = (kind: DeployStateKind, title: string, detail: string, href: string | null = null): DeployState => ({
    // Retry only where a new try can help: not for a site without a build hook, nor a build skipped by its setup.
    kind, title, detail, href, retry: kind === 'failed' || kind === 'no_answer',
  });
  const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);
  const waiting = facts.pending_count > 0 ? ` ${countWords(facts.pending_count, 'more change')} ${facts.pending_count === 1 ? 'goes' : 'go'} into the next build, right after it.` : '';
  const retryNote = facts.next_attempt_at ? ` It is tried again by itself at ${clockTime(facts.next_attempt_at, now)}; Retry builds now.` : ' Retry builds again.';
  const failed = (reason: string, note = retryNote) => state('failed', 'Build failed', `${sentence(reason)}${note}`);
  const noAnswer = (since: string) =>
    state('no_answer', 'Build failed', `No answer from the build since ${clockTime(since, now)}. It may have stopped without reporting; Retry starts a new build.`);

  // Said first, and at once: without a build hook no change reaches the site, whatever else is recorded.
  if (facts.build_hook_set === false) return state('no_hook', 'Not rebuilt: no build hook', NO_HOOK_DETAIL);
  if (deploy?.state === 'building' && !deploy.stale) {
    return state('building', `Building since ${clockTime(deploy.started_at, now)}`, `The site is being rebuilt with the latest changes.${waiting}`);
  }
  const request = sendNewerThanBuild(facts);
  const waited = request ? now.getTime() - Date.parse(request.sent_at) : 0;
  if (request) {
    if (request.state === 'failed') {
      const again = facts.hook_retries_stopped
        ? ' It is no longer tried by itself: the next change, or Retry, tries again.'
        : facts.hook_retry_at
          ? ` It is tried again by itself at ${clockTime(facts.hook_retry_at, now)}; Retry tries now.`
          : ' It is tried again within a minute; Retry tries now.';
      return failed(request.error ?? 'The build could not be started', again);
    }
    if (request.state === 'skipped') return state('not_built', 'Not rebuilt', sentence(request.error ?? 'The build was skipped'));
    if (facts.reports_builds && waited > BUILD_START_TIMEOUT_MS) {
      return failed(`The build did not start within ${BUILD_START_TIMEOUT_MS / 60_000} minutes of its request`, ' The changes are sent again within a minute; Retry sends them now.');
    }
    if (waited <= BUILD_REPORT_TIMEOUT_MS) {
      return state('requested', `Build requested at ${clockTime(request.sent_at, now)}`, `Waiting for the build to start.${waiting}`);
    }
  } else if (deploy?.state === 'failed') {
    return failed(deploy.error ?? 'The build failed');
  }
  // Silence (a request never answered where builds do not report, a build stuck in `building`) matters less
  // than changes waiting now: they start a new build.
  if (facts.pending_count > 0) {
    const changes = countWords(facts.pending_count, 'change');
    const next = nextBuildAt(facts, now);
    if (budgetHolds(facts)) return state('waiting', 'Changes waiting', `${changes} waiting. ${budgetWaitDetail(facts.budget!, next, now)}`);
    if (next) return state('waiting', 'Changes waiting', `${changes} waiting; the next build starts in ${aboutDuration(next.getTime() - now.getTime())}.`);
    const since = facts.scheduler_ran_at ? ` since ${clockTime(facts.scheduler_ran_at, now)}` : '';
    return state('waiting', 'Changes waiting', `${changes} waiting, but the build scheduler has not run${since}.`);
  }
  if (request) return noAnswer(request.sent_at);
  if (deploy?.state === 'building') return noAnswer(deploy.started_at);
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

/** How long a build takes here: the median of the recent successful ones, else a minute. */
function buildDurationMs(facts: DeployFacts): number {
  return facts.recent_build_ms ?? DEFAULT_BUILD_MS;
}

/** What a site without a build hook is told, in the header and the editor. */
export const NO_HOOK_DETAIL = 'Changes are saved, but nothing reaches the site until an admin sets its build hook under Settings, Hosting & builds.';

/** Where a post's latest change stands on the public site, in the editor's words. */
export type PostOnSite = { kind: 'done' | 'building' | 'waiting' | 'failed'; text: string };

/**
 * When the build that takes a change made at `changed` starts: now for a requested build that took it, or
 * when nothing is in flight and the functions hold nothing (the flush after the change sends it); after the
 * build in flight otherwise (its estimated end); else the scheduler's next run. Null when nobody knows.
 */
function buildWithChangeStartsAt(changed: number, facts: DeployFacts, now: Date): Date | null {
  const deploy = facts.latest_deploy;
  const duration = buildDurationMs(facts);
  if (deploy?.state === 'building' && !deploy.stale) return new Date(Math.max(now.getTime(), Date.parse(deploy.started_at) + duration));
  const request = sendNewerThanBuild(facts);
  if (request && (request.state === 'claimed' || request.state === 'hook_called')) {
    return Date.parse(request.sent_at) >= changed ? now : new Date(now.getTime() + duration);
  }
  if (!heldBack(facts)) return now;
  return nextBuildAt(facts, now);
}

/**
 * What a published post's latest change (or an unpublished post's leaving) waits for, told to the editor
 * who made it: done once a build that started after the change succeeded (`isPostLive`'s rule), building
 * when such a build runs (done in about the recent builds' time), failed when the site's last build or its
 * request failed, else waiting for the build that takes it (the one requested, or the next after the build
 * in flight) plus the build's time.
 */
export function postOnSite(post: { status: string; published_at: string | null; updated_at: string }, facts: DeployFacts, now: Date = new Date(facts.now)): PostOnSite {
  const published = post.status === 'published';
  const changed = changedAt(post);
  if (facts.live && changed <= Date.parse(facts.live.started_at)) {
    return { kind: 'done', text: published ? 'Your post is live.' : 'Your post is off the site.' };
  }
  if (facts.build_hook_set === false) {
    return { kind: 'failed', text: `This site has no build hook, so ${published ? 'your post is not live' : 'your post stays on the site'} until an admin sets one under Settings, Hosting & builds.` };
  }
  const goes = published ? 'It goes live on the site' : 'It leaves the site';
  const deploy = facts.latest_deploy;
  const duration = buildDurationMs(facts);
  if (deploy?.state === 'building' && !deploy.stale && Date.parse(deploy.started_at) >= changed) {
    const left = Date.parse(deploy.started_at) + duration - now.getTime();
    return { kind: 'building', text: `The site is rebuilding with this change. ${goes} in ${aboutDuration(left)}.` };
  }
  const state = describeDeployState(facts, now);
  if (state.kind === 'failed' || state.kind === 'not_built' || state.kind === 'no_answer') {
    return { kind: 'failed', text: `${state.title}: ${state.detail} ${published ? 'Your post is not live yet.' : 'Your post is still on the site.'}` };
  }
  const start = buildWithChangeStartsAt(changed, facts, now);
  if (!start) return { kind: 'waiting', text: `${goes} when the site next rebuilds.` };
  return { kind: 'waiting', text: `${goes} in ${aboutDuration(start.getTime() - now.getTime() + duration)}, when the site rebuilds.` };
}

/** The facts for the organization, or null when the caller is not a member. */
export async function loadDeployFacts(client: SupabaseClient, organizationId: string): Promise<DeployFacts | null> {
  const { data, error } = await client.rpc('site_deploy_status', { p_organization_id: organizationId });
  if (error) throw new Error(`The site status could not be loaded: ${error.message}`);
  return (data as DeployFacts | null) ?? null;
}
