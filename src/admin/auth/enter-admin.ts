/**
 * The end of every way into the back office from /auth (sign-in, invitation, password reset): adopt the
 * session, choose the organization to manage, and go where the role in it allows: admins to /admin, editors
 * and viewers to /admin/blog, or to the page that sent them to sign in (`next`) when the role may open it.
 */
import { AUTH_MESSAGES, type Notice } from '../../lib/auth-messages.ts';
import { requestSessionEnd, requestSignIn, type Failure, type SessionTokens } from '../../lib/back-office/auth-api.ts';
import {
  chooseOrganization, landingPath, listMemberOrganizations, PREFERRED_ORGANIZATION_KEY, roleMayOpen, siteOrganizationId,
} from '../../lib/back-office/memberships.ts';
import { toastOnNextPage } from '../../stores/toast.ts';

/**
 * Adopts a session from our functions and opens the back office with a toast there (`notice`, else the
 * welcome of the place the role leads to). `organizationId` is the organization to manage (an accepted
 * invitation's), else the one chooseOrganization picks. When the browser cannot take the session up (the
 * backend unreachable from here, no membership to open), the session is ended rather than left open with
 * nobody holding it, and the answer is the failure to show; null means the back office is opening.
 */
export async function enterWithSession(
  session: SessionTokens,
  { next = null, notice, organizationId }: { next?: string | null; notice?: Notice; organizationId?: string } = {},
): Promise<Failure | null> {
  try {
    // The session store brings supabase-js: loaded only now, so the sign-in form itself stays small.
    const [{ adoptSession }, { supabaseBrowser }] = await Promise.all([import('../stores/session.ts'), import('../../lib/back-office/supabase-browser.ts')]);
    const user = await adoptSession(session);
    const list = await listMemberOrganizations(supabaseBrowser(), user.id);
    const organization = chooseOrganization(list, organizationId ?? localStorage.getItem(PREFERRED_ORGANIZATION_KEY), siteOrganizationId());
    if (!organization) throw new Error('The signed-in user has no active membership');
    localStorage.setItem(PREFERRED_ORGANIZATION_KEY, organization.id);
    const destination = next && roleMayOpen(organization.role, next) ? next : landingPath(organization.role);
    const welcome = destination.startsWith('/admin/blog') ? AUTH_MESSAGES.blogGranted : AUTH_MESSAGES.granted;
    toastOnNextPage(notice ?? welcome);
    window.location.assign(destination);
    return null;
  } catch {
    await abandonSession(session);
    return { status: 0, ...AUTH_MESSAGES.enterFailed };
  }
}

/** Ends the session on the server (through our own origin), then forgets whatever this browser kept of it. */
async function abandonSession(session: SessionTokens): Promise<void> {
  await requestSessionEnd(session);
  try {
    await (await import('../stores/session.ts')).signOut();
  } catch {
    // Nothing was kept, or supabase-js could not load: either way no session stays in this browser.
  }
}

/** Signs in through `POST /api/auth/sign-in` and opens the back office; returns the refusal otherwise. */
export async function signInAndEnter(email: string, password: string, next: string | null): Promise<Failure | null> {
  const result = await requestSignIn(email, password);
  if ('failure' in result) return result.failure;
  return enterWithSession(result.session, { next });
}
