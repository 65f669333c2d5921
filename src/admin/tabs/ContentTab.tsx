import { useEffect, useState } from 'react';
import { loadMostViewedPost, loadSystemCounters, loadViewsPerDay, type DayViews, type MostViewedPost } from '../../lib/back-office/dashboard-stats';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { ViewsChart } from '../components/ViewsChart';
import { Card, CardHeader } from '../components/ui/Card';
import { ErrorState } from '../components/ui/EmptyState';
import { Skeleton } from '../components/ui/Skeleton';
import type { AdminTabProps } from './index';

/**
 * Content: shortcuts to the blog pages and real analytics (total views, the most viewed post, views per day
 * for the last 30 days; counted by POST /api/post-view), and the Media Library (/admin/media).
 */
/** Days the views chart shows, today included. */
const VIEW_CHART_DAYS = 30;

export default function ContentTab({ organization }: AdminTabProps) {
  const [stats, setStats] = useState<{ views: number; top: MostViewedPost | null; perDay: DayViews[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const client = supabaseBrowser();
    Promise.all([
      loadSystemCounters(client, organization.id),
      loadMostViewedPost(client, organization.id),
      loadViewsPerDay(client, organization.id, VIEW_CHART_DAYS),
    ]).then(
      ([counters, top, perDay]) => setStats({ views: counters.totalViews, top, perDay }),
      (failure: Error) => setError(failure.message),
    );
  }, [organization.id]);

  return (
    <div className="grid gap-6 md:grid-cols-2">
      <h2 className="sr-only">Content</h2>
      <Card>
        <CardHeader title="Content Management" description="Create and manage blog posts." />
        <div className="flex flex-wrap gap-2">
          <a href="/admin/blog/new" className="rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:opacity-90">Create New Post</a>
          <a href="/admin/blog" className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted">Manage All Posts</a>
          <a href="/admin/media" className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted">Media Library</a>
        </div>
      </Card>
      <Card>
        <CardHeader title="Analytics" description="How the blog is read." />
        {error ? <ErrorState message={error} /> : !stats ? <Skeleton rows={2} /> : (
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="text-muted-foreground">Most viewed post</dt>
              <dd data-testid="most-viewed-post">
                {stats.top ? (
                  <>
                    {stats.top.status === 'published' ? <a className="font-medium underline" href={`/blog/${stats.top.slug}`}>{stats.top.title}</a> : <span className="font-medium">{stats.top.title}</span>}
                    {' '}({stats.top.viewCount} views)
                  </>
                ) : 'No views yet'}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Total page views</dt>
              <dd className="text-2xl font-bold" data-testid="total-page-views">{stats.views}</dd>
            </div>
          </dl>
        )}
      </Card>
      <Card className="md:col-span-2">
        <CardHeader title="Views, last 30 days" description="Counted views per day (UTC); each visitor counts once per post per day." />
        {error ? <ErrorState message={error} /> : !stats ? <Skeleton rows={3} /> : <ViewsChart days={stats.perDay} label="Views, last 30 days" />}
      </Card>
    </div>
  );
}
