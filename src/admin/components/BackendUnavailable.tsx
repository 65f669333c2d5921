import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { probeBackend } from '../../lib/back-office/supabase-browser';
import { SERVICE_UNAVAILABLE } from '../../lib/service-unavailable';
import { $backendUnavailableSince } from '../stores/backend-reachability';
import { Button } from './ui/Button';

/** How often the notice asks the backend whether it is back. */
const PROBE_INTERVAL_MS = 15_000;

/**
 * While the backend is out of reach, asks every 15 seconds whether it is back (the first answer clears the mark,
 * and the screens in an error state load again by themselves). Used once per page, by the back office's frame.
 */
export function useBackendRecovery(): void {
  const unavailable = useStore($backendUnavailableSince) !== null;
  useEffect(() => {
    if (!unavailable) return;
    const timer = setInterval(() => void probeBackend(), PROBE_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [unavailable]);
}

/**
 * The notice under the header while the back office cannot reach its backend: what is wrong, since when, that
 * nothing can be saved meanwhile, and Try again. It goes away at the first answer.
 */
export default function BackendUnavailable() {
  const since = useStore($backendUnavailableSince);
  const [checking, setChecking] = useState(false);
  if (since === null) return null;
  const at = new Date(since).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });
  async function tryAgain() {
    setChecking(true);
    await probeBackend();
    setChecking(false);
  }
  return (
    <div role="alert" data-testid="backend-unavailable" className="border-b border-amber-600 bg-amber-50 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
        <p>
          <strong>{SERVICE_UNAVAILABLE.title}.</strong> The back office has had no answer from the service since {at}, so changes
          cannot be saved right now. It checks again every 15 seconds.
        </p>
        <Button variant="outline" size="sm" onClick={() => void tryAgain()} disabled={checking}>
          {checking ? 'Checking…' : 'Try again'}
        </Button>
      </div>
    </div>
  );
}
