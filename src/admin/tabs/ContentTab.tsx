import { countWords } from '../../lib/back-office/count-words';
import { loadMostViewedPost, loadSystemCounters, loadViewsPerDay } from '../../lib/back-office/dashboard-stats';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { ViewsChart } from './content/ViewsChart';
import { Card, CardHeader } from '../components/ui/Card';
import { ErrorState } from '../components/ui/EmptyState';
import { Skeleton } from '../components/ui/Skeleton';
import { useLoad } from '../use-load';
import type { AdminTabProps } from './index';

/** Days the views chart shows, today included. */
const VIEW_CHART_DAYS = 30;

/**
 * Content: shortcuts to the blog pages and real analytics (total views, the most viewed post, views per day
 * for the last 30 days; counted by POST /api/post-view), and the Media Library (/admin/media).
 */
export default function ContentTab({ organization }: AdminTabProps) {
  const stats = useLoad(async () => {
    const client = supabaseBrowser();
    const [counters, top, perDay] = await Promise.all([
      loadSystemCounters(client, organization.id),
      loadMostViewedPost(client, organization.id),
      loadViewsPerDay(client, organization.id, VIEW_CHART_DAYS),
    ]);
    return { views: counters.totalViews, top, perDay };
  }, [organization.id]);
  const failed = stats.state === 'error' && <ErrorState message="The analytics could not be loaded." onRetry={stats.reload} />;

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
        {failed || (!stats.value ? <Skeleton rows={2} /> : (
          <dl className="space-y-3 text-sm">
            <div>
              <dt className="text-muted-foreground">Most viewed post</dt>
              <dd data-testid="most-viewed-post">
                {stats.value.top ? (
                  <>
                    {stats.value.top.status === 'published' ? <a className="font-medium underline" href={`/blog/${stats.value.top.slug}`}>{stats.value.top.title}</a> : <span className="font-medium">{stats.value.top.title}</span>}
                    {' '}({countWords(stats.value.top.viewCount, 'view')})
                  </>
                ) : 'No views yet'}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Total page views</dt>
              <dd className="text-2xl font-bold" data-testid="total-page-views">{stats.value.views.toLocaleString('en-US')}</dd>
            </div>
          </dl>
        ))}
      </Card>
      <Card className="md:col-span-2">
        <CardHeader title="Views, last 30 days" description="Counted views per day (UTC); each visitor counts once per post per day." />
        {failed || (!stats.value ? <Skeleton rows={3} /> : <ViewsChart days={stats.value.perDay} label="Views, last 30 days" />)}
      </Card>
    </div>
  );
}
