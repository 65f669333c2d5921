import { useState, type FormEvent } from 'react';
import { CopyButton } from '../components/CopyButton';
import { Badge } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Field, Input, Textarea } from '../components/ui/Input';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import {
  examplePayload,
  listCategoryNames,
  listDeliveries,
  listWebhookAuthors,
  loadIntegration,
  loadPublishMode,
  loadWebhookAuthor,
  PUBLISH_MODE_OPTIONS,
  rotateWebhookToken,
  savePublishMode,
  saveWebhookAuthor,
  sendTestWebhook,
  testDeliveryMessage,
  PUBLISH_MODE_SAVED,
  webhookUrl,
  type PublishMode,
} from '../../lib/back-office/webhook';
import { toast } from '../../stores/toast';
import { loadQueueSettings } from '../../lib/back-office/publishing-queue';
import { useLoad } from '../use-load';
import type { AdminTabProps } from './index';

/** Where the setup guide is rendered as a page (src/pages/docs). */
const DOCS_URL = '/docs/zimmwriter-webhook-setup';

/**
 * ZimmWriter: the webhook URL and its token, what deliveries do (publish or draft), categories, payload, a
 * test delivery and the log (spec 4, 7-9). The dashboard, and so this tab, is for admins; the database
 * refuses anyone else's changes.
 */
export default function ZimmWriterTab({ organization }: AdminTabProps) {
  const client = supabaseBrowser();
  const integration = useLoad(() => loadIntegration(client, organization.id), [client, organization.id]);
  const categories = useLoad(() => listCategoryNames(client, organization.id), [client, organization.id]);
  const deliveries = useLoad(() => listDeliveries(client, organization.id), [client, organization.id]);
  const [newToken, setNewToken] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const url = webhookUrl(origin, newToken ?? undefined);
  const categoryNames = categories.state === 'ready' ? categories.value : [];
  const example = JSON.stringify(examplePayload(categoryNames[0]), null, 2);

  // No integration yet: the first address is created (no confirmation, nothing to replace); else rotated.
  const hasAddress = integration.state === 'ready' && integration.value !== null;

  async function issueToken(first: boolean) {
    setRotating(true);
    try {
      setNewToken(await rotateWebhookToken(client, organization.id));
      setConfirming(false);
      toast(
        first
          ? { title: 'Webhook Address Created', description: 'Copy it now and paste it into ZimmWriter: it is shown only once.' }
          : { title: 'Token Rotated', description: 'Copy the new webhook URL now: it is shown only once. The old token keeps working for 24 hours.' },
      );
      integration.reload();
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: first ? 'Failed to create the webhook address' : 'Failed to rotate the webhook token', variant: 'destructive' });
    } finally {
      setRotating(false);
    }
  }

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-2xl font-semibold">ZimmWriter Integration</h2>
        <a href={DOCS_URL} target="_blank" rel="noopener" className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-muted">
          View Documentation<span className="sr-only"> (opens in a new tab)</span>
        </a>
      </div>

      <Card>
        <CardHeader
          title="Webhook URL"
          description="Paste this address into ZimmWriter's webhook settings."
          actions={
            hasAddress && (
              <Button variant="outline" onClick={() => setConfirming(true)}>
                Rotate Token
              </Button>
            )
          }
        />
        {integration.state === 'ready' && !hasAddress && !newToken ? (
          <div className="space-y-2">
            <p className="text-sm">This organization has no webhook address yet. Create one, then copy it into ZimmWriter.</p>
            <Button onClick={() => void issueToken(true)} disabled={rotating}>
              {rotating ? 'Creating...' : 'Create webhook address'}
            </Button>
          </div>
        ) : (
          <>
            <div className="flex gap-2">
              <Input readOnly value={url} aria-label="Webhook URL" className="font-mono" />
              {newToken && <CopyButton text={url} label="webhook URL" />}
            </div>
            <p className="mt-2 text-sm text-muted-foreground" role="status">
              {newToken
                ? 'Copy this address now: it will not be shown again. A previous address keeps working for 24 hours.'
                : 'The token is stored only as a hash, so it cannot be shown again. Rotate it to get a new URL (shown once); the old one keeps working for 24 hours.'}
            </p>
          </>
        )}
        {integration.state === 'ready' && integration.value && (
          <p className="mt-1 text-xs text-muted-foreground">
            Set up <RelativeTime date={integration.value.created_at} />
            {integration.value.rotated_at && (
              <>
                , last rotated <RelativeTime date={integration.value.rotated_at} />
              </>
            )}
          </p>
        )}
      </Card>

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
          <CardHeader title="Available Categories" description="Send one of these names as category (a new name creates the category)." />
          {categories.state === 'loading' && <Skeleton rows={2} label="Loading categories..." />}
          {categories.state === 'error' && <ErrorState message="Failed to load categories" />}
          {categories.state === 'ready' &&
            (categoryNames.length ? (
              <ul className="flex flex-wrap gap-2" aria-label="Categories">
                {categoryNames.map((name) => (
                  <li key={name}>
                    <Badge variant="secondary">{name}</Badge>
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
                  <span className="font-medium">{d.post?.title ?? d.slug ?? 'No post'}</span>
                  {d.webhook_name && <span className="text-muted-foreground">from “{d.webhook_name}”</span>}
                  {d.error && <span className="text-red-700">{d.error}</span>}
                  <span className="ml-auto text-muted-foreground">
                    <RelativeTime date={d.received_at} />
                  </span>
                </li>
              ))}
            </ul>
          ))}
      </Card>

      <ConfirmDialog
        open={confirming}
        title="Rotate webhook token?"
        description="A new URL is issued and shown once. The current URL keeps working for 24 hours; update ZimmWriter before then."
        confirmLabel="Rotate Token"
        busyLabel="Rotating..."
        busy={rotating}
        onConfirm={() => void issueToken(false)}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}

/**
 * What deliveries do, shown as stored and saved when changed (set_webhook_publish_mode, admins only,
 * audited), and who their posts are credited to (set_webhook_author; chosen once the address exists).
 */
function PublishModeCard({ organizationId, hasAddress }: { organizationId: string; hasAddress: boolean }) {
  const client = supabaseBrowser();
  const stored = useLoad(() => loadPublishMode(client, organizationId), [client, organizationId]);
  const [chosen, setChosen] = useState<PublishMode | null>(null);
  const [saving, setSaving] = useState(false);
  // A choice made here wins over the load (the card is keyed by organization, so a switch starts afresh).
  const mode = chosen ?? (stored.state === 'ready' ? stored.value : null);

  async function change(next: PublishMode) {
    const previous = mode;
    setChosen(next);
    setSaving(true);
    try {
      const saved = await savePublishMode(client, organizationId, next);
      setChosen(saved);
      toast({
        title: 'Publish Mode Saved',
        description: PUBLISH_MODE_SAVED[saved],
      });
    } catch (error) {
      console.error(error);
      setChosen(previous);
      toast({ title: 'Error', description: 'Failed to save the publish mode', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card>
      <CardHeader title="Publishing" description="What happens to a post ZimmWriter sends. Posts it updates keep their status." />
      {stored.state === 'loading' && <Skeleton rows={1} label="Loading publish mode..." />}
      {stored.state === 'error' && <ErrorState message="Failed to load the publish mode" />}
      {mode && (
        <Field
          label="When a post arrives"
          hint={
            mode === 'queue' ? (
              <>
                Each new post takes the next free slot of the <a className="underline" href="/admin/blog/queue">publishing queue</a>.
              </>
            ) : undefined
          }
        >
          {(control) => (
            <Select
              {...control}
              name="publish_mode"
              value={mode}
              disabled={saving}
              onChange={(e) => void change(e.target.value as PublishMode)}
              options={PUBLISH_MODE_OPTIONS}
            />
          )}
        </Field>
      )}
      <AuthorField organizationId={organizationId} hasAddress={hasAddress} />
    </Card>
  );
}

const NO_AUTHOR = '';

/** The author of ZimmWriter's posts: one of the organization's editors and admins, saved when changed. */
function AuthorField({ organizationId, hasAddress }: { organizationId: string; hasAddress: boolean }) {
  const client = supabaseBrowser();
  const authors = useLoad(() => listWebhookAuthors(client, organizationId), [client, organizationId]);
  // No address, no author; the address is created on this tab, and the author is read once it exists.
  const stored = useLoad(async () => (hasAddress ? loadWebhookAuthor(client, organizationId) : null), [client, organizationId, hasAddress]);
  const [saving, setSaving] = useState(false);

  async function change(next: string) {
    setSaving(true);
    try {
      await saveWebhookAuthor(client, organizationId, next === NO_AUTHOR ? null : next);
      stored.reload();
      const name = authors.state === 'ready' ? authors.value.find((a) => a.id === next)?.name : undefined;
      toast({ title: 'Author Saved', description: name ? `Posts from ZimmWriter are credited to ${name}.` : 'Posts from ZimmWriter are credited to the organization.' });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'Failed to save the author', variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  if (authors.state === 'error' || stored.state === 'error') return <ErrorState message="Failed to load the authors" />;
  if (!authors.value || stored.value === undefined) return <Skeleton rows={1} label="Loading authors..." />;
  const options = [{ value: NO_AUTHOR, label: 'No author (the organization)' }, ...authors.value.map((a) => ({ value: a.id, label: a.name }))];
  return (
    <Field label="Credit posts to" hint={hasAddress ? 'An editor or admin of this organization, shown as the author on the post page.' : 'Create the webhook address first.'}>
      {(control) => (
        <Select {...control} name="webhook_author" value={stored.value ?? NO_AUTHOR} disabled={saving || !hasAddress} onChange={(e) => void change(e.target.value)} options={options} />
      )}
    </Field>
  );
}

/**
 * The test form: a dry run through /api/admin/webhook-test. The payload takes the webhook's own validation
 * and sanitizing, and the answer says whether a delivery like it would create or update a post; nothing is
 * published, stored or logged, so the delivery log is not reloaded.
 */
function TestForm({ organizationId, categories }: { organizationId: string; categories: string[] }) {
  const [title, setTitle] = useState('Test Blog Post from ZimmWriter');
  const [category, setCategory] = useState('');
  const [html, setHtml] = useState('<h2>Test Post</h2><p>This is a test post sent from the admin dashboard.</p>');
  const [sending, setSending] = useState(false);
  const chosen = category || categories[0] || '';

  async function send(event: FormEvent) {
    event.preventDefault();
    setSending(true);
    try {
      const result = await sendTestWebhook(supabaseBrowser(), organizationId, examplePayload(chosen || undefined, { title, html }));
      const timeZone = result.ok && result.preview.slot ? (await loadQueueSettings(supabaseBrowser(), organizationId)).time_zone : undefined;
      if (result.ok) toast(testDeliveryMessage(result.preview, timeZone));
      else toast({ title: 'Webhook Test Failed', description: result.text, variant: 'destructive' });
    } catch (error) {
      console.error(error);
      toast({ title: 'Webhook Test Error', description: 'Failed to send test request', variant: 'destructive' });
    } finally {
      setSending(false);
    }
  }

  return (
    <Card id="webhook-test">
      <CardHeader
        title="Webhook Test"
        description="Check a payload without publishing: it is validated and sanitized like a real delivery, and the answer says whether it would create or update a post."
      />
      <form onSubmit={send} className="space-y-4">
        <Field label="Title">{(control) => <Input {...control} name="title" value={title} onChange={(e) => setTitle(e.target.value)} required />}</Field>
        <Field label="Category">
          {(control) => (
            <Select {...control} name="category" value={chosen} onChange={(e) => setCategory(e.target.value)} options={categories.map((name) => ({ value: name, label: name }))} />
          )}
        </Field>
        <Field label="HTML Content">
          {(control) => <Textarea {...control} name="html" rows={6} className="font-mono" value={html} onChange={(e) => setHtml(e.target.value)} required />}
        </Field>
        <Button type="submit" disabled={sending}>
          {sending ? 'Sending Test...' : 'Send Test Webhook'}
        </Button>
      </form>
    </Card>
  );
}
