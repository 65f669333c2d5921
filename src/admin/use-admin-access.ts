import type { User } from '@supabase/supabase-js';
import { useEffect, useRef, useState } from 'react';
import { logActivity } from '../lib/activity';
import { type AdminAccess, checkAdminAccess } from '../lib/admin-access';
import { AUTH_MESSAGES } from '../lib/auth-messages';
import { supabaseBrowser } from '../lib/supabase-browser';
import { startOrganizationSync } from '../stores/organization';
import { sessionExpired, startSessionSync } from '../stores/session';
import { toastOnNextPage } from '../stores/toast';
import { useAccessCheck } from './use-access-check';

/** The dashboard's check, as the browser's signed-in user (a module constant: the check never restarts). */
const checkDashboard = () => checkAdminAccess(supabaseBrowser());

/**
 * The /admin gate: `null` while checking, then the allowed user. Anyone else leaves: no user → /auth
 * ('Session Expired' when they had been allowed), not an active admin → / with 'Access Denied', any
 * failure → /. Checks again every 5 minutes (useAccessCheck).
 */
export function useAdminAccess(): User | null {
  const [user, setUser] = useState<User | null>(null);
  const allowedBefore = useRef(false);

  useEffect(() => {
    startSessionSync();
    startOrganizationSync();
  }, []);

  useAccessCheck(checkDashboard, (access: AdminAccess) => {
    switch (access.kind) {
      case 'allowed':
        if (!allowedBefore.current) {
          logActivity(supabaseBrowser(), 'admin_dashboard_access').catch((error) => console.error(error));
        }
        allowedBefore.current = true;
        setUser(access.user);
        return;
      case 'signed-out':
        if (allowedBefore.current) sessionExpired();
        else window.location.assign('/auth');
        return;
      case 'denied':
        toastOnNextPage({ ...AUTH_MESSAGES.membershipEnded, variant: 'destructive' });
        window.location.assign('/');
        return;
      case 'failed':
        console.error('The admin access check failed', access.error);
        window.location.assign('/');
    }
  });

  return user;
}
