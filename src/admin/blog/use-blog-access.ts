import { useStore } from '@nanostores/react';
import type { User } from '@supabase/supabase-js';
import { useEffect, useState } from 'react';
import type { Organization } from '../../lib/host-match';
import { supabaseBrowser } from '../../lib/supabase-browser';
import { $organization, startOrganizationSync } from '../../stores/organization';
import { startSessionSync } from '../../stores/session';
import { toastOnNextPage } from '../../stores/toast';

/** A member's role in the current organization. */
export type BlogRole = 'viewer' | 'editor' | 'admin';

/** Who is using the blog screens, where, and whether they may write. */
export interface BlogAccess {
  user: User;
  organization: Organization;
  role: BlogRole;
  /** Editors and admins write; viewers only read. */
  canEdit: boolean;
}

/**
 * The gate of /admin/blog/*: like /admin's, but for every member of the current organization (viewers read
 * only). `null` while checking; no session → /auth, which returns here after sign-in; not a member (or inactive, RLS hides the role) → / with
 * 'Access Denied'. The role comes from `org_role`, the same function RLS uses.
 */
export function useBlogAccess(): BlogAccess | null {
  const { current, loading } = useStore($organization);
  const [user, setUser] = useState<User | null>(null);
  const [role, setRole] = useState<BlogRole | null>(null);

  useEffect(() => {
    startSessionSync();
    startOrganizationSync();
    void supabaseBrowser()
      .auth.getUser()
      .then(({ data, error }) => {
        if (error || !data.user) window.location.assign(`/auth?next=${encodeURIComponent(window.location.pathname)}`);
        else setUser(data.user);
      });
  }, []);

  useEffect(() => {
    if (!user || loading || !current) return;
    let stopped = false;
    void supabaseBrowser()
      .rpc('org_role', { org: current.id })
      .then(({ data, error }) => {
        if (stopped) return;
        if (error || (data !== 'viewer' && data !== 'editor' && data !== 'admin')) {
          if (error) console.error('The blog access check failed', error);
          toastOnNextPage({ title: 'Access Denied', description: 'You are not a member of this organization.', variant: 'destructive' });
          window.location.assign('/');
          return;
        }
        setRole(data);
      });
    return () => {
      stopped = true;
    };
  }, [user, loading, current]);

  if (!user || !current || !role) return null;
  return { user, organization: current, role, canEdit: role !== 'viewer' };
}
