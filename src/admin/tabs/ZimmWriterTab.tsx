import { examplePayload, listDeliveryCategories, loadIntegration } from '../../lib/back-office/webhook';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { CopyButton } from '../components/ui/CopyButton';
import { Badge } from '../components/ui/Badge';
import { Card, CardHeader } from '../components/ui/Card';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Input } from '../components/ui/Input';
import { Skeleton } from '../components/ui/Skeleton';
import { useLoad } from '../use-load';
import type { AdminTabProps } from './index';
import { DeliveriesCard } from './zimmwriter/DeliveriesCard';
import { PublishModeCard } from './zimmwriter/PublishingCard';
import { WebhookAddressCard } from './zimmwriter/WebhookAddressCard';
import { TestForm } from './zimmwriter/WebhookTestCard';

/** Where the setup guide is rendered as a page (src/pages/docs). */
const DOCS_URL = '/docs/zimmwriter-webhook-setup';
/** The guide for tools that publish through the WordPress API (application passwords, made under Profile). */
const WORDPRESS_DOCS_URL = '/docs/wordpress-publishing-tools';

/**
 * ZimmWriter: the webhook URL and its token, what deliveries do (publish or draft), categories, payload, a
 * test delivery and the log. The dashboard, and so this tab, is for admins; the database
 * refuses anyone else's changes.
 */
export default function ZimmWriterTab({ organization }: AdminTabProps) {
  const client = supabaseBrowser();
  const integration = useLoad(() => loadIntegration(client, organization.id), [client, organization.id]);
  const categories = useLoad(() => listDeliveryCategories(client, organization.id), [client, organization.id]);
  const categoryNames = categories.state === 'ready' ? categories.value.map((category) => category.name) : [];
  const example = JSON.stringify(examplePayload(categoryNames[0]), null, 2);

  const hasAddress = integration.state === 'ready' && integration.value !== null;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-2xl font-semibold">ZimmWriter Integration</h2>
        <div className="flex flex-wrap gap-2">
          <a href={DOCS_URL} target="_blank" rel="noopener" className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted">
            View Documentation<span className="sr-only"> (opens in a new tab)</span>
          </a>
          {/* ZimmWriter's main mode, and most other tools', publishes through WordPress's API with an application password. */}
          <a href={WORDPRESS_DOCS_URL} target="_blank" rel="noopener" className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted">
            Connect a WordPress publishing tool<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </div>
      </div>

      <WebhookAddressCard organizationId={organization.id} integration={integration} />

      <PublishModeCard key={organization.id} organizationId={organization.id} hasAddress={hasAddress} />

      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader title="Organization" description="Posts sent to this webhook belong to this organization." />
          <div className="flex gap-2">
            <Input readOnly value={organization.name} aria-label="Organization" />
            <CopyButton text={organization.name} label="organization" />
          </div>
          <p className="mt-2 text-sm text-muted-foreground">No organization field is needed in the payload: the token in the URL identifies it.</p>
        </Card>
        <Card>
          <CardHeader
            title="Available Categories"
            description="Send one of these names as category (a new name creates the category, which waits for an editor's review before visitors see it)."
          />
          {categories.state === 'loading' && <Skeleton rows={2} label="Loading categories..." />}
          {categories.state === 'error' && <ErrorState message="Failed to load categories" />}
          {categories.state === 'ready' &&
            (categories.value.length ? (
              <ul className="flex flex-wrap gap-2" aria-label="Categories">
                {categories.value.map(({ name, needs_review }) => (
                  <li key={name}>
                    {needs_review ? (
                      <Badge variant="warning" title="Created by a delivery; an editor approves it in Categories & Tags">
                        {name} · awaiting review
                      </Badge>
                    ) : (
                      <Badge variant="secondary">{name}</Badge>
                    )}
                  </li>
                ))}
              </ul>
            ) : (
              <EmptyState title="No categories yet" />
            ))}
        </Card>
      </div>

      <Card>
        <CardHeader title="Example Payload" description="ZimmWriter posts JSON like this." actions={<CopyButton text={example} label="example payload" />} />
        <pre className="overflow-x-auto rounded bg-muted p-4 text-xs" tabIndex={0} aria-label="Example payload">
          {example}
        </pre>
      </Card>

      <TestForm organizationId={organization.id} categories={categoryNames} />

      <DeliveriesCard organizationId={organization.id} />
    </div>
  );
}
