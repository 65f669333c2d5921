import { useRef, useState, type FormEvent } from 'react';
import {
  budgetForecast,
  cycleSummary,
  cycleUsage,
  EXTRA_CREDITS_STEP,
  forecastSentences,
  hostingTeamFormValues,
  loadHostingView,
  moreCreditsSentence,
  nextPlan,
  parseHostingTeamForm,
  planOfForm,
  planSummary,
  saveHostingTeam,
  siteSummary,
  withPlan,
  type HostingTeam,
  type HostingTeamField,
  type HostingTeamFormValues,
} from '../../../lib/back-office/build-budget';
import { sendDueRebuilds } from '../../../lib/back-office/site-builds';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { NETLIFY_PLANS, type BuildBudget, type NetlifyPlanId, type TeamUsage } from '../../../schemas/hosting-team';
import { toast } from '../../../stores/toast';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { ErrorState } from '../../components/ui/EmptyState';
import { Field, Input } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';
import { Skeleton } from '../../components/ui/Skeleton';
import { Table, Td, Th } from '../../components/ui/Table';
import { refreshDeployStatus } from '../../stores/deploy-facts';
import { useLoad } from '../../use-load';

const PLAN_OPTIONS = [
  ...NETLIFY_PLANS.map((plan) => ({ value: plan.id, label: `${plan.name} (${plan.monthlyCredits.toLocaleString('en-US')} credits)` })),
  { value: 'custom', label: 'Custom' },
];

/** A site's name heading its row (Th is the columns' heading, muted). */
const ROW_HEADER = 'border-b border-border px-3 py-2 text-left font-normal';

const NUMBER_FIELDS: { name: Exclude<HostingTeamField, 'name' | 'auto_recharge'>; label: string; hint: string }[] = [
  { name: 'monthly_credits', label: 'Monthly credits', hint: "The plan's credits a month, for every site of the team." },
  { name: 'credits_per_deploy', label: 'Credits per deploy', hint: 'What one production deploy costs (15 on the credit plans).' },
  { name: 'cycle_start_day', label: 'Cycle start day', hint: 'The day the billing cycle starts (UTC); in a shorter month, its last day.' },
  { name: 'build_share_percent', label: 'Build share (%)', hint: 'The share of credits builds may use; the rest is left for traffic and functions.' },
];

/**
 * Hosting & builds: what the site's builds cost on its Netlify team's credits. An admin of every site of the team
 * sees the team's plan (and changes it), this cycle's deploys and credits per site and in all, the forecast
 * without pacing and what more credits would buy; an admin of only some of its sites sees this site's own figures.
 */
export function HostingCard({ organizationId }: { organizationId: string }) {
  const client = supabaseBrowser();
  const state = useLoad(() => loadHostingView(client, organizationId), [client, organizationId]);
  const view = state.value;

  return (
    <Card aria-label="Hosting & builds">
      <CardHeader
        title="Hosting & builds"
        description="Every build of the site is a production deploy on its Netlify team, paid in credits shared by the team's sites."
        actions={<Button variant="outline" onClick={state.reload}>Refresh</Button>}
      />
      {!view && state.state === 'loading' && <Skeleton rows={4} label="Loading hosting figures..." />}
      {!view && state.state === 'error' && <ErrorState message="Failed to load the hosting figures" onRetry={state.reload} />}
      {view?.kind === 'team' && <TeamHosting usage={view.usage} team={view.team} organizationId={organizationId} onSaved={state.reload} />}
      {view?.kind === 'site' && <SiteHosting budget={view.budget} />}
    </Card>
  );
}

/** What any admin of the site reads: its own deploys, the cycle, and who sees the rest. */
function SiteHosting({ budget }: { budget: BuildBudget | null }) {
  if (!budget) return <p className="text-sm text-muted-foreground">This site is in no hosting team, so its builds are not paced.</p>;
  return (
    <div className="space-y-2 text-sm">
      <p>{siteSummary(budget)}</p>
      <p className="text-muted-foreground">The team's plan, every site's builds and the forecast are for admins of all the team's sites.</p>
    </div>
  );
}

/** An admin of every site of the team: the cycle's figures, the forecast, and the team's plan as a form. */
function TeamHosting({ usage, team, organizationId, onSaved }: { usage: TeamUsage; team: HostingTeam; organizationId: string; onSaved: () => void }) {
  const { budget } = usage;
  const figures = cycleUsage(usage);
  const forecast = budgetForecast(usage, new Date());
  const sentences = forecastSentences(forecast);
  const upgrade = nextPlan(budget);
  const warns = forecast.spent || forecast.runsOutAt !== null;

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="min-w-0 space-y-5">
        <section aria-labelledby="hosting-cycle" className="space-y-2">
          <h4 id="hosting-cycle" className="text-sm font-semibold">This cycle</h4>
          <p className="text-sm" data-testid="hosting-cycle-summary">{cycleSummary(budget)}</p>
          <Table>
            <caption className="sr-only">Deploys and credits of each site this cycle</caption>
            <thead>
              <tr>
                <Th>Site</Th>
                <Th className="text-right">Deploys</Th>
                <Th className="text-right">Credits</Th>
              </tr>
            </thead>
            <tbody>
              {figures.sites.map((site) => (
                <tr key={site.organization_id} data-testid="hosting-site-row">
                  <th scope="row" className={ROW_HEADER}>
                    {site.name}
                    {site.organization_id === organizationId && <span className="text-muted-foreground"> (this site)</span>}
                  </th>
                  <Td className="text-right tabular-nums">{site.deploys.toLocaleString('en-US')}</Td>
                  <Td className="text-right tabular-nums">{site.credits.toLocaleString('en-US')}</Td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr data-testid="hosting-total-row" className="font-semibold">
                <th scope="row" className="px-3 py-2 text-left">All sites</th>
                <td className="px-3 py-2 text-right tabular-nums">{figures.deploys.toLocaleString('en-US')}</td>
                <td className="px-3 py-2 text-right tabular-nums">{figures.credits.toLocaleString('en-US')}</td>
              </tr>
            </tfoot>
          </Table>
        </section>
        <section aria-labelledby="hosting-forecast" className="space-y-2">
          <h4 id="hosting-forecast" className="text-sm font-semibold">Forecast</h4>
          <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="hosting-forecast">
            <li>{sentences.recentPace}</li>
            <li>{sentences.queuePace}</li>
          </ul>
          <p
            data-testid="hosting-run-out"
            className={
              warns
                ? 'rounded-md border border-amber-500/60 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100'
                : 'text-sm text-muted-foreground'
            }
          >
            {sentences.runOut}
          </p>
        </section>
        <section aria-labelledby="hosting-more" className="space-y-2">
          <h4 id="hosting-more" className="text-sm font-semibold">What more credits buy</h4>
          <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="hosting-more-credits">
            <li>{moreCreditsSentence(budget, EXTRA_CREDITS_STEP)}</li>
            {upgrade && <li>The {upgrade.name} plan's {moreCreditsSentence(budget, upgrade.monthlyCredits - budget.monthly_credits)}</li>}
          </ul>
        </section>
      </div>
      <TeamForm key={team.id} team={team} budget={budget} organizationId={organizationId} onSaved={onSaved} />
    </div>
  );
}

/** The team's figures, saved through row-level security (only an admin of every site of the team may). */
function TeamForm({ team, budget, organizationId, onSaved }: { team: HostingTeam; budget: BuildBudget; organizationId: string; onSaved: () => void }) {
  const [values, setValues] = useState<HostingTeamFormValues>(() => hostingTeamFormValues(team));
  const [errors, setErrors] = useState<Partial<Record<HostingTeamField, string>>>({});
  const [saving, setSaving] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const plan = planOfForm(values);

  async function save(event: FormEvent) {
    event.preventDefault();
    const parsed = parseHostingTeamForm(values);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      // After React has marked the fields invalid, move to the first one so keyboard and screen reader users land on it.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      toast({ title: 'Error', description: 'Please correct the highlighted fields; nothing was saved', variant: 'destructive' });
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const client = supabaseBrowser();
      setValues(hostingTeamFormValues(await saveHostingTeam(client, team.id, parsed.input)));
      toast({ title: 'Hosting Saved', description: "The hosting team's figures have been updated successfully" });
      onSaved();
      // A larger budget may let waiting changes build now: send them, and show the header's new state at once.
      sendDueRebuilds(client, organizationId);
      void refreshDeployStatus(organizationId);
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: "Failed to save the hosting team's figures", variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <form ref={formRef} onSubmit={save} noValidate aria-labelledby="hosting-plan" className="min-w-0 space-y-4 rounded-md border border-border p-4">
      <div>
        <h4 id="hosting-plan" className="text-sm font-semibold">Plan</h4>
        <p className="text-sm text-muted-foreground">{planSummary(budget)}</p>
      </div>
      <Field label="Team name" hint="As the agency knows its Netlify team." error={errors.name}>
        {(control) => <Input {...control} name="name" value={values.name} onChange={(e) => setValues({ ...values, name: e.target.value })} />}
      </Field>
      <Field label="Netlify plan" hint="Fills in the plan's monthly credits and what a deploy costs.">
        {(control) => (
          <Select
            {...control}
            name="plan"
            className="w-full"
            options={PLAN_OPTIONS}
            value={plan}
            onChange={(e) => e.target.value !== 'custom' && setValues(withPlan(values, e.target.value as NetlifyPlanId))}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        {NUMBER_FIELDS.map((field) => (
          <Field key={field.name} label={field.label} hint={field.hint} error={errors[field.name]}>
            {(control) => (
              <Input
                {...control}
                name={field.name}
                type="number"
                inputMode="numeric"
                value={values[field.name]}
                onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
              />
            )}
          </Field>
        ))}
      </div>
      <div className="space-y-1">
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="auto_recharge"
            aria-describedby="hosting-auto-recharge-hint"
            checked={values.auto_recharge}
            onChange={(e) => setValues({ ...values, auto_recharge: e.target.checked })}
          />
          Netlify buys more credits automatically
        </label>
        <p id="hosting-auto-recharge-hint" className="text-xs text-muted-foreground">
          With auto recharge, no site is paused when the credits run out, but the extra credits cost.
        </p>
      </div>
      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Hosting'}
        </Button>
      </div>
    </form>
  );
}
