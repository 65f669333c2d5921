import { useState } from 'react';
import { rotateWebhookToken, type WebhookIntegration, webhookUrl } from '../../../lib/back-office/webhook';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { toast } from '../../../stores/toast';
import { CopyButton } from '../../components/ui/CopyButton';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { Input } from '../../components/ui/Input';
import { RelativeTime } from '../../components/ui/RelativeTime';
import type { LoadState } from '../../use-load';

/**
 * The webhook URL: created the first time, then rotated after a confirmation; the new URL (with its token) is
 * shown once, since only the token's hash is stored.
 */
export function WebhookAddressCard({ organizationId, integration }: { organizationId: string; integration: LoadState<WebhookIntegration | null> }) {
  const client = supabaseBrowser();
  const [newToken, setNewToken] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [rotating, setRotating] = useState(false);
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const url = webhookUrl(origin, newToken ?? undefined);
  // No integration yet: the first address is created (no confirmation, nothing to replace); else rotated.
  const hasAddress = integration.state === 'ready' && integration.value !== null;

  async function issueToken(first: boolean) {
    setRotating(true);
    try {
      setNewToken(await rotateWebhookToken(client, organizationId));
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
    <>
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
    </>
  );
}
