/**
 * A hosting team: the sites that share one Netlify team, and so one pool of credits (migration
 * 20261129001100_hosting_teams.sql, whose CHECK constraints these bounds mirror). What the database answers about a
 * site's budget (`site_deploy_status().budget`, `hosting_team_usage()`) is typed here too.
 */
import { z } from './zod.ts';

/** Netlify's credit-based plans, as their monthly credits per team (an Enterprise plan: its own figure). */
export const NETLIFY_PLANS = [
  { id: 'free', name: 'Free', monthlyCredits: 300 },
  { id: 'personal', name: 'Personal', monthlyCredits: 1_000 },
  { id: 'pro', name: 'Pro', monthlyCredits: 5_000 },
] as const;
export type NetlifyPlanId = (typeof NETLIFY_PLANS)[number]['id'];

/** What a production deploy costs on Netlify's credit plans. */
export const DEFAULT_CREDITS_PER_DEPLOY = 15;
/** The share of credits builds may use by default: the rest is left for bandwidth, requests and functions. */
export const DEFAULT_BUILD_SHARE_PERCENT = 80;

/** A team's figures as an admin of every one of its sites sets them. */
export const HostingTeamInputSchema = z.object({
  /** The team's name, as the agency knows its Netlify team. */
  name: z.string().trim().min(1, 'Name is required').max(120, 'At most 120 characters'),
  /** The plan's credits a month (Free 300, Personal 1,000, Pro 5,000). */
  monthly_credits: z.coerce.number<unknown>().int('A whole number of credits').min(1, 'At least 1 credit').max(10_000_000, 'At most 10,000,000 credits'),
  /** What one production deploy costs (15 on Netlify's credit plans). */
  credits_per_deploy: z.coerce.number<unknown>().int('A whole number of credits').min(1, 'At least 1 credit').max(1_000, 'At most 1,000 credits'),
  /** The day of the month the billing cycle starts (UTC); in a shorter month, its last day. */
  cycle_start_day: z.coerce.number<unknown>().int('A day of the month').min(1, 'A day from 1 to 31').max(31, 'A day from 1 to 31'),
  /** The share of the credits builds may use, in percent. */
  build_share_percent: z.coerce.number<unknown>().int('A whole percentage').min(1, 'From 1 to 100 percent').max(100, 'From 1 to 100 percent'),
  /** Whether Netlify buys more credits when they run out (nothing is paused then, but it costs). */
  auto_recharge: z.boolean(),
});
export type HostingTeamInput = z.infer<typeof HostingTeamInputSchema>;

/** A site's build budget now (`private.site_budget`): its team's figures, the cycle, what is used and allowed. */
export type BuildBudget = {
  team_id: string;
  team_name: string;
  monthly_credits: number;
  credits_per_deploy: number;
  build_share_percent: number;
  auto_recharge: boolean;
  /** The billing cycle: its start and the next one's (ISO). */
  cycle_start: string;
  cycle_end: string;
  /** The sites of the team. */
  sites: number;
  /** The builds the share pays for this cycle. */
  builds_in_cycle: number;
  team_builds_used: number;
  site_builds_used: number;
  builds_left: number;
  credits_used: number;
  /** The builds the pace allows by now. */
  allowed_now: number;
  /** Whether an automatic build of this site may start now. */
  may_build: boolean;
  /** Whether the team's share of this cycle is spent: automatic builds wait for the next cycle. */
  share_spent: boolean;
  /** When an automatic build of this site may next start (now, when it may). */
  next_build_at: string;
};

/** One site of a team this cycle (`hosting_team_usage().sites`). */
export type TeamSiteUsage = {
  organization_id: string;
  name: string;
  slug: string;
  deploys: number;
  credits: number;
  /** Scheduled and queued posts still to go out this cycle. */
  scheduled_in_cycle: number;
  /** The distinct times they go out: the builds they need (a queue slot of several posts is one build). */
  scheduled_slots_in_cycle: number;
};

/** What an admin of every site of a team reads in Settings (`hosting_team_usage`). */
export type TeamUsage = {
  budget: BuildBudget;
  sites: TeamSiteUsage[];
  builds_last_14_days: number;
};
