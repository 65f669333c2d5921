import { useStore } from '@nanostores/react';
import type { User } from '@supabase/supabase-js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type AccessCheck, checkOrganizationAccess } from '../lib/back-office/access';
import { AUTH_MESSAGES } from '../lib/auth-messages';
import { landingPath, PREFERRED_ORGANIZATION_KEY, roleMayOpen, type MemberOrganization, type MemberRole } from '../lib/back-office/memberships';
import { onAccessEnded, supabaseBrowser } from '../lib/back-office/supabase-browser';
import { $organization, startOrganizationSync } from './stores/organization';
import { sessionExpired, signInUrl, signOut, startSessionSync } from './stores/session';
import { toastOnNextPage } from '../stores/toast';
import { useAccessCheck } from './use-access-check';

/** Who is using the back office, which organization they manage, and what their role there allows. */
export interface BackOfficeAccess {
  user: User;
  organization: MemberOrganization;
  role: MemberRole;
  /** Editors and admins write posts; viewers only read. */
  canEdit: boolean;
}

/** What a back-office page shows: the check under way, a failure it cannot get past, or the allowed user. */
export type BackOfficeState = { kind: 'checking' } | { kind: 'failed' } | ({ kind: 'allowed' } & BackOfficeAccess);

/** Leaves the back office for /auth with a notice (the user can do nothing here). */
async function leaveWith(notice: { title: string; description: string }): Promise<void> {
  toastOnNextPage({ ...notice, variant: 'destructive' });
  await signOut();
  window.location.assign('/auth');
}

/**
 * The gate of every back-office page (/admin and /admin/blog/*), one rule for all: the role in the
 * organization chosen in the header ($organization.current), read from the database, decides. Admins use
 * every page; on /admin an editor or viewer is sent on to /admin/blog (where editors write and viewers read).
 * No session → /auth, which returns here; a session that ends after access was granted → 'Session Expired';
 * no active membership left → /auth with why; the membership in the managed organization ended → 'Access
 * Denied' and the page starts again with another organization. Checks again every 5 minutes (useAccessCheck)
 * and whenever the managed organization changes, so a role changed elsewhere takes effect without a reload;
 * and the first API request the database refuses because the session, the account or every membership
 * ended leaves at once (onAccessEnded), so an ended session never shows as empty data.
 */
export function useBackOfficeAccess(): BackOfficeState {
  const { loading, failed, current, list } = useStore($organization);
  const [granted, setGranted] = useState<{ user: User; role: MemberRole; organizationId: string } | null>(null);
  const [checkFailed, setCheckFailed] = useState(false);
  const allowedBefore = useRef(false);
  // Set once the page is leaving: the sign-out that goes with it must not be reported again as an expiry.
  const leaving = useRef(false);

  useEffect(() => {
    startSessionSync();
    startOrganizationSync();
    // The first request the database refuses because access ended leaves at once, never showing empty data.
    onAccessEnded((reason) => {
      leaving.current = true;
      // The stored session is dead: forget it first, so /auth shows the sign-in rather than bouncing back here.
      if (reason === 'session_ended') void signOut().finally(sessionExpired);
      else void leaveWith(reason === 'account_inactive' ? AUTH_MESSAGES.inactive : AUTH_MESSAGES.noOrganization);
    });
  }, []);

  // The store is loading until the session is known; signed out, it stays empty without a current one.
  const organizationId = loading || failed ? null : (current?.id ?? null);
  const check = useCallback(
    (): Promise<AccessCheck> => (organizationId ? checkOrganizationAccess(supabaseBrowser(), organizationId) : checkSignedOut()),
    [organizationId],
  );
  const waiting = loading || failed || (organizationId === null && list.length > 0);

  useAccessCheck(waiting ? null : check, (access: AccessCheck) => {
    if (leaving.current) return;
    switch (access.kind) {
      case 'allowed': {
        const path = window.location.pathname;
        if (!roleMayOpen(access.role, path)) {
          // Said on the page they land on: nobody is moved without a word why.
          toastOnNextPage(AUTH_MESSAGES.adminOnly);
          window.location.replace(landingPath(access.role));
          return;
        }
        allowedBefore.current = true;
        setCheckFailed(false);
        setGranted({ user: access.user, role: access.role, organizationId: organizationId! });
        return;
      }
      case 'signed-out':
        leaving.current = true;
        if (allowedBefore.current) sessionExpired();
        else window.location.assign(signInUrl(window.location.pathname + window.location.search));
        return;
      case 'denied':
        leaving.current = true;
        if (!organizationId) {
          void leaveWith(AUTH_MESSAGES.noOrganization);
          return;
        }
        // The membership ended meanwhile: forget the choice and start again with the organizations left.
        if (localStorage.getItem(PREFERRED_ORGANIZATION_KEY) === organizationId) localStorage.removeItem(PREFERRED_ORGANIZATION_KEY);
        toastOnNextPage({ ...AUTH_MESSAGES.membershipEnded, variant: 'destructive' });
        window.location.assign(window.location.pathname.startsWith('/admin/blog') ? '/admin/blog' : '/admin');
        return;
      case 'failed':
        console.error('The back-office access check failed', access.error);
        // A re-check that fails (network) keeps the page: the next one decides.
        if (!allowedBefore.current) setCheckFailed(true);
    }
  });

  if (failed || checkFailed) return { kind: 'failed' };
  if (!granted || !current || granted.organizationId !== current.id) return { kind: 'checking' };
  return { kind: 'allowed', user: granted.user, organization: current, role: granted.role, canEdit: granted.role !== 'viewer' };
}

/** With no organization to check: signed out, or signed in without any active membership ('denied'). */
async function checkSignedOut(): Promise<AccessCheck> {
  const { data } = await supabaseBrowser().auth.getSession();
  return data.session ? { kind: 'denied' } : { kind: 'signed-out' };
}
