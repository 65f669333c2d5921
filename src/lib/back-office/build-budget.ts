/**
 * The hosting team's build budget as the back office tells it (migration 20261129001100_hosting_teams.sql decides
 * it; `src/schemas/hosting-team.ts` types it): Settings' figures of the billing cycle (deploys and credits per site
 * and in all), the forecast by the cycle's end without pacing, what more credits would buy, the team's figures as a
 * form, and what an admin's Build now costs. The cycle is the team's in UTC, so its dates are said in UTC too: a
 * cycle that ends at midnight UTC on Dec 1 ends on "Dec 1" wherever the admin is.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import {
  DEFAULT_CREDITS_PER_DEPLOY,
  HostingTeamInputSchema,
  NETLIFY_PLANS,
  type BuildBudget,
  type HostingTeamInput,
  type NetlifyPlanId,
  type TeamSiteUsage,
  type TeamUsage,
} from '../../schemas/hosting-team.ts';
import { countWords } from './count-words.ts';
import { loadDeployFacts } from './deploy-status.ts';

const DAY_MS = 86_400_000;
/** The recent pace is the team's builds of the last 14 days (`hosting_team_usage().builds_last_14_days`). */
const RECENT_DAYS = 14;
/** The step "what more credits buy" is told in: a round figure an admin can compare with Netlify's prices. */
export const EXTRA_CREDITS_STEP = 500;

/** "Dec 1": a day of the team's cycle (UTC). */
export function cycleDay(at: Date | string): string {
  return new Date(at).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** "16 builds", "1 build". */
const builds = (count: number) => countWords(count, 'build');
/** "This month's 16 builds are used", "This month's 1 build is used". */
const monthUsed = (count: number) => `This month's ${builds(count)} ${count === 1 ? 'is' : 'are'} used`;

/** How many days the budget's cycle has (28 to 31). */
function cycleDays(budget: BuildBudget): number {
  return (Date.parse(budget.cycle_end) - Date.parse(budget.cycle_start)) / DAY_MS;
}

/** The cycle's builds for a number of monthly credits, as the database counts them (whole builds, rounded down). */
function buildsFor(budget: BuildBudget, monthlyCredits: number): number {
  return Math.floor((monthlyCredits * budget.build_share_percent) / 100 / budget.credits_per_deploy);
}

/** "16 builds a month: 80% of 300 credits, at 15 credits a deploy." */
export function planSummary(budget: BuildBudget): string {
  return `${builds(budget.builds_in_cycle)} a month: ${budget.build_share_percent}% of ${budget.monthly_credits.toLocaleString('en-US')} credits, at ${countWords(budget.credits_per_deploy, 'credit')} a deploy.`;
}

/** "Nov 1 to Dec 1: 15 of 16 builds used (225 credits), 1 left." (the team's builds this cycle). */
export function cycleSummary(budget: BuildBudget): string {
  const used = `${budget.team_builds_used.toLocaleString('en-US')} of ${builds(budget.builds_in_cycle)} used`;
  return `${cycleDay(budget.cycle_start)} to ${cycleDay(budget.cycle_end)}: ${used} (${countWords(budget.credits_used, 'credit')}), ${budget.builds_left.toLocaleString('en-US')} left.`;
}

/**
 * "This site: 3 deploys this cycle (45 credits). Its team, Agency: 41 of 213 builds left until Dec 1." (what any
 * admin of the site reads of its team's budget).
 */
export function siteSummary(budget: BuildBudget): string {
  const credits = countWords(budget.site_builds_used * budget.credits_per_deploy, 'credit');
  const left = `${budget.builds_left.toLocaleString('en-US')} of ${builds(budget.builds_in_cycle)} left until ${cycleDay(budget.cycle_end)}`;
  return `This site: ${countWords(budget.site_builds_used, 'deploy')} this cycle (${credits}). Its team, ${budget.team_name}: ${left}.`;
}

/** This cycle's deploys and credits: each site's (as the team's usage lists them) and the team's in all. */
export function cycleUsage(usage: TeamUsage): { sites: TeamSiteUsage[]; deploys: number; credits: number } {
  return {
    sites: usage.sites,
    deploys: usage.sites.reduce((sum, site) => sum + site.deploys, 0),
    credits: usage.sites.reduce((sum, site) => sum + site.credits, 0),
  };
}

/** Where the team's builds are heading by the cycle's end if nothing held them back (see `budgetForecast`). */
export type BudgetForecast = {
  cycleEnd: Date;
  /** The cycle's builds (the share's credits / credits per deploy). */
  buildsInCycle: number;
  /** The team's builds in the last 14 days, and the builds by the cycle's end at that pace. */
  recentBuilds: number;
  atRecentPace: number;
  /**
   * Scheduled and queued posts still to go out this cycle, the builds they need (posts of one slot go out
   * together), and the builds by its end at that pace.
   */
  scheduled: number;
  scheduledBuilds: number;
  atQueuePace: number;
  /** When the share would run out at the higher of the two paces; null when it lasts the cycle (or is spent). */
  runsOutAt: Date | null;
  /** Whether the cycle's share is spent already. */
  spent: boolean;
};

/**
 * The forecast without pacing: the builds by the cycle's end at the last 14 days' pace (the team's recent builds a
 * day, for the days left) and at the queues' pace (each time scheduled posts still go out this cycle is a deploy:
 * posts of one queue slot go out together), and the day the share would run out at the higher of the two.
 */
export function budgetForecast(usage: TeamUsage, now: Date): BudgetForecast {
  const { budget } = usage;
  const cycleEnd = new Date(budget.cycle_end);
  const daysLeft = Math.max(0, (cycleEnd.getTime() - now.getTime()) / DAY_MS);
  const used = budget.team_builds_used;
  const recentPerDay = usage.builds_last_14_days / RECENT_DAYS;
  const scheduled = usage.sites.reduce((sum, site) => sum + site.scheduled_in_cycle, 0);
  const scheduledBuilds = usage.sites.reduce((sum, site) => sum + site.scheduled_slots_in_cycle, 0);
  const queuePerDay = daysLeft > 0 ? scheduledBuilds / daysLeft : 0;
  const pace = Math.max(recentPerDay, queuePerDay);
  const left = budget.builds_in_cycle - used;
  const spent = left <= 0;
  const runsOut = !spent && pace > 0 ? new Date(now.getTime() + (left / pace) * DAY_MS) : null;
  return {
    cycleEnd,
    buildsInCycle: budget.builds_in_cycle,
    recentBuilds: usage.builds_last_14_days,
    atRecentPace: used + Math.round(recentPerDay * daysLeft),
    scheduled,
    scheduledBuilds,
    atQueuePace: used + scheduledBuilds,
    runsOutAt: runsOut && runsOut < cycleEnd ? runsOut : null,
    spent,
  };
}

/**
 * The forecast in sentences: at the recent pace, at the queues' pace, and whether (and when) the share would run
 * out without pacing.
 */
export function forecastSentences(forecast: BudgetForecast): { recentPace: string; queuePace: string; runOut: string } {
  const end = cycleDay(forecast.cycleEnd);
  const ofMonth = `of ${forecast.buildsInCycle.toLocaleString('en-US')} this month`;
  const together = forecast.scheduledBuilds < forecast.scheduled ? ` in ${builds(forecast.scheduledBuilds)}` : '';
  const posts = forecast.scheduled === 0 ? 'no scheduled posts' : `${countWords(forecast.scheduled, 'scheduled post')}${together}`;
  const share = `this month's ${builds(forecast.buildsInCycle)}`;
  let runOut: string;
  if (forecast.spent) runOut = `${monthUsed(forecast.buildsInCycle)}: automatic builds resume on ${end}.`;
  else if (forecast.runsOutAt) runOut = `Without pacing, ${share} would run out on ${cycleDay(forecast.runsOutAt)}; pacing spreads them until ${end}.`;
  else runOut = `At these paces, ${share} ${forecast.buildsInCycle === 1 ? 'lasts' : 'last'} until ${end}.`;
  return {
    recentPace: `At the last 14 days' pace (${builds(forecast.recentBuilds)}): about ${builds(forecast.atRecentPace)} by ${end}, ${ofMonth}.`,
    queuePace: `At the queues' pace (${posts} still to go out): ${builds(forecast.atQueuePace)} by ${end}, ${ofMonth}.`,
    runOut,
  };
}

/** "about 0.9 a day", or "about one every 12 days" for fewer than one build in ten days. */
function perDay(count: number, days: number): string {
  const rate = count / days;
  if (rate >= 0.1) return `about ${rate.toLocaleString('en-US', { maximumFractionDigits: 1 })} a day`;
  return `about one every ${Math.round(1 / rate)} days`;
}

/**
 * What more credits a month would buy at the team's price per deploy and build share: "500 more credits a month:
 * 26 more builds, about 0.9 a day." (per day over the current cycle's length).
 */
export function moreCreditsSentence(budget: BuildBudget, extraCredits: number): string {
  const more = buildsFor(budget, budget.monthly_credits + extraCredits) - buildsFor(budget, budget.monthly_credits);
  const credits = `${extraCredits.toLocaleString('en-US')} more credits a month`;
  if (more === 0) return `${credits}: no more builds at ${countWords(budget.credits_per_deploy, 'credit')} a deploy.`;
  return `${credits}: ${countWords(more, 'more build')}, ${perDay(more, cycleDays(budget))}.`;
}

/** The next of Netlify's plans with more credits than the team has, if any (what an upgrade would give). */
export function nextPlan(budget: BuildBudget): (typeof NETLIFY_PLANS)[number] | null {
  return NETLIFY_PLANS.find((plan) => plan.monthlyCredits > budget.monthly_credits) ?? null;
}

/**
 * What an admin's Build now costs, before it is confirmed: a deploy's credits, and what is left of the month's
 * builds; past the share, that the build takes credits kept for the sites' traffic and what happens when they run
 * out (Netlify pauses the team's sites, or buys more credits where the team has it do so).
 */
export function manualBuildCost(budget: BuildBudget): string {
  const cost = `Build now costs ${countWords(budget.credits_per_deploy, 'credit')}.`;
  if (budget.builds_left > 0) {
    const left = budget.builds_left.toLocaleString('en-US');
    return `${cost} ${left} of ${builds(budget.builds_in_cycle)} ${budget.builds_left === 1 ? 'is' : 'are'} left this month.`;
  }
  const past = `${cost} ${monthUsed(budget.builds_in_cycle)}, so it takes credits kept for the sites' traffic`;
  if (budget.auto_recharge) return `${past}; if the team's credits run out, Netlify buys more (at a cost).`;
  const sites = budget.sites === 1 ? 'the site' : `all ${budget.sites} sites of the team`;
  return `${past}; if the team's credits run out, Netlify pauses ${sites} until ${cycleDay(budget.cycle_end)}.`;
}

/** A hosting team's row as its admins read and change it. */
export type HostingTeam = HostingTeamInput & { id: string };

/**
 * What Settings shows of the site's hosting: the team, its usage and its row for an admin of every site of the
 * team; else only the site's own budget (null for an organization without a team).
 */
export type HostingView = { kind: 'team'; usage: TeamUsage; team: HostingTeam } | { kind: 'site'; budget: BuildBudget | null };

/** Reads the organization's hosting: the team's usage and figures where the caller may, else the site's budget. */
export async function loadHostingView(client: SupabaseClient, organizationId: string): Promise<HostingView> {
  const { data, error } = await client.rpc('hosting_team_usage', { p_organization_id: organizationId });
  if (error) throw new Error(`The hosting team could not be loaded: ${error.message}`);
  const usage = data as TeamUsage | null;
  if (!usage) return { kind: 'site', budget: (await loadDeployFacts(client, organizationId))?.budget ?? null };
  // The form needs the cycle's start day, which the budget only shows as a date (a 31 is the 30th in November).
  const team = await client
    .from('hosting_teams')
    .select('id, name, monthly_credits, credits_per_deploy, cycle_start_day, build_share_percent, auto_recharge')
    .eq('id', usage.budget.team_id)
    .single();
  if (team.error) throw new Error(`The hosting team could not be loaded: ${team.error.message}`);
  return { kind: 'team', usage, team: team.data as HostingTeam };
}

/** The team form's fields as typed (numbers as text: zod reads them), and its checkbox. */
export type HostingTeamFormValues = {
  name: string;
  monthly_credits: string;
  credits_per_deploy: string;
  cycle_start_day: string;
  build_share_percent: string;
  auto_recharge: boolean;
};
export type HostingTeamField = keyof HostingTeamFormValues;

/** The form prefilled from the team's row. */
export function hostingTeamFormValues(team: HostingTeamInput): HostingTeamFormValues {
  return {
    name: team.name,
    monthly_credits: String(team.monthly_credits),
    credits_per_deploy: String(team.credits_per_deploy),
    cycle_start_day: String(team.cycle_start_day),
    build_share_percent: String(team.build_share_percent),
    auto_recharge: team.auto_recharge,
  };
}

/** The Netlify plan the form's figures are (its credits at the plans' price per deploy), else custom. */
export function planOfForm(values: HostingTeamFormValues): NetlifyPlanId | 'custom' {
  if (Number(values.credits_per_deploy) !== DEFAULT_CREDITS_PER_DEPLOY) return 'custom';
  return NETLIFY_PLANS.find((plan) => plan.monthlyCredits === Number(values.monthly_credits))?.id ?? 'custom';
}

/** The form with a plan's figures: its monthly credits and the plans' price per deploy. */
export function withPlan(values: HostingTeamFormValues, planId: NetlifyPlanId): HostingTeamFormValues {
  const plan = NETLIFY_PLANS.find((each) => each.id === planId)!;
  return { ...values, monthly_credits: String(plan.monthlyCredits), credits_per_deploy: String(DEFAULT_CREDITS_PER_DEPLOY) };
}

/** The team's figures to save, or the message of each invalid field. */
export function parseHostingTeamForm(
  values: HostingTeamFormValues,
): { ok: true; input: HostingTeamInput } | { ok: false; errors: Partial<Record<HostingTeamField, string>> } {
  const result = HostingTeamInputSchema.safeParse(values);
  if (result.success) return { ok: true, input: result.data };
  const errors: Partial<Record<HostingTeamField, string>> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]) as HostingTeamField;
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/**
 * Saves the team's figures under the admin's own session: row-level security lets only an admin of every site of
 * the team change it (a refusal changes no row, and says so), and a trigger logs the change in each site's audit log.
 */
export async function saveHostingTeam(client: SupabaseClient, teamId: string, input: HostingTeamInput): Promise<HostingTeam> {
  const { data, error } = await client
    .from('hosting_teams')
    .update(input)
    .eq('id', teamId)
    .select('id, name, monthly_credits, credits_per_deploy, cycle_start_day, build_share_percent, auto_recharge')
    .maybeSingle();
  if (error) throw new Error(`Saving the hosting team failed: ${error.message}`);
  if (!data) throw new Error('Saving the hosting team failed: only an admin of every site of the team may change it');
  return data as HostingTeam;
}
