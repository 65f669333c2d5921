import type { User } from '@supabase/supabase-js';
import { useEffect, useState } from 'react';
import { logActivity } from '../lib/activity';
import { checkAdminAccess } from '../lib/admin-access';
import { AUTH_MESSAGES } from '../lib/auth-messages';
import { supabaseBrowser } from '../lib/supabase-browser';
import { startOrganizationSync } from '../stores/organization';
import { sessionExpired, startSessionSync } from '../stores/session';
import { toastOnNextPage } from '../stores/toast';

/** How often the dashboard checks again that the user may still use it (spec back-office 9). */
export const ACCESS_RECHECK_MS = 5 * 60_000;

/**
 * The /admin gate: `null` while checking, then the allowed user. Anyone else leaves: no user → /auth
 * ('Session Expired' when they had been allowed), not an active admin → / with 'Access Denied', any
 * failure → /. Checks again every 5 minutes.
 */
export function useAdminAccess(): User | null {
  const [user, setUser] = useState<User | null>(null);

  useEffect(() => {
    startSessionSync();
    startOrganizationSync();
    let allowedBefore = false;
    let stopped = false;

    async function check() {
      const client = supabaseBrowser();
      const access = await checkAdminAccess(client);
      if (stopped) return;
      switch (access.kind) {
        case 'allowed':
          if (!allowedBefore) {
            logActivity(client, access.user.id, 'admin_dashboard_access').catch((error) => console.error(error));
          }
          allowedBefore = true;
          setUser(access.user);
          return;
        case 'signed-out':
          if (allowedBefore) sessionExpired();
          else window.location.assign('/auth');
          return;
        case 'denied':
          toastOnNextPage({ ...AUTH_MESSAGES.dashboardDenied, variant: 'destructive' });
          window.location.assign('/');
          return;
        case 'failed':
          console.error('The admin access check failed', access.error);
          window.location.assign('/');
      }
    }

    void check();
    const timer = setInterval(() => void check(), ACCESS_RECHECK_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);

  return user;
}
