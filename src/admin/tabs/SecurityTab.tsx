import { useState } from 'react';
import { activitySentence, type People } from '../../lib/back-office/activity-sentences';
import {
  ACTIVITY_PAGE, actionBadgeVariant, activityResource, auditCsvExport, auditJsonExport, listActivitySentences, listLoginAttempts, listWholeAudit, loadAuditCounts, LOGIN_PAGE,
  loginSummary, searchAudit, type AuditActivity,
} from '../../lib/back-office/audit';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { countWords } from '../../lib/back-office/count-words';
import { toast } from '../../stores/toast';
import { ActivityEntryDialog } from './security/ActivityEntryDialog';
import { Badge } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import { Card, StatCard } from '../components/ui/Card';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Input } from '../components/ui/Input';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import { useLoad } from '../use-load';
import type { AdminTabProps } from './index';

const FILTERS = [{ value: 'all', label: 'All Events' }, { value: 'activities', label: 'User Activities' }, { value: 'logins', label: 'Login Attempts' }];

/** Offers a text as a file download (the export is built in the browser, no server call). */
function download(filename: string, content: string, type: string) {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * One activity of the list: its sentence and time, then the raw action as a badge coloured by kind and what
 * it was about (resource type and its title or name). The whole entry opens its detail.
 */
function ActivityRow({ entry, people, organizations, onOpen }: {
  entry: AuditActivity;
  people: People;
  organizations: ReadonlyMap<string, string>;
  onOpen: (entry: AuditActivity) => void;
}) {
  const resource = activityResource(entry, people, organizations);
  return (
    <li data-testid="audit-activity">
      <button
        type="button"
        aria-haspopup="dialog"
        onClick={() => onOpen(entry)}
        className="flex w-full flex-wrap items-baseline gap-x-3 gap-y-1 rounded-md px-2 py-2 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary"
      >
        <span className="min-w-0 flex-1 break-words">{activitySentence(entry, people)}</span>
        <span className="ml-auto shrink-0 text-xs text-muted-foreground"><RelativeTime date={entry.created_at} /></span>
        <span className="flex w-full min-w-0 flex-wrap items-center gap-x-2 gap-y-1 text-xs">
          <Badge variant={actionBadgeVariant(entry.action)} className="max-w-full break-all" data-testid="audit-action">{entry.action}</Badge>
          {resource && (
            <span className="min-w-0 break-words text-muted-foreground" data-testid="audit-resource">
              {resource.type}
              {resource.label && <>: <span className="text-foreground">{resource.label}</span></>}
            </span>
          )}
        </span>
      </button>
    </li>
  );
}

/**
 * Security Audit Log: activities and login attempts, with cards (the organization's totals), search, filter,
 * Load more and exports (every entry, read when asked). Search looks through the entries loaded and says so when
 * there are more, with Load all.
 */
export default function SecurityTab({ user, organization }: AdminTabProps) {
  const [limits, setLimits] = useState({ activities: ACTIVITY_PAGE, logins: LOGIN_PAGE });
  const [opened, setOpened] = useState<AuditActivity | null>(null);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState('all');
  // Loads on mount, on Refresh and whenever Load more raises a limit (the list stays on screen meanwhile).
  const audit = useLoad(async () => {
    const client = supabaseBrowser();
    const [{ activities, people }, logins, counts] = await Promise.all([
      listActivitySentences(client, organization.id, limits.activities),
      listLoginAttempts(client, organization.id, limits.logins),
      loadAuditCounts(client, organization.id),
    ]);
    return { activities, people, logins, counts };
  }, [organization.id, limits.activities, limits.logins], [organization.id]);
  const data = audit.state === 'error' ? undefined : audit.value;
  const busy = audit.state === 'loading' && data !== undefined;
  const refresh = audit.reload;

  const [exporting, setExporting] = useState(false);
  /** Exports every entry of the log, read now (not only what the lists have loaded). */
  const exportAs = async (format: 'json' | 'csv') => {
    setExporting(true);
    try {
      const whole = await listWholeAudit(supabaseBrowser(), organization.id);
      const file = format === 'json'
        ? { ...auditJsonExport(whole.activities, whole.logins, user.email ?? user.id, whole.people), type: 'application/json' }
        : { ...auditCsvExport(whole.activities, whole.logins, whole.people), type: 'text/csv' };
      download(file.filename, file.content, file.type);
      toast({ title: 'Export Complete', description: `The whole audit log has been downloaded: ${countWords(whole.activities.length, 'activity', 'activities')} and ${countWords(whole.logins.length, 'sign-in attempt')}.` });
    } catch (failure) {
      console.error(failure);
      toast({ title: 'Export Failed', description: 'Failed to export audit log', variant: 'destructive' });
    } finally {
      setExporting(false);
    }
  };

  const counts = data?.counts ?? null;
  const organizationNames = new Map([[organization.id, organization.name]]);
  const shown = data ? searchAudit(data.activities, data.logins, search, data.people) : null;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-2xl font-semibold">Security Audit Log</h2>
          <p className="text-sm text-muted-foreground">Who did what in {organization.name}, and who tried to sign in.</p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" onClick={refresh} disabled={busy}>{busy ? 'Refreshing...' : 'Refresh'}</Button>
          <Button variant="outline" onClick={() => void exportAs('json')} disabled={!data || exporting}>{exporting ? 'Exporting...' : 'Export'}</Button>
          <Button variant="outline" onClick={() => void exportAs('csv')} disabled={!data || exporting}>Export CSV</Button>
        </div>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total Activities" value={counts?.activities ?? null} loading={!counts} />
        <StatCard label="Successful Logins" value={counts?.successful_logins ?? null} loading={!counts} />
        <StatCard label="Failed Attempts" value={counts?.failed_logins ?? null} loading={!counts} />
        <StatCard label="Active Users" value={counts?.active_users ?? null} loading={!counts} />
      </div>
      <div className="flex flex-wrap gap-3">
        <Input type="search" aria-label="Search audit log" placeholder="Search by name, action or email..." value={search} onChange={(e) => setSearch(e.target.value)} className="max-w-sm" />
        <Select aria-label="Filter events" options={FILTERS} value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      {search.trim() && data && (data.activities.length < data.counts.activities || data.logins.length < data.counts.successful_logins + data.counts.failed_logins) && (
        <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground" role="status">
          Searching the {data.activities.length} newest of {data.counts.activities} activities and the {data.logins.length} newest of{' '}
          {data.counts.successful_logins + data.counts.failed_logins} sign-in attempts.
          <Button variant="outline" size="sm" disabled={busy} onClick={() => setLimits({ activities: Math.max(data.counts.activities, ACTIVITY_PAGE), logins: Math.max(data.counts.successful_logins + data.counts.failed_logins, LOGIN_PAGE) })}>
            Load all to search everything
          </Button>
        </p>
      )}
      {audit.state === 'error' ? <ErrorState message="Failed to fetch audit logs" onRetry={refresh} /> : !shown || !data ? <Skeleton /> : (
        <div className="grid gap-6 lg:grid-cols-2">
          {filter !== 'logins' && (
            <Card className="p-4">
              <h3 className="mb-3 text-lg font-semibold">User Activities</h3>
              <div className="max-h-96 overflow-y-auto" tabIndex={0} role="region" aria-label="User Activities list">
                {shown.activities.length === 0 ? <EmptyState title="No activities found" /> : (
                  <ul className="divide-y divide-border">
                    {shown.activities.map((a) => <ActivityRow key={a.id} entry={a} people={data.people} organizations={organizationNames} onOpen={setOpened} />)}
                  </ul>
                )}
              </div>
              {data.activities.length < data.counts.activities && (
                <Button variant="ghost" className="mt-2" disabled={busy} onClick={() => setLimits({ ...limits, activities: limits.activities + ACTIVITY_PAGE })}>Load more activities</Button>
              )}
            </Card>
          )}
          {filter !== 'activities' && (
            <Card className="p-4">
              <h3 className="mb-3 text-lg font-semibold">Login Attempts</h3>
              <div className="max-h-96 overflow-y-auto" tabIndex={0} role="region" aria-label="Login Attempts list">
                {shown.logins.length === 0 ? <EmptyState title="No login attempts found" /> : (
                  <ul className="space-y-2">
                    {shown.logins.map((l) => (
                      <li key={l.id} className="flex flex-wrap items-center gap-2 border-b border-border pb-2 text-sm" data-testid="audit-login">
                        <Badge variant={l.success ? 'success' : 'destructive'}>{l.success ? 'Success' : 'Failed'}</Badge>
                        <span className="min-w-0 break-words">{loginSummary(l)}</span>
                        <span className="text-muted-foreground">IP: {l.ip_address ?? 'Unknown'}</span>
                        <span className="ml-auto text-muted-foreground"><RelativeTime date={l.created_at} /></span>
                      </li>
                    ))}
                  </ul>
                )}
              </div>
              {data.logins.length < data.counts.successful_logins + data.counts.failed_logins && (
                <Button variant="ghost" className="mt-2" disabled={busy} onClick={() => setLimits({ ...limits, logins: limits.logins + LOGIN_PAGE })}>Load more login attempts</Button>
              )}
            </Card>
          )}
        </div>
      )}
      <ActivityEntryDialog entry={opened} people={data?.people} onClose={() => setOpened(null)} />
    </div>
  );
}
