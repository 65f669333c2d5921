import { useEffect, useRef } from 'react';

/** How often the back office checks again that the user may still use it. */
export const ACCESS_RECHECK_MS = 5 * 60_000;

/**
 * Runs an access check now and again every ACCESS_RECHECK_MS while mounted, handing each result to
 * `onResult`. `check` must report its failures in its result (not throw); pass a stable function (useCallback)
 * and a new one to start over (e.g. when the organization changes), or null to wait. A result that arrives
 * after unmounting or after `check` changed is dropped.
 */
export function useAccessCheck<T>(check: (() => Promise<T>) | null, onResult: (result: T) => void): void {
  // The latest handler, so a re-render does not restart the timer.
  const handler = useRef(onResult);
  useEffect(() => {
    handler.current = onResult;
  });

  useEffect(() => {
    if (!check) return;
    let stopped = false;
    const run = () =>
      void check().then((result) => {
        if (!stopped) handler.current(result);
      });
    run();
    const timer = setInterval(run, ACCESS_RECHECK_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [check]);
}
