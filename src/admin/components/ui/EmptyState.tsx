import { useStore } from '@nanostores/react';
import { useEffect, useEffectEvent, useRef, type ReactNode } from 'react';
import { SERVICE_UNAVAILABLE } from '../../../lib/service-unavailable';
import { $backendUnavailableSince } from '../../stores/backend-reachability';

/** What a list shows when it has nothing, with an optional hint and action. */
export function EmptyState({ title, hint, action }: { title: string; hint?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-md border border-dashed border-border p-8 text-center">
      <p className="font-medium">{title}</p>
      {hint && <p className="mt-1 text-sm text-muted-foreground">{hint}</p>}
      {action && <div className="mt-4">{action}</div>}
    </div>
  );
}

/**
 * A screen's error state: the message and a Retry button. While the backend is out of reach (src/admin/stores/backend-reachability.ts)
 * the screen's failure is the outage, so it says that instead ("temporarily unavailable, try again"), and it
 * retries by itself once the backend answers again.
 */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  const unavailable = useStore($backendUnavailableSince) !== null;
  const retry = useEffectEvent(() => onRetry?.());
  const wasUnavailable = useRef(unavailable);
  useEffect(() => {
    if (wasUnavailable.current && !unavailable) retry();
    wasUnavailable.current = unavailable;
  }, [unavailable]);
  return (
    <div role="alert" data-testid="error-state" className="rounded-md border border-red-700 p-4 text-sm text-red-700 dark:border-red-400 dark:text-red-300">
      {unavailable ? (
        <>
          <p className="font-medium">{SERVICE_UNAVAILABLE.title}</p>
          <p>{SERVICE_UNAVAILABLE.message}</p>
        </>
      ) : (
        <p>{message}</p>
      )}
      {onRetry && (
        <button type="button" onClick={onRetry} className="mt-2 underline">
          Retry
        </button>
      )}
    </div>
  );
}
