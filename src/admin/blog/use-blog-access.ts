import { useStore } from '@nanostores/react';
import type { User } from '@supabase/supabase-js';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type BlogAccessCheck, checkBlogAccess, type MemberRole } from '../../lib/admin-access';
import type { Organization } from '../../lib/host-match';
import { supabaseBrowser } from '../../lib/supabase-browser';
import { $organization, startOrganizationSync } from '../../stores/organization';
import { sessionExpired, startSessionSync } from '../../stores/session';
import { toastOnNextPage } from '../../stores/toast';
import { useAccessCheck } from '../use-access-check';

/** A member's role in the current organization. */
export type BlogRole = MemberRole;

/** Who is using the blog screens, where, and whether they may write. */
export interface BlogAccess {
  user: User;
  organization: Organization;
  role: BlogRole;
  /** Editors and admins write; viewers only read. */
  canEdit: boolean;
}

/**
 * The gate of /admin/blog/*: like /admin's, but for every active member of the current organization (viewers
 * read only). `null` while checking; no session → /auth, which returns here after sign-in; a session that
 * ended after access was granted → 'Session Expired'; not a member (or inactive) → / with 'Access Denied'.
 * Checks again every 5 minutes (useAccessCheck), so a deactivated member or a changed role takes effect
 * without a reload. A re-check that fails (network) keeps the page: the next one decides.
 */
export function useBlogAccess(): BlogAccess | null {
  const { current, loading } = useStore($organization);
  const [granted, setGranted] = useState<{ user: User; role: BlogRole; organizationId: string } | null>(null);
  const allowedBefore = useRef(false);

  useEffect(() => {
    startSessionSync();
    startOrganizationSync();
  }, []);

  const organizationId = loading ? null : (current?.id ?? null);
  const check = useCallback(() => checkBlogAccess(supabaseBrowser(), organizationId), [organizationId]);

  // Waits for the organization store (it follows the session), then checks as the member of the current one.
  useAccessCheck(loading ? null : check, (access: BlogAccessCheck) => {
    switch (access.kind) {
      case 'allowed':
        allowedBefore.current = true;
        setGranted({ user: access.user, role: access.role, organizationId: organizationId! });
        return;
      case 'signed-out':
        if (allowedBefore.current) sessionExpired();
        else window.location.assign(`/auth?next=${encodeURIComponent(window.location.pathname)}`);
        return;
      case 'failed':
        console.error('The blog access check failed', access.error);
        if (allowedBefore.current) return;
        break;
      case 'denied':
        break;
    }
    toastOnNextPage({ title: 'Access Denied', description: 'You are not a member of this organization.', variant: 'destructive' });
    window.location.assign('/');
  });

  if (!granted || !current || granted.organizationId !== current.id) return null;
  return { user: granted.user, organization: current, role: granted.role, canEdit: granted.role !== 'viewer' };
}
