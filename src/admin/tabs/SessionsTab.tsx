import { useCallback, useEffect, useState } from 'react';
import { Badge } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Skeleton } from '../components/ui/Skeleton';
import { Table, Td, Th } from '../components/ui/Table';
import { listMemberSessions, sessionCountText, sessionStatus, terminateSession, type MemberSession } from '../../lib/sessions';
import { supabaseBrowser } from '../../lib/supabase-browser';
import { toast } from '../../stores/toast';
import type { AdminTabProps } from './index';

type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready'; sessions: MemberSession[] };

/** Sessions: the organization's live sessions, refreshable, each endable at once (spec back-office 4). */
export default function SessionsTab({ organization }: AdminTabProps) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [pending, setPending] = useState<MemberSession | null>(null);
  const [busy, setBusy] = useState(false);

  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    listMemberSessions(supabaseBrowser(), organization.id).then(
      (sessions) => current && setLoad({ state: 'ready', sessions }),
      (error: unknown) => {
        console.error(error);
        if (!current) return;
        setLoad({ state: 'error' });
        toast({ title: 'Error', description: 'Failed to fetch active sessions', variant: 'destructive' });
      },
    );
    return () => {
      current = false;
    };
  }, [organization.id, attempt]);

  const refresh = useCallback(() => {
    setLoad({ state: 'loading' });
    setAttempt((n) => n + 1);
  }, []);

  async function confirmTerminate() {
    if (!pending) return;
    setBusy(true);
    try {
      await terminateSession(supabaseBrowser(), pending.session_id);
      toast({ title: 'Session Terminated', description: 'User session has been terminated successfully' });
      setPending(null);
      refresh();
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to terminate session', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card>
      <CardHeader
        level={2}
        title="Active Sessions"
        description="Monitor and manage user sessions"
        actions={
          <Button variant="outline" onClick={refresh} disabled={load.state === 'loading'}>
            Refresh
          </Button>
        }
      />
      {load.state === 'loading' && <Skeleton rows={4} label="Loading sessions..." />}
      {load.state === 'error' && <ErrorState message="Failed to fetch active sessions" onRetry={refresh} />}
      {load.state === 'ready' && (
        <>
          <p className="mb-3 text-sm text-muted-foreground" aria-live="polite">
            {sessionCountText(load.sessions.length)}
          </p>
          {load.sessions.length === 0 ? (
            <EmptyState title="No active sessions found" />
          ) : (
            <Table>
              <caption className="sr-only">Active sessions</caption>
              <thead>
                <tr>
                  <Th scope="col">User</Th>
                  <Th scope="col">Last Activity</Th>
                  <Th scope="col">Created</Th>
                  <Th scope="col">Expires</Th>
                  <Th scope="col">Status</Th>
                  <Th scope="col">
                    <span className="sr-only">Actions</span>
                  </Th>
                </tr>
              </thead>
              <tbody>
                {load.sessions.map((session) => {
                  const status = sessionStatus(session);
                  const name = session.full_name || 'Unknown User';
                  return (
                    <tr key={session.session_id} data-session-id={session.session_id}>
                      <Td>
                        <div className="font-medium">{name}</div>
                        <div className="text-xs text-muted-foreground">{session.email}</div>
                      </Td>
                      <Td>
                        <RelativeTime date={session.last_activity} />
                      </Td>
                      <Td>
                        <RelativeTime date={session.created_at} />
                      </Td>
                      <Td>{session.expires_at ? <RelativeTime date={session.expires_at} /> : 'Never'}</Td>
                      <Td>
                        <Badge variant={status === 'Active' ? 'success' : 'secondary'}>{status}</Badge>
                      </Td>
                      <Td>
                        <Button variant="destructive" size="sm" onClick={() => setPending(session)} aria-label={`Terminate session of ${session.email}`}>
                          Terminate
                        </Button>
                      </Td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          )}
        </>
      )}
      <ConfirmDialog
        open={pending !== null}
        title="Terminate session?"
        description={pending ? `${pending.full_name || 'Unknown User'} (${pending.email}) will be signed out at once.` : undefined}
        confirmLabel="Terminate"
        busyLabel="Terminating..."
        busy={busy}
        destructive
        onConfirm={() => void confirmTerminate()}
        onCancel={() => setPending(null)}
      />
    </Card>
  );
}
