import type { ReactNode } from 'react';
import { activitySentence } from '../../lib/back-office/activity-sentences';
import { listActivitySentences, RECENT_ACTIVITY } from '../../lib/back-office/audit';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Skeleton } from '../components/ui/Skeleton';
import { useLoad } from '../use-load';
import { openAdminTab, ZIMMWRITER_TEST_SECTION, type AdminTabId, type AdminTabProps } from './index';

/**
 * `?section=` value asking the ZimmWriter tab to bring its test form into view: Overview's 'Test
 * Integration' opens the tab there, at its test form.
 */
function go(tab: AdminTabId, section?: string) {
  openAdminTab(tab, section ? { section } : {});
}

function OverviewCard({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <div className="flex flex-wrap gap-2">{children}</div>
    </Card>
  );
}

/** The organization's newest entries of the audit log, as sentences. */
function RecentActivity({ organizationId }: { organizationId: string }) {
  const load = useLoad(() => listActivitySentences(supabaseBrowser(), organizationId, RECENT_ACTIVITY), [organizationId]);
  const shown = load.value;

  return (
    <Card className="md:col-span-2">
      <CardHeader
        title="Recent activity"
        description="The latest entries of the audit log."
        actions={
          <Button variant="outline" onClick={() => go('security')}>
            View audit log
          </Button>
        }
      />
      {load.state === 'error' ? <ErrorState message="Failed to fetch recent activity" onRetry={load.reload} />
      : !shown ? <Skeleton rows={3} label="Loading recent activity..." />
      : (shown.activities.length === 0 ? <EmptyState title="No recent activity" /> : (
        <ul className="divide-y divide-border text-sm" aria-label="Recent activity">
          {shown.activities.map((a) => (
            <li key={a.id} className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2" data-testid="recent-activity">
              <span className="min-w-0 flex-1 break-words">{activitySentence(a, shown.people)}</span>
              <span className="shrink-0 text-xs text-muted-foreground"><RelativeTime date={a.created_at} /></span>
            </li>
          ))}
        </ul>
      ))}
    </Card>
  );
}

/**
 * Overview: four cards of shortcuts to the blog pages and the other tabs, and the
 * organization's recent activity.
 */
export default function OverviewTab({ organization }: AdminTabProps) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <h2 className="sr-only">Overview</h2>
      <OverviewCard title="Blog Management" description="Write and manage the organization's blog posts.">
        <a href="/admin/blog/new" className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:opacity-90">
          New Blog Post
        </a>
        <a href="/admin/blog" className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted">
          Manage Posts
        </a>
      </OverviewCard>
      <OverviewCard title="Quick User Actions" description="See who is signed in and what they did.">
        <Button variant="outline" onClick={() => go('sessions')}>
          View Active Sessions
        </Button>
        <Button variant="outline" onClick={() => go('security')}>
          Recent User Activity
        </Button>
      </OverviewCard>
      <OverviewCard title="ZimmWriter Integration" description="Let the writing tool publish posts by webhook.">
        <Button variant="outline" onClick={() => go('zimmwriter')}>
          Setup Webhook
        </Button>
        <Button variant="outline" onClick={() => go('zimmwriter', ZIMMWRITER_TEST_SECTION)}>
          Test Integration
        </Button>
      </OverviewCard>
      <OverviewCard title="System Settings" description="Organization details, blog configuration and social links.">
        <Button variant="outline" onClick={() => go('settings')}>
          Organization Settings
        </Button>
        <Button variant="outline" onClick={() => go('settings')}>
          Blog Configuration
        </Button>
      </OverviewCard>
      <RecentActivity organizationId={organization.id} />
    </div>
  );
}
