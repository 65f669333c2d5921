/**
 * The managed organization's site status, shared by the header's status line and blog management's Live
 * badges. `watchDeployStatus` reloads it every few seconds while the page is visible (and at once when it
 * becomes visible again), so a build that starts, succeeds or fails shows without a reload.
 */
import { atom } from 'nanostores';
import { loadDeployFacts, type DeployFacts } from '../../lib/back-office/deploy-status.ts';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser.ts';

/** How often the status is read while the page is visible. */
export const DEPLOY_STATUS_POLL_MS = 5_000;

/** The facts of the organization being watched, or null before the first answer (or for another organization). */
export const $deployFacts = atom<{ organizationId: string; facts: DeployFacts | null; failed: boolean; receivedAt: number } | null>(null);

/**
 * The database's clock at `at`: the facts' `now`, moved on by the time since they were received, so a wrong
 * browser clock changes nothing the status says.
 */
export function deployClock(entry: { facts: DeployFacts; receivedAt: number }, at: number = Date.now()): Date {
  return new Date(Date.parse(entry.facts.now) + Math.max(0, at - entry.receivedAt));
}

/** Reads the status once now (after a Retry, say). */
export async function refreshDeployStatus(organizationId: string): Promise<void> {
  try {
    const facts = await loadDeployFacts(supabaseBrowser(), organizationId);
    $deployFacts.set({ organizationId, facts, failed: false, receivedAt: Date.now() });
  } catch (error) {
    console.error(error);
    const current = $deployFacts.get();
    const kept = current?.organizationId === organizationId ? current : null;
    $deployFacts.set({ organizationId, facts: kept?.facts ?? null, failed: true, receivedAt: kept?.receivedAt ?? Date.now() });
  }
}

/** Starts watching the organization's status; returns the function that stops. */
export function watchDeployStatus(organizationId: string): () => void {
  if ($deployFacts.get()?.organizationId !== organizationId) $deployFacts.set(null);
  const read = () => {
    if (document.visibilityState === 'visible') void refreshDeployStatus(organizationId);
  };
  read();
  const timer = setInterval(read, DEPLOY_STATUS_POLL_MS);
  document.addEventListener('visibilitychange', read);
  return () => {
    clearInterval(timer);
    document.removeEventListener('visibilitychange', read);
  };
}
