/**
 * Whether the back office can reach its backend, as its own requests find it: every request to the backend or
 * the functions reports through `onReachability`, so the first failure (no connection, a gateway's 502-504, a
 * function's 503) marks the backend unavailable and the first answer after it clears the mark. The screens
 * then say "temporarily unavailable" instead of their own error, and load again by themselves once it is back.
 */
import { atom } from 'nanostores';
import { onReachability } from '../../lib/back-office/supabase-browser.ts';

/** Since when (ms since the epoch) the backend has not answered; null while it answers. */
export const $backendUnavailableSince = atom<number | null>(null);

onReachability((reachable) => {
  if (reachable) $backendUnavailableSince.set(null);
  else if ($backendUnavailableSince.get() === null) $backendUnavailableSince.set(Date.now());
});
