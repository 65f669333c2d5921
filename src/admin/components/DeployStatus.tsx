import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { manualBuildCost } from '../../lib/back-office/build-budget';
import { budgetHolds, describeDeployState, type DeployStateKind } from '../../lib/back-office/deploy-status';
import { retrySiteBuild } from '../../lib/back-office/site-builds';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $deployFacts, deployClock, refreshDeployStatus, watchDeployStatus } from '../stores/deploy-facts';
import { toast } from '../../stores/toast';
import type { BackOfficeAccess } from '../use-back-office-access';
import { Button } from './ui/Button';
import { ConfirmDialog } from './ui/ConfirmDialog';

/** The dot's colour per state: green live, blue moving, amber waiting, red failed or silent, grey unknown. */
const DOTS: Record<DeployStateKind, string> = {
  live: 'bg-green-600',
  building: 'bg-blue-600 motion-safe:animate-pulse',
  requested: 'bg-blue-600 motion-safe:animate-pulse',
  waiting: 'bg-amber-500',
  failed: 'bg-red-600',
  not_built: 'bg-red-600',
  no_answer: 'bg-red-600',
  no_hook: 'bg-red-600',
  unknown: 'bg-gray-400',
};

/**
 * The public site's state at a glance, under the header: up to date (live since, with a link), changes
 * waiting (next build in about N seconds, or when the build budget lets it), building since, failed (with the
 * reason and, for admins, Retry), or a site without a build hook (said at once, with what to do, no Retry). While the budget holds changes back, an admin may Build now, past the pace,
 * once a dialog has said what it costs; Retry asks the same then, since it builds past the pace too. Editors and
 * viewers see the reason only. A polite live region, so a screen reader hears when a build starts or ends.
 */
export default function DeployStatus({ access }: { access: BackOfficeAccess }) {
  const organizationId = access.organization.id;
  const current = useStore($deployFacts);
  const [retrying, setRetrying] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => watchDeployStatus(organizationId), [organizationId]);
  // "in about N seconds" counts down between reads.
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);

  const mine = current?.organizationId === organizationId ? current : null;
  if (!mine?.facts) return null;
  const { facts } = mine;
  const state = describeDeployState(facts, deployClock({ facts, receivedAt: mine.receivedAt }, now));
  const admin = access.role === 'admin';
  // The budget holds only what waits: with nothing pending, a build would cost a deploy for no change.
  const held = budgetHolds(facts) && facts.pending_count > 0;
  // Without a build hook neither can help: the header says what to do instead.
  const action = state.kind === 'no_hook' ? null : admin && state.retry ? 'Retry' : admin && held ? 'Build now' : null;

  async function retry() {
    setConfirming(false);
    setRetrying(true);
    try {
      await retrySiteBuild(supabaseBrowser(), organizationId);
      toast({ title: 'Rebuild started', description: 'The site is being rebuilt.' });
      await refreshDeployStatus(organizationId);
    } catch (error) {
      toast({ title: 'Error', description: (error as Error).message, variant: 'destructive' });
    } finally {
      setRetrying(false);
    }
  }

  return (
    <>
      <div
        role="status"
        aria-live="polite"
        aria-label="Site status"
        data-testid="deploy-status"
        data-state={state.kind}
        className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm"
      >
        <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-full ${DOTS[state.kind]}`} />
        <span className="font-medium">Site: {state.title}</span>
        <span className="text-muted-foreground">{state.detail}</span>
        {state.href && (
          <a href={state.href} target="_blank" rel="noopener noreferrer" className="text-primary underline-offset-2 hover:underline">
            View live site<span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
        {action && (
          <Button variant="outline" size="sm" onClick={() => (budgetHolds(facts) ? setConfirming(true) : void retry())} disabled={retrying}>
            {retrying ? (action === 'Retry' ? 'Retrying...' : 'Building...') : action}
          </Button>
        )}
      </div>
      {/* Outside the live region: the dialog is read when it opens, not announced as a status change. */}
      {facts.budget && (
        <ConfirmDialog
          open={confirming}
          title="Build the site now?"
          description={manualBuildCost(facts.budget)}
          confirmLabel="Build now"
          onConfirm={() => void retry()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}

