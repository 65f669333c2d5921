/**
 * The mails that warn a hosting team's admins before its build budget is spent: one at 80% of the cycle's build
 * share and one at 95% (the database answers each team once per cycle and level: `claim_budget_alerts`, migration
 * 20261129001100_hosting_teams.sql). The scheduler sends them every minute, so a warning goes out within a minute
 * of the build that crossed the line.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { BuildBudget } from '../../schemas/hosting-team.ts';
import { escapeHtml } from './invitation-mail.ts';
import { type Mail, sendMail } from './mailer.ts';

/** One alert as the database claims it. */
type BudgetAlert = { team_id: string; team_name: string; percent: 80 | 95; budget: BuildBudget; admin_emails: string[] };

/** "December 1" (UTC: the billing cycle's days are UTC). */
function day(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric' });
}

/** The warning mail: how much of the share is used, what happens when it is spent, and what to do. */
export function budgetAlertMail(to: string, alert: BudgetAlert): Mail {
  const { budget, percent, team_name: team } = alert;
  const subject = `${team}: ${percent}% of this month's builds are used`;
  const lines = [
    `The sites of ${team} have used ${budget.team_builds_used.toLocaleString('en-US')} of the ${budget.builds_in_cycle.toLocaleString('en-US')} builds this month's share pays for ` +
      `(${budget.credits_used.toLocaleString('en-US')} credits at ${budget.credits_per_deploy} a deploy; builds may use ${budget.build_share_percent}% of the plan's ${budget.monthly_credits.toLocaleString('en-US')} credits).`,
    `Publishing goes on: changes are gathered into fewer builds, and once the share is spent, automatic builds wait until the next cycle starts on ${day(budget.cycle_end)}. ` +
      'The sites stay up with what they show; an admin can still build by hand in the back office.',
    budget.auto_recharge
      ? 'The team buys more credits automatically: a build past the share costs extra credits.'
      : 'Past the plan\'s credits Netlify pauses every site of the team: raise the plan, or let fewer changes go out this month.',
    'Settings → Hosting & builds shows each site\'s builds and the forecast.',
  ];
  return {
    to,
    subject,
    text: lines.join('\n\n'),
    html: lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n'),
  };
}

/**
 * Claims the due alerts and mails each team's admins; answers how many mails went out. A mail that fails is logged
 * and not tried again (the claim recorded the level): the back office's header and Settings say the same.
 */
export async function sendBudgetAlerts(client: SupabaseClient): Promise<number> {
  const { data, error } = await client.rpc('claim_budget_alerts');
  if (error) throw new Error(`claim_budget_alerts failed: ${error.message}`);
  let sent = 0;
  for (const alert of data as BudgetAlert[]) {
    for (const to of alert.admin_emails) {
      try {
        const outcome = await sendMail(budgetAlertMail(to, alert));
        if (outcome.status === 'sent') sent += 1;
        else console.error(`budget alert for ${alert.team_name}: no mail transport is configured (${to} not told of ${alert.percent}%)`);
      } catch (cause) {
        console.error(`budget alert for ${alert.team_name} to ${to} failed: ${(cause as Error).message}`);
      }
    }
  }
  return sent;
}
