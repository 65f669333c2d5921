/**
 * `$session`: the signed-in user as supabase-js reports it (INITIAL_SESSION, SIGNED_IN, SIGNED_OUT,
 * TOKEN_REFRESHED, USER_UPDATED, PASSWORD_RECOVERY, MFA_CHALLENGE_VERIFIED). supabase-js refreshes the token
 * itself (autoRefreshToken); when a signed-in session is lost without the user signing out (the refresh
 * failed, the session was ended by an admin), the user is told 'Session Expired' and sent to /auth.
 */
import type { AuthChangeEvent, Session, User } from '@supabase/supabase-js';
import { atom } from 'nanostores';
import { backOfficeReturnPath } from '../../lib/blog-urls.ts';
import { AUTH_MESSAGES } from '../../lib/auth-messages.ts';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser.ts';
import { toastOnNextPage } from '../../stores/toast.ts';

export interface SessionState {
  /** `loading` until supabase-js has read the stored session (INITIAL_SESSION). */
  status: 'loading' | 'signed-in' | 'signed-out';
  session: Session | null;
  /** True after a reset link signed the user in: the page must ask for a new password. */
  recovery: boolean;
  lastEvent: AuthChangeEvent | null;
}

export const INITIAL_SESSION_STATE: SessionState = { status: 'loading', session: null, recovery: false, lastEvent: null };

/** Starts at `loading` on every render; the session is read in the browser, after mount. */
export const $session = atom<SessionState>(INITIAL_SESSION_STATE);

/**
 * The state after an auth event, and whether it means the session expired: a SIGNED_OUT that follows a
 * signed-in state while the user did not ask to sign out.
 */
export function reduceSession(
  previous: SessionState,
  event: AuthChangeEvent,
  session: Session | null,
  signingOut: boolean,
): { state: SessionState; expired: boolean } {
  const signedOut = event === 'SIGNED_OUT' || !session;
  return {
    state: {
      status: signedOut ? 'signed-out' : 'signed-in',
      session: signedOut ? null : session,
      recovery: signedOut ? false : event === 'PASSWORD_RECOVERY' || previous.recovery,
      lastEvent: event,
    },
    expired: signedOut && previous.status === 'signed-in' && !signingOut,
  };
}

let started = false;
let signingOut = false;

/** Subscribes `$session` to supabase-js once per page (islands call it on mount; later calls do nothing). */
export function startSessionSync(): void {
  if (started) return;
  started = true;
  supabaseBrowser().auth.onAuthStateChange((event, session) => {
    const { state, expired } = reduceSession($session.get(), event, session, signingOut);
    $session.set(state);
    if (event === 'SIGNED_OUT') signingOut = false;
    if (expired) sessionExpired();
  });
}

/**
 * The sign-in page that returns to `page` (a path, with its query for the login-approval page) afterwards:
 * `/auth?next=<page>` for a page /auth may return to, plain `/auth` otherwise (the dashboard is where admins
 * land anyway).
 */
export function signInUrl(page: string): string {
  // Other pages come back without their query, which /auth does not carry.
  const next = backOfficeReturnPath(page) ?? backOfficeReturnPath(page.split('?')[0]!);
  return next && next !== '/admin' ? `/auth?next=${encodeURIComponent(next)}` : '/auth';
}

/** Tells the user their session is gone and sends them to sign in again, to come back to this page. */
export function sessionExpired(): void {
  toastOnNextPage({ ...AUTH_MESSAGES.sessionExpired, variant: 'destructive' });
  window.location.assign(signInUrl(window.location.pathname + window.location.search));
}

/** Makes a session issued by our functions (sign-in, invitation) the browser's session; returns its user. */
export async function adoptSession(tokens: { access_token: string; refresh_token: string }): Promise<User> {
  const { data, error } = await supabaseBrowser().auth.setSession(tokens);
  if (error || !data.user) throw new Error(`Adopting the new session failed: ${error?.message ?? 'no user'}`, { cause: error });
  return data.user;
}

/** Signs out on purpose (no 'Session Expired'); `local` ends this browser's session only. */
export async function signOut(): Promise<void> {
  signingOut = true;
  const { error } = await supabaseBrowser().auth.signOut({ scope: 'local' });
  if (error) console.warn('Sign-out reached the server with an error; the local session is cleared anyway:', error.message);
}

/** The recovery is over (the new password is set). */
export function endRecovery(): void {
  $session.set({ ...$session.get(), recovery: false });
}
