/** The end of every way into the back office from /auth: adopt the session, then go where the role may. */
import { AUTH_MESSAGES, type Notice } from '../../lib/auth-messages.ts';
import { requestAdminSignIn, type Failure, type SessionTokens } from '../../lib/auth-api.ts';
import { adoptSession } from '../../stores/session.ts';
import { toastOnNextPage } from '../../stores/toast.ts';

/** Adopts a session from our functions and opens `destination` with a toast there. */
export async function enterWithSession(session: SessionTokens, notice: Notice, destination: string): Promise<void> {
  await adoptSession(session);
  toastOnNextPage(notice);
  window.location.assign(destination);
}

/** Signs an admin in through `POST /api/auth/sign-in` and opens /admin; returns the refusal otherwise. */
export async function signInAndEnter(email: string, password: string): Promise<Failure | null> {
  const result = await requestAdminSignIn(email, password);
  if ('failure' in result) return result.failure;
  try {
    await enterWithSession(result.session, AUTH_MESSAGES.granted, '/admin');
    return null;
  } catch {
    return { status: 0, ...AUTH_MESSAGES.authError };
  }
}
