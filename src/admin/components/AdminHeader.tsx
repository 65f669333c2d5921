import { useStore } from '@nanostores/react';
import type { User } from '@supabase/supabase-js';
import { useState } from 'react';
import ThemeToggle from '../../islands/ThemeToggle';
import { logActivity } from '../../lib/activity';
import { supabaseBrowser } from '../../lib/supabase-browser';
import { $organization } from '../../stores/organization';
import { signOut } from '../../stores/session';

/** 'Admin Dashboard', the organization being managed, the user's email, the theme toggle and Sign Out. */
export default function AdminHeader({ user }: { user: User }) {
  const { current } = useStore($organization);
  const [signingOut, setSigningOut] = useState(false);

  async function handleSignOut() {
    setSigningOut(true);
    try {
      await logActivity(supabaseBrowser(), 'admin_logout', { details: { timestamp: new Date().toISOString() } });
    } catch (error) {
      // Signing out must not depend on the log being written.
      console.error(error);
    }
    await signOut();
    window.location.assign('/auth');
  }

  return (
    <header className="border-b border-border">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-4 px-4 py-4">
        <div>
          <h1 className="text-2xl font-bold">Admin Dashboard</h1>
          <p className="text-sm text-muted-foreground">Managing {current?.name ?? 'your organization'}</p>
        </div>
        <div className="flex items-center gap-3">
          <span className="text-sm" data-testid="admin-user-email">
            {user.email}
          </span>
          <ThemeToggle />
          <button
            type="button"
            onClick={handleSignOut}
            disabled={signingOut}
            className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:opacity-60"
          >
            {signingOut ? 'Signing Out...' : 'Sign Out'}
          </button>
        </div>
      </div>
    </header>
  );
}
