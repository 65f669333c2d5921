import { useState } from 'react';
import { loadIndexNow, setIndexNow, submissionState } from '../../../lib/back-office/indexnow';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { toast } from '../../../stores/toast';
import { Badge } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { Card, CardHeader } from '../../components/ui/Card';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { EmptyState, ErrorState } from '../../components/ui/EmptyState';
import { RelativeTime } from '../../components/ui/RelativeTime';
import { Skeleton } from '../../components/ui/Skeleton';
import { useLoad } from '../../use-load';

/**
 * Search Engines: whether Bing and the other IndexNow engines are told of the pages each live deploy changed,
 * the key the site serves for them (rotatable), and the submission log with the last failure at a glance.
 */
export function SearchEnginesCard({ organizationId }: { organizationId: string }) {
  const client = supabaseBrowser();
  const state = useLoad(() => loadIndexNow(client, organizationId), [client, organizationId]);
  const [busy, setBusy] = useState(false);
  const [confirmRotate, setConfirmRotate] = useState(false);
  // The switch shows the choice at once; it goes back if the change fails.
  const [enabled, setEnabled] = useState<boolean | null>(null);

  async function change(what: { enabled: boolean } | { rotate: true }) {
    setBusy(true);
    if ('enabled' in what) setEnabled(what.enabled);
    try {
      const saved = await setIndexNow(client, organizationId, what);
      toast(
        'rotate' in what
          ? { title: 'New Key', description: 'The site serves the new key after its next build, which has been requested.' }
          : { title: saved.enabled ? 'Search Engines On' : 'Search Engines Off', description: saved.enabled ? 'Pages that change are submitted once they are live.' : 'Nothing is submitted until you switch this on again.' },
      );
      state.reload();
    } catch (error) {
      console.error(error);
      setEnabled(null);
      toast({ title: 'Error', description: 'Failed to change the search engine notifications', variant: 'destructive' });
    } finally {
      setBusy(false);
      setConfirmRotate(false);
    }
  }

  const lastFailure = state.state === 'ready' && state.value.submissions[0]?.status === 'failed' ? state.value.submissions[0] : null;

  return (
    <Card aria-label="Search Engines">
      <CardHeader
        title="Search Engines"
        description="When a deploy makes changes live, Bing, Yandex, Seznam, Naver and Yep are told which pages changed (IndexNow)."
        actions={<Button variant="outline" onClick={state.reload}>Refresh</Button>}
      />
      {state.state === 'loading' && <Skeleton rows={3} label="Loading search engine notifications..." />}
      {state.state === 'error' && <ErrorState message="Failed to load search engine notifications" onRetry={state.reload} />}
      {state.state === 'ready' && !state.value.site && <EmptyState title="This organization has no IndexNow key" />}
      {state.state === 'ready' && state.value.site && (
        <div className="space-y-4">
          <label className="flex items-center gap-2 text-sm font-medium">
            <input type="checkbox" checked={enabled ?? state.value.site.enabled} disabled={busy} onChange={(event) => void change({ enabled: event.target.checked })} />
            Tell search engines when pages change
          </label>
          <div className="flex flex-wrap items-center gap-3 text-sm">
            <span className="text-muted-foreground">Key</span>
            <code className="break-all rounded bg-muted px-2 py-1" aria-label="IndexNow key">{state.value.site.key}</code>
            <Button variant="outline" size="sm" disabled={busy} onClick={() => setConfirmRotate(true)}>
              Rotate Key
            </Button>
          </div>
          <p className="text-xs text-muted-foreground">
            The site serves the key at /{state.value.site.key}.txt so the engines know submissions are yours.
          </p>
          {lastFailure && (
            <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
              The last submission failed: {lastFailure.error ?? 'no answer'}.{' '}
              {lastFailure.next_attempt_at ? (
                <>It is tried again <RelativeTime date={lastFailure.next_attempt_at} />.</>
              ) : (
                <>It was tried {lastFailure.attempts} times and is not tried again.</>
              )}
            </p>
          )}
          {state.value.submissions.length === 0 ? (
            <EmptyState title="Nothing submitted yet" />
          ) : (
            <ul className="divide-y divide-border" aria-label="Search engine submissions">
              {state.value.submissions.map((submission) => {
                const shown = submissionState(submission);
                return (
                  <li key={submission.id} className="space-y-1 py-2 text-sm">
                    <div className="flex flex-wrap items-center gap-3">
                      <Badge variant={shown.variant}>{shown.label}</Badge>
                      <details>
                        <summary className="cursor-pointer">
                          {submission.urls.length} {submission.urls.length === 1 ? 'page' : 'pages'}
                        </summary>
                        <ul className="mt-1 space-y-0.5 break-all text-xs text-muted-foreground">
                          {submission.urls.map((url) => (
                            <li key={url}>{url}</li>
                          ))}
                        </ul>
                      </details>
                      <span className="text-muted-foreground">
                        {submission.response_status ? `answered ${submission.response_status}` : submission.status === 'failed' ? 'no answer' : ''}
                        {submission.attempts > 1 ? ` · ${submission.attempts} tries` : ''}
                      </span>
                      <span className="ml-auto text-muted-foreground">
                        <RelativeTime date={submission.created_at} />
                      </span>
                    </div>
                    {submission.error && (submission.status === 'failed' || submission.status === 'unsendable') && <p className="text-red-700 dark:text-red-400">{submission.error}</p>}
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
      <ConfirmDialog
        open={confirmRotate}
        title="Rotate the IndexNow key?"
        description="The site gets a new key, served after its next build (requested now). Submissions made before then may be refused and are tried again."
        confirmLabel="Rotate"
        busy={busy}
        onConfirm={() => void change({ rotate: true })}
        onCancel={() => setConfirmRotate(false)}
      />
    </Card>
  );
}
