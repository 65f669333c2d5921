/**
 * The sites board (/admin/sites): every site a person belongs to on one screen, for the agencies that run one
 * organization per client. `sites_board()` answers a row per organization where the caller is an active member
 * (their role there, what the header reads for it, and this month's figures) in one call whatever the number of
 * sites; this module turns each into what the board shows: its state in a few words (as the header words it),
 * its last build, its deploys against its hosting team's budget, and the first problem to act on.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { MemberRole } from './memberships.ts';
import { budgetHolds, describeDeployState, type DeployFacts, type DeployState } from './deploy-status.ts';
import { countWords } from './count-words.ts';
import { cycleDay } from './build-budget.ts';

/** What `sites_board()` answers for one site. */
export type BoardSite = {
  organization_id: string;
  name: string;
  slug: string;
  /** The site's confirmed domain, or null. */
  domain: string | null;
  role: MemberRole;
  /** The organization's time zone (its publishing queue's). */
  time_zone: string;
  /** What the header reads for it (null only if the membership ended between the two reads). */
  status: DeployFacts | null;
  queued_next_7_days: number;
  published_this_month: number;
  views_this_month: number;
  indexnow_failures: number;
};

/** The state column's few words, one per state a site can be in. */
export type BoardState = 'live' | 'building' | 'requested' | 'waiting_budget' | 'waiting' | 'failed' | 'no_hook' | 'not_built' | 'no_build';

export const BOARD_STATE_LABELS: Record<BoardState, string> = {
  live: 'Live',
  building: 'Building',
  requested: 'Build requested',
  waiting_budget: 'Waiting for the budget',
  waiting: 'Changes waiting',
  failed: 'Build failed',
  no_hook: 'No build hook',
  not_built: 'Not rebuilt',
  no_build: 'No build yet',
};

/** A board row: the site, its state (with the header's sentence), its last build, its budget use and its first problem. */
export type BoardRow = {
  site: BoardSite;
  state: BoardState;
  /** The header's line for the site: why it is in that state (a failure's reason, when the budget lets it build). */
  detail: string;
  lastBuild: { state: 'building' | 'succeeded' | 'failed'; at: string } | null;
  /** This site's deploys and credits this cycle, and its team's builds against the team's budget; null without a team. */
  budget: { deploys: number; credits: number; teamUsed: number; teamBudget: number; teamName: string; cycleEnd: string } | null;
  /** The first thing to act on, or null. */
  problem: string | null;
};

/** Reads the board: one call, every site of the signed-in person. */
export async function loadSitesBoard(client: SupabaseClient): Promise<BoardSite[]> {
  const { data, error } = await client.rpc('sites_board');
  if (error) throw new Error(`The sites could not be loaded: ${error.message}`);
  return (data as BoardSite[] | null) ?? [];
}

function boardState(state: DeployState, facts: DeployFacts): BoardState {
  switch (state.kind) {
    case 'live':
      return 'live';
    case 'building':
      return 'building';
    case 'requested':
      return 'requested';
    case 'waiting':
      return budgetHolds(facts) ? 'waiting_budget' : 'waiting';
    case 'failed':
    case 'no_answer':
      return 'failed';
    case 'no_hook':
      return 'no_hook';
    case 'not_built':
      return 'not_built';
    default:
      return 'no_build';
  }
}

/**
 * How often the open board reads again (ms): as often as the header's build status (every 5 s) for a few sites,
 * less often for many, so that an open board costs the database at most about 1% of a core (its read takes
 * about 0.3 ms a site: every 25 s at 500 sites).
 */
export function boardPollMs(sites: number, fastest: number): number {
  return Math.max(fastest, sites * 50);
}

/** A team at or past this share of its builds is close to running out: the board says so before it does. */
export const BUDGET_WARNING_SHARE = 0.9;

/**
 * The first problem to act on, most pressing first: a failed build (with its reason: the header's first sentence;
 * what Retry does is the header's to say), no build hook, the team's
 * builds used up, nearly used up, then IndexNow submissions that failed this month. Null when there is none.
 */
function firstProblem(state: BoardState, detail: string, site: BoardSite): string | null {
  const budget = site.status?.budget;
  if (state === 'failed') return `Build failed: ${detail.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? detail}`;
  if (state === 'no_hook') return 'No build hook: nothing reaches the site until an admin sets it under Settings, Hosting & builds.';
  if (budget?.share_spent) return `Deploy budget used up: automatic builds resume on ${cycleDay(budget.cycle_end)}.`;
  if (budget && budget.builds_in_cycle > 0 && budget.team_builds_used >= BUDGET_WARNING_SHARE * budget.builds_in_cycle) {
    return `Deploy budget nearly used: ${budget.builds_left.toLocaleString('en-US')} of ${countWords(budget.builds_in_cycle, 'build')} left for ${budget.team_name} until ${cycleDay(budget.cycle_end)}.`;
  }
  if (site.indexnow_failures > 0) return `${countWords(site.indexnow_failures, 'IndexNow submission')} failed this month: search engines may not know of new posts.`;
  return null;
}

/** What the board shows of a site at `now` (the database's clock, as the header reads it). */
export function boardRow(site: BoardSite, now?: Date): BoardRow {
  const facts = site.status;
  if (!facts) return { site, state: 'no_build', detail: 'No build has been recorded yet.', lastBuild: null, budget: null, problem: null };
  const described = describeDeployState(facts, now ?? new Date(facts.now));
  const state = boardState(described, facts);
  const deploy = facts.latest_deploy;
  const budget = facts.budget;
  return {
    site,
    state,
    detail: described.detail,
    lastBuild: deploy ? { state: deploy.state, at: deploy.finished_at ?? deploy.started_at } : null,
    budget: budget
      ? {
          deploys: budget.site_builds_used,
          credits: budget.site_builds_used * budget.credits_per_deploy,
          teamUsed: budget.team_builds_used,
          teamBudget: budget.builds_in_cycle,
          teamName: budget.team_name,
          cycleEnd: budget.cycle_end,
        }
      : null,
    problem: firstProblem(state, described.detail, site),
  };
}

/** The columns the board sorts by, and the value each sorts on (problems first, then by state's urgency). */
export const BOARD_SORTS = {
  name: (row: BoardRow) => row.site.name.toLowerCase(),
  state: (row: BoardRow) => STATE_ORDER.indexOf(row.state),
  lastBuild: (row: BoardRow) => (row.lastBuild ? Date.parse(row.lastBuild.at) : 0),
  queued: (row: BoardRow) => row.site.queued_next_7_days,
  published: (row: BoardRow) => row.site.published_this_month,
  views: (row: BoardRow) => row.site.views_this_month,
  indexnow: (row: BoardRow) => row.site.indexnow_failures,
  deploys: (row: BoardRow) => row.budget?.deploys ?? -1,
  problem: (row: BoardRow) => (row.problem ? 0 : 1),
} satisfies Record<string, (row: BoardRow) => string | number>;
export type BoardSort = keyof typeof BOARD_SORTS;

/** The states from most to least pressing. */
const STATE_ORDER: BoardState[] = ['failed', 'no_hook', 'waiting_budget', 'not_built', 'waiting', 'requested', 'building', 'no_build', 'live'];

/** The rows sorted by a column, ascending or descending; ties by name. */
export function sortBoard(rows: readonly BoardRow[], by: BoardSort, descending: boolean): BoardRow[] {
  const key = BOARD_SORTS[by];
  const byName = BOARD_SORTS.name;
  return [...rows].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    const order = x < y ? -1 : x > y ? 1 : 0;
    return (descending ? -order : order) || byName(a).localeCompare(byName(b));
  });
}

/** What the board is filtered by: words in the name, slug or domain; a state; only sites with a problem; a role. */
export type BoardFilter = { text: string; state: BoardState | 'all'; problemsOnly: boolean; role: MemberRole | 'all' };

export function filterBoard(rows: readonly BoardRow[], filter: BoardFilter): BoardRow[] {
  const words = filter.text.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (!words || [row.site.name, row.site.slug, row.site.domain ?? ''].some((field) => field.toLowerCase().includes(words))) &&
      (filter.state === 'all' || row.state === filter.state) &&
      (!filter.problemsOnly || row.problem !== null) &&
      (filter.role === 'all' || row.site.role === filter.role),
  );
}
