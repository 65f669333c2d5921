/**
 * The notifier the islands and the back office share: one toast at a time (a new one replaces the
 * current), dismissed after its duration (5 s by default, counted from when the Toaster is on the page).
 * The first toast on a page mounts the Toaster (src/scripts/mount-toaster.ts); no page carries one in
 * advance. A toast can also be carried to the next page (`toastOnNextPage`), for messages shown right
 * before a redirect; `src/scripts/pending-toast.ts` shows it.
 */
import { atom } from 'nanostores';
import { PENDING_TOAST_KEY } from '../lib/pending-toast-key.ts';

export { PENDING_TOAST_KEY };

/** Default time a toast stays, in milliseconds. */
export const TOAST_DURATION_MS = 5000;

export interface ToastInput {
  title: string;
  description?: string;
  /** `destructive` for errors and refusals. */
  variant?: 'default' | 'destructive';
  durationMs?: number;
}

export interface Toast extends Required<Omit<ToastInput, 'description'>> {
  id: number;
  description?: string;
}

/** The toast on screen, or null. */
export const $toast = atom<Toast | null>(null);

let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

/** The Toaster on the page: mounted by the first toast (nothing to mount outside a browser). */
function toasterMounted(): Promise<void> {
  if (typeof document === 'undefined') return Promise.resolve();
  return import('../scripts/mount-toaster.ts').then(({ mountToaster }) => mountToaster({ toast: $toast, dismiss: dismissToast }));
}

/** Shows a toast, replacing the current one. Returns its id. */
export function toast(input: ToastInput): number {
  clearTimeout(timer);
  const shown: Toast = {
    id: nextId++,
    title: input.title,
    description: input.description,
    variant: input.variant ?? 'default',
    durationMs: input.durationMs ?? TOAST_DURATION_MS,
  };
  $toast.set(shown);
  // The clock starts once the Toaster is on the page: on a slow phone (or a page still loading its
  // scripts) fetching it can take seconds, and a toast must not run out before anyone could read it.
  const startClock = () => {
    if ($toast.get()?.id !== shown.id || !Number.isFinite(shown.durationMs)) return;
    clearTimeout(timer);
    timer = setTimeout(() => dismissToast(shown.id), shown.durationMs);
  };
  if (typeof document === 'undefined') startClock();
  else void toasterMounted().finally(startClock);
  return shown.id;
}

/** Hides the toast (only the given one, when an id is passed, so a late timer cannot hide a newer toast). */
export function dismissToast(id?: number): void {
  const current = $toast.get();
  if (!current || (id !== undefined && current.id !== id)) return;
  clearTimeout(timer);
  $toast.set(null);
}

/** Keeps a toast for the next page this tab opens (the Toaster there shows it). */
export function toastOnNextPage(input: ToastInput, storage: Pick<Storage, 'setItem'> = sessionStorage): void {
  storage.setItem(PENDING_TOAST_KEY, JSON.stringify(input));
}

/** How long a carried toast must have been on screen before the pages after it no longer show it. */
export const PENDING_TOAST_READ_MS = 1500;

/**
 * Shows the toast an earlier page left, once: it is forgotten when it was on screen for a moment
 * (PENDING_TOAST_READ_MS), or closed, or replaced. A page that reloads before that (a dev server re-optimizing
 * its modules) shows it again rather than losing it; the pages a person opens after it do not repeat it. A
 * toast left meanwhile for the next page (a session that ended right after the sign-in's welcome) is kept: only
 * the one shown here is forgotten. Unreadable leftovers are dropped.
 */
export async function showPendingToast(storage: Pick<Storage, 'getItem' | 'removeItem'> = sessionStorage): Promise<void> {
  const stored = storage.getItem(PENDING_TOAST_KEY);
  if (stored === null) return;
  let input: ToastInput | null = null;
  try {
    input = JSON.parse(stored) as ToastInput;
  } catch {
    // A corrupted entry is not worth an error on an unrelated page.
  }
  if (typeof input?.title !== 'string') {
    storage.removeItem(PENDING_TOAST_KEY);
    return;
  }
  const id = toast(input);
  await new Promise<void>((read) => {
    const done = () => {
      clearTimeout(readTimer);
      stop();
      read();
    };
    const readTimer = setTimeout(done, PENDING_TOAST_READ_MS);
    const stop = $toast.listen((current) => {
      if (current?.id !== id) done();
    });
  });
  if (storage.getItem(PENDING_TOAST_KEY) === stored) storage.removeItem(PENDING_TOAST_KEY);
}
