import { useState } from 'react';
import { Badge } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { EmailAddress } from '../components/ui/EmailAddress';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Skeleton } from '../components/ui/Skeleton';
import {
  groupSessionsByUser, listMemberSessions, sessionCountText, sessionIdOfAccessToken, sessionStatus, terminateBrowserSessions,
  type BrowserSessions, type MemberSession, type SessionGroup,
} from '../../lib/back-office/sessions';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { describeUserAgent } from '../../lib/back-office/user-agent';
import { signOut } from '../stores/session';
import { toast } from '../../stores/toast';
import { useLoad } from '../use-load';
import type { AdminTabProps } from './index';

/** The session this browser is signed in with: the `session_id` claim of its access token. */
async function currentSessionId(): Promise<string | null> {
  const { data } = await supabaseBrowser().auth.getSession();
  return sessionIdOfAccessToken(data.session?.access_token);
}

const personLabel = (person: { full_name: string | null; email: string }) => person.full_name || person.email;

/**
 * One browser of one person as a card: device, where from, since when (its sign-ins counted when there are
 * several); the action stays reachable on a phone.
 */
function BrowserCard({ browser, current, onEnd }: { browser: BrowserSessions; current: boolean; onEnd: () => void }) {
  const session = browser.latest;
  const status = sessionStatus(session);
  const device = describeUserAgent(session.user_agent);
  const signIns = browser.sessions.length;
  return (
    <li
      data-session-id={session.session_id}
      data-testid="session"
      className="flex flex-col gap-3 rounded-md border border-border p-3 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium" title={session.user_agent ?? undefined}>{device}</span>
          {current && <Badge variant="info">This device</Badge>}
          <Badge variant={status === 'Active' ? 'success' : 'secondary'}>{status}</Badge>
        </div>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <div className="flex gap-1">
            <dt>IP</dt>
            <dd className="font-mono break-all">{session.ip ?? 'unknown'}</dd>
          </div>
          <div className="flex gap-1">
            <dt>{signIns > 1 ? 'First sign-in' : 'Started'}</dt>
            <dd><RelativeTime date={browser.firstSignIn} /></dd>
          </div>
          {signIns > 1 && (
            <div className="flex gap-1">
              <dt>Sign-ins</dt>
              <dd>{signIns}</dd>
            </div>
          )}
          <div className="flex gap-1">
            <dt>Last activity</dt>
            <dd><RelativeTime date={session.last_activity} /></dd>
          </div>
          {session.expires_at && (
            <div className="flex gap-1">
              <dt>Expires</dt>
              <dd><RelativeTime date={session.expires_at} /></dd>
            </div>
          )}
        </dl>
      </div>
      <Button
        variant={current ? 'outline' : 'destructive'}
        size="sm"
        className="self-start sm:self-center"
        onClick={onEnd}
        aria-label={current ? 'Sign out this device' : `Terminate session of ${session.email} on ${device}`}
      >
        {current ? 'Sign out this device' : 'Terminate'}
      </Button>
    </li>
  );
}

/** One person and their browsers. */
function SessionGroupSection({ group, currentSessionId, onEnd }: { group: SessionGroup; currentSessionId: string | null; onEnd: (s: MemberSession) => void }) {
  const count = group.browsers.length;
  return (
    <section aria-label={`Sessions of ${personLabel(group)}`} data-testid="session-group" className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <h3 className="font-semibold">{group.full_name || 'Unknown User'}</h3>
        <EmailAddress email={group.email} className="min-w-0 text-sm text-muted-foreground" />
        <span className="text-sm text-muted-foreground">· {count} {count === 1 ? 'session' : 'sessions'}</span>
      </div>
      <ul className="space-y-2">
        {group.browsers.map((browser) => (
          <BrowserCard
            key={browser.latest.session_id}
            browser={browser}
            current={browser.latest.session_id === currentSessionId}
            onEnd={() => onEnd(browser.latest)}
          />
        ))}
      </ul>
    </section>
  );
}

/**
 * Sessions: the organization's live sessions grouped by person, one entry per browser (a person's repeated
 * sign-ins in one browser are one session to them), this device marked, each endable after a confirmation
 * (every sign-in of that browser ends). Ending this device's signs you out.
 */
export default function SessionsTab({ organization }: AdminTabProps) {
  const load = useLoad(async () => {
    const [sessions, mine] = await Promise.all([listMemberSessions(supabaseBrowser(), organization.id), currentSessionId()]);
    return { sessions, currentSessionId: mine };
  }, [organization.id]);
  const [pending, setPending] = useState<MemberSession | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = load.reload;
  const shown = load.value;

  const mine = shown?.currentSessionId ?? null;
  const endingOwn = pending !== null && pending.session_id === mine;

  async function confirmTerminate() {
    if (!pending) return;
    setBusy(true);
    try {
      await terminateBrowserSessions(supabaseBrowser(), pending.session_id);
      if (endingOwn) {
        // This browser's session is gone on the server: clear it here too and leave for the sign-in page.
        await signOut();
        window.location.assign('/auth');
        return;
      }
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

  const groups = shown ? groupSessionsByUser(shown.sessions, shown.currentSessionId) : [];
  const browserCount = groups.reduce((sum, group) => sum + group.browsers.length, 0);

  return (
    <Card>
      <CardHeader
        level={2}
        title="Active Sessions"
        description="Monitor and manage user sessions: who is signed in, on which device, and since when"
        actions={
          <Button variant="outline" onClick={refresh} disabled={load.state === 'loading'}>
            Refresh
          </Button>
        }
      />
      {load.state === 'error' ? <ErrorState message="Failed to fetch active sessions" onRetry={refresh} />
      : !shown ? <Skeleton rows={4} label="Loading sessions..." />
      : (
        <>
          <p className="mb-4 text-sm text-muted-foreground" aria-live="polite">
            {sessionCountText(browserCount)}
            {groups.length > 0 && ` · ${groups.length} ${groups.length === 1 ? 'person' : 'people'}`}
          </p>
          {groups.length === 0 ? (
            <EmptyState title="No active sessions found" />
          ) : (
            <div className="space-y-6">
              {groups.map((group) => (
                <SessionGroupSection key={group.user_id} group={group} currentSessionId={shown.currentSessionId} onEnd={setPending} />
              ))}
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        open={pending !== null}
        title={endingOwn ? 'Sign out this device?' : 'Terminate session?'}
        description={
          !pending ? undefined
          : endingOwn ? 'This is the session you are using now: you will be signed out and taken to the sign-in page.'
          : `${pending.full_name ? `${pending.full_name} (${pending.email})` : pending.email} will be signed out of ${describeUserAgent(pending.user_agent)} at once.`
        }
        confirmLabel={endingOwn ? 'Sign out' : 'Terminate'}
        busyLabel={endingOwn ? 'Signing out...' : 'Terminating...'}
        busy={busy}
        destructive
        onConfirm={() => void confirmTerminate()}
        onCancel={() => setPending(null)}
      />
    </Card>
  );
}
