/**
 * The browser side of the auth functions and Supabase Auth calls the /auth page makes. Each call answers
 * with an outcome the page turns into a toast; nothing here touches the DOM. supabase-js is imported only by
 * the calls that need it, so the sign-in form does not download it.
 */
import type { Role } from '../../schemas/user.ts';
import { AUTH_MESSAGES, type Notice } from '../auth-messages.ts';
import type { InvitationDetails } from '../../schemas/auth.ts';

/** The browser's Supabase client, loaded on first use. */
const browserClient = async () => (await import('./supabase-browser.ts')).supabaseBrowser();

/** The tokens the functions hand over for `auth.setSession`. */
export interface SessionTokens {
  access_token: string;
  refresh_token: string;
}

/** A refusal or error, as a toast. */
export interface Failure extends Notice {
  status: number;
}

async function postJson(path: string, body: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, data: await response.json().catch(() => ({})) };
}

function failureFrom(status: number, data: Record<string, unknown>, fallback: Notice): Failure {
  const title = typeof data.title === 'string' ? data.title : fallback.title;
  const description = typeof data.message === 'string' ? data.message : fallback.description;
  return { status, title, description };
}

/** `POST /api/auth/sign-in`: the session, or the refusal to show. */
export async function requestSignIn(email: string, password: string): Promise<{ session: SessionTokens } | { failure: Failure }> {
  try {
    const { status, data } = await postJson('/api/auth/sign-in', { email, password });
    if (status === 200 && data.session) return { session: data.session as SessionTokens };
    return { failure: failureFrom(status, data, AUTH_MESSAGES.authError) };
  } catch {
    return { failure: { status: 0, ...AUTH_MESSAGES.authError } };
  }
}

/**
 * `POST /api/auth/sign-out`: ends a session our functions handed over that this browser could not take up.
 * Best effort (the page already tells the user the sign-in did not complete): answers whether it was ended.
 */
export async function requestSessionEnd(session: SessionTokens): Promise<boolean> {
  try {
    return (await postJson('/api/auth/sign-out', { access_token: session.access_token })).status === 204;
  } catch {
    return false;
  }
}

/** Sends the reset mail (same answer whether or not the address has an account); links lead to /auth. */
export async function requestPasswordReset(email: string): Promise<Notice & { ok: boolean }> {
  try {
    const { error } = await (await browserClient()).auth.resetPasswordForEmail(email, { redirectTo: `${window.location.origin}/auth` });
    if (error) return { ok: false, title: AUTH_MESSAGES.resetFailedTitle, description: error.message };
    return { ok: true, ...AUTH_MESSAGES.resetSent };
  } catch {
    return { ok: false, ...AUTH_MESSAGES.resetError };
  }
}

/** Sets the signed-in (recovering) user's password. Returns the server's refusal, if any. */
export async function updatePassword(password: string): Promise<Notice | null> {
  const { error } = await (await browserClient()).auth.updateUser({ password });
  return error ? { title: AUTH_MESSAGES.passwordUpdateFailedTitle, description: error.message } : null;
}

/** `GET /api/invitations/{token}`: the invitation, or why it cannot be used. */
export async function fetchInvitation(token: string): Promise<{ invitation: InvitationDetails } | { failure: Failure }> {
  try {
    const response = await fetch(`/api/invitations/${encodeURIComponent(token)}`);
    const data = await response.json().catch(() => ({}));
    if (response.ok && data.invitation) return { invitation: data.invitation as InvitationDetails };
    return { failure: failureFrom(response.status, data, AUTH_MESSAGES.invitationUnknown) };
  } catch {
    return { failure: { status: 0, title: 'Error', description: 'Unable to check the invitation. Please try again.' } };
  }
}

/** `POST /api/invitations/accept`: the member's session, role and organization, or the refusal. */
export async function requestInvitationAcceptance(
  token: string,
  /** The new member's name; undefined when the address already has an account. */
  fullName: string | undefined,
  password: string,
): Promise<{ session: SessionTokens; role: Role; organization: { id: string; name: string } } | { failure: Failure }> {
  try {
    const { status, data } = await postJson('/api/invitations/accept', { token, full_name: fullName, password });
    if (status === 200 && data.session) {
      return {
        session: data.session as SessionTokens,
        role: data.role as Role,
        organization: data.organization as { id: string; name: string },
      };
    }
    return { failure: failureFrom(status, data, { title: 'Error', description: 'Unable to accept the invitation. Please try again.' }) };
  } catch {
    return { failure: { status: 0, title: 'Error', description: 'Unable to accept the invitation. Please try again.' } };
  }
}
