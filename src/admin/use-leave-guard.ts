import { type RefObject, useCallback, useEffect, useState } from 'react';

/**
 * Leaving with unsaved changes asks first: while `active`, in-app links open the editor's own dialog
 * (`leavingTo` is where the user wanted to go) and closing or reloading the tab gets the browser's leave
 * prompt (the only one a page may show then; the autosave keeps the work). `leave(to)` goes without asking
 * again: it sets `leftRef`, which the browser's prompt (and the autosave) read.
 */
export function useLeaveGuard(active: boolean, leftRef: RefObject<boolean>) {
  const [leavingTo, setLeavingTo] = useState<string | null>(null);

  useEffect(() => {
    if (!active) return;
    const guard = (event: BeforeUnloadEvent) => {
      if (!leftRef.current) event.preventDefault();
    };
    const intercept = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target === '_blank') return;
      if (link.origin !== window.location.origin || link.hash && link.pathname === window.location.pathname) return;
      event.preventDefault();
      setLeavingTo(link.href);
    };
    window.addEventListener('beforeunload', guard);
    document.addEventListener('click', intercept, true);
    return () => {
      window.removeEventListener('beforeunload', guard);
      document.removeEventListener('click', intercept, true);
    };
  }, [active, leftRef]);

  const leave = useCallback((to: string) => {
    leftRef.current = true;
    window.location.assign(to);
  }, [leftRef]);

  return { leavingTo, askToLeave: setLeavingTo, stay: () => setLeavingTo(null), leave };
}
