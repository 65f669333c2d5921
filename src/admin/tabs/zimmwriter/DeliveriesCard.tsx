import { loadQueueSettings } from '../../../lib/back-office/publishing-queue';
import { DELIVERY_IMAGE_LABELS, deliveryGoesOut, listDeliveries } from '../../../lib/back-office/webhook';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { EmptyState, ErrorState } from '../../components/ui/EmptyState';
import { RelativeTime } from '../../components/ui/RelativeTime';
import { Skeleton } from '../../components/ui/Skeleton';
import { useLoad } from '../../use-load';

/**
 * Recent Deliveries: what the webhook received, newest first, with the status code, the post it stored (a link
 * to its editor), when a scheduled or queued post goes out (in the organization's zone), what became of its
 * featured image, and the error or note.
 */
export function DeliveriesCard({ organizationId }: { organizationId: string }) {
  const client = supabaseBrowser();
  const deliveries = useLoad(
    async () => {
      const [entries, queue] = await Promise.all([listDeliveries(client, organizationId), loadQueueSettings(client, organizationId)]);
      return entries.map((entry) => ({ ...entry, goesOut: deliveryGoesOut(entry.post, queue.time_zone) }));
    },
    [client, organizationId],
  );
  return (
    <Card>
      <CardHeader title="Recent Deliveries" description="What the webhook received, newest first." actions={<Button variant="outline" onClick={deliveries.reload}>Refresh</Button>} />
      {deliveries.state === 'loading' && <Skeleton rows={3} label="Loading deliveries..." />}
      {deliveries.state === 'error' && <ErrorState message="Failed to load webhook deliveries" onRetry={deliveries.reload} />}
      {deliveries.state === 'ready' &&
        (deliveries.value.length === 0 ? (
          <EmptyState title="No deliveries yet" />
        ) : (
          <ul className="divide-y divide-border" aria-label="Webhook deliveries">
            {deliveries.value.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center gap-3 py-2 text-sm">
                <Badge variant={d.status_code < 300 ? 'success' : 'destructive'}>{d.status_code}</Badge>
                {d.post ? (
                  <a href={`/admin/blog/edit/${d.post.id}`} className="font-medium text-primary hover:underline">
                    {d.post.title}
                  </a>
                ) : (
                  <span className="font-medium">{d.slug ?? 'No post'}</span>
                )}
                {d.webhook_name && <span className="text-muted-foreground">from “{d.webhook_name}”</span>}
                {d.goesOut && (
                  <Badge variant="info" data-testid="delivery-goes-out">
                    {d.goesOut}
                  </Badge>
                )}
                {d.image && (
                  <Badge variant={d.image === 'stored' ? 'info' : d.image === 'failed' ? 'warning' : 'neutral'} data-image={d.image}>
                    {DELIVERY_IMAGE_LABELS[d.image]}
                  </Badge>
                )}
                {d.error && <span className="text-red-700 dark:text-red-400">{d.error}</span>}
                <span className="ml-auto text-muted-foreground">
                  <RelativeTime date={d.received_at} />
                </span>
                {d.note && <span className="w-full text-muted-foreground">{d.note}</span>}
              </li>
            ))}
          </ul>
        ))}
    </Card>
  );
}
