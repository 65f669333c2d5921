import type { ReadableAtom } from 'nanostores';
import { useEffect, useEffectEvent } from 'react';

/**
 * How often a live list asks again while its page is visible (ms). Others change members and invitations too
 * (an invitee accepting in another browser, a second admin), and nothing tells this page when they do.
 */
export const LIVE_RELOAD_INTERVAL_MS = 20_000;

/**
 * Returning to the page (focus, or the tab shown again) asks again only when the last answer is older than this
 * (ms): switching windows back and forth, or focus and visibility firing together, reads once.
 */
const RETURN_GAP_MS = 2_000;

/**
 * Keeps a loaded screen current with changes made elsewhere: calls `reload` (useLoad's, which keeps the shown
 * value until the answer comes, so nothing flickers) when `signal` moves (a change made on this page), when
 * the user comes back to the page, and every `intervalMs` (LIVE_RELOAD_INTERVAL_MS unless given) while it is visible. A hidden page polls
 * nothing. Realtime is not used: the local backend has none, and a short poll costs one small read.
 */
export function useLiveReload(reload: () => void, signal?: ReadableAtom<unknown>, intervalMs: number = LIVE_RELOAD_INTERVAL_MS): void {
  const run = useEffectEvent(reload);

  useEffect(() => {
    let last = Date.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const visible = () => document.visibilityState === 'visible';
    const schedule = () => {
      clearTimeout(timer);
      timer = visible() ? setTimeout(again, intervalMs) : undefined;
    };
    function again() {
      last = Date.now();
      run();
      schedule();
    }
    const returned = () => {
      if (visible() && Date.now() - last >= RETURN_GAP_MS) again();
      else schedule();
    };
    const unsubscribe = signal?.listen(again);
    document.addEventListener('visibilitychange', returned);
    window.addEventListener('focus', returned);
    schedule();
    return () => {
      clearTimeout(timer);
      unsubscribe?.();
      document.removeEventListener('visibilitychange', returned);
      window.removeEventListener('focus', returned);
    };
  }, [signal, intervalMs]);
}
