import type { ReactNode } from 'react';
import AdminHeader from './components/AdminHeader';
import BackendUnavailable, { useBackendRecovery } from './components/BackendUnavailable';
import { ErrorState } from './components/ui/EmptyState';
import { type BackOfficeAccess, useBackOfficeAccess } from './use-back-office-access';
import { useSessionActivity } from './use-session-activity';

/**
 * The frame of every back-office page: 'Checking permissions...' until the access check has passed, then the
 * shared header and the page, given who is using it, in which organization, with which role. While it is in use,
 * the session's activity is noted for the Sessions tab; while the backend is out of reach, a notice under the
 * header says so.
 */
export default function BackOfficeShell({ title, children }: { title: string; children: (access: BackOfficeAccess) => ReactNode }) {
  const state = useBackOfficeAccess();
  useSessionActivity(state.kind === 'allowed');
  useBackendRecovery();
  if (state.kind === 'failed') {
    return (
      <main id="main" className="mx-auto max-w-xl px-4 py-16">
        <ErrorState message="Your access could not be checked. Check your connection and try again." onRetry={() => window.location.reload()} />
      </main>
    );
  }
  if (state.kind === 'checking') return <p className="p-8 text-center text-muted-foreground">Checking permissions...</p>;
  return (
    <>
      <AdminHeader access={state} title={title} />
      <BackendUnavailable />
      <main id="main" className="mx-auto max-w-7xl px-4 py-8">
        {children(state)}
      </main>
    </>
  );
}
