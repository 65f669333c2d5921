import { useState } from 'react';
import {
  listWebhookAuthors,
  loadPublishMode,
  loadWebhookAuthor,
  PUBLISH_MODE_OPTIONS,
  PUBLISH_MODE_SAVED,
  savePublishMode,
  saveWebhookAuthor,
} from '../../../lib/back-office/webhook';
import type { PublishMode } from '../../../schemas/organization';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { toast } from '../../../stores/toast';
import { Card, CardHeader } from '../../components/ui/Card';
import { ErrorState } from '../../components/ui/EmptyState';
import { Field } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';
import { Skeleton } from '../../components/ui/Skeleton';
import { useLoad } from '../../use-load';

/**
 * What deliveries do, shown as stored and saved when changed (set_webhook_publish_mode, admins only,
 * audited), and who their posts are credited to (set_webhook_author; chosen once the address exists).
 */
export function PublishModeCard({ organizationId, hasAddress }: { organizationId: string; hasAddress: boolean }) {
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
      <CardHeader title="Publishing" description="What happens to a post that arrives from ZimmWriter or another publishing tool, by this webhook or the WordPress API. An update keeps the post's status unless the tool sets one." />
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
