/** The end of every way into the back office from /auth: adopt the session, then go where the role may. */
import { AUTH_MESSAGES, type Notice } from '../../lib/auth-messages.ts';
import { requestSignIn, type Failure, type SessionTokens } from '../../lib/auth-api.ts';
import { toastOnNextPage } from '../../stores/toast.ts';

/** Adopts a session from our functions and opens `destination` with a toast there. */
export async function enterWithSession(session: SessionTokens, notice: Notice, destination: string): Promise<void> {
  // The session store brings supabase-js: loaded only now, so the sign-in form itself stays small.
  const { adoptSession } = await import('../../stores/session.ts');
  await adoptSession(session);
  toastOnNextPage(notice);
  window.location.assign(destination);
}

/**
 * Signs in through `POST /api/auth/sign-in` and opens the back office: /admin for admins, or, when /auth was
 * opened with a blog management path to return to (`next`), that path for any active member. Returns the
 * refusal otherwise.
 */
export async function signInAndEnter(email: string, password: string, next: string | null): Promise<Failure | null> {
  const result = await requestSignIn(email, password, next ? 'blog' : 'admin');
  if ('failure' in result) return result.failure;
  try {
    await enterWithSession(result.session, next ? AUTH_MESSAGES.blogGranted : AUTH_MESSAGES.granted, next ?? '/admin');
    return null;
  } catch {
    return { status: 0, ...AUTH_MESSAGES.authError };
  }
}
