import type { ReactNode } from 'react';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { openAdminTab, type AdminTabId } from './index';

/**
 * `?section=` value asking the ZimmWriter tab to bring its test form into view: Overview's 'Test
 * Integration' opens the tab there (the spec leaves the button's action open; testing needs the form).
 */
export const ZIMMWRITER_TEST_SECTION = 'test';

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

/** Overview: four cards of shortcuts to the blog pages and the other tabs (spec back-office 2). */
export default function OverviewTab() {
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
    </div>
  );
}
