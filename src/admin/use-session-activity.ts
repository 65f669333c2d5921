import { useEffect } from 'react';
import { noteSessionActivity } from '../lib/back-office/sessions';
import { supabaseBrowser } from '../lib/back-office/supabase-browser';

/** The least time between two notes of activity (ms): the database keeps one a minute anyway. */
const NOTE_EVERY_MS = 60_000;

/** The user's own doing (not a poll or a timer) is what counts as activity. */
const ACTIVITY_EVENTS = ['pointerdown', 'keydown'] as const;

/**
 * While `active` (the back office let the user in), notes the session as in use when the page opens and then on
 * the user's clicks and key presses, at most once a minute, so the Sessions tab's "Last activity" follows real
 * use rather than the hourly token refresh.
 */
export function useSessionActivity(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    let last = 0;
    const note = () => {
      if (Date.now() - last < NOTE_EVERY_MS) return;
      last = Date.now();
      noteSessionActivity(supabaseBrowser()).catch((error: unknown) => console.error(error));
    };
    note();
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, note, { capture: true, passive: true });
    return () => {
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, note, { capture: true });
    };
  }, [active]);
}
