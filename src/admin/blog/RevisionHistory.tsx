import { useState } from 'react';
import type { AdminPost } from '../../lib/back-office/posts';
import { listRevisions, type PostRevision, restoreRevision, revisionAuthor, revisionChanges } from '../../lib/back-office/post-revisions';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { toast, toastOnNextPage } from '../../stores/toast';
import { Button } from '../components/ui/Button';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { RelativeTime } from '../components/ui/RelativeTime';
import { useLoad } from '../use-load';

/**
 * The post's latest revisions (who, when, what changed) with a Restore button on each but the current one.
 * Restoring asks first (unsaved changes in the form are lost then), runs in the database (which records the
 * rebuild when the post is public), and reloads the editor with the restored post (`onRestored`).
 */
export default function RevisionHistory({ post, dirty, onRestored }: { post: AdminPost; dirty: boolean; onRestored: () => void }) {
  const revisions = useLoad(() => listRevisions(supabaseBrowser(), post.id), [post.id]);
  const [chosen, setChosen] = useState<PostRevision | null>(null);
  const [busy, setBusy] = useState(false);

  async function restore(revision: PostRevision) {
    setBusy(true);
    const client = supabaseBrowser();
    try {
      await restoreRevision(client, revision.id);
    } catch (error) {
      toast({ title: 'Error', description: (error as Error).message, variant: 'destructive' });
      setBusy(false);
      setChosen(null);
      return;
    }
    toastOnNextPage({ title: 'Revision restored.' });
    onRestored();
  }

  return (
    <section aria-labelledby="revisions-heading" className="space-y-3 rounded-lg border border-border p-4">
      <h3 id="revisions-heading" className="font-semibold">
        Revision history
      </h3>
      {revisions.state === 'error' ? (
        <p className="text-sm text-muted-foreground">
          The revisions could not be loaded.{' '}
          <button type="button" className="underline" onClick={revisions.reload}>Try again</button>
        </p>
      ) : !revisions.value ? (
        <p className="text-sm text-muted-foreground">Loading revisions...</p>
      ) : (
        <ol className="divide-y divide-border" aria-label="Revisions">
          {revisions.value.map((revision, index) => (
            <li key={revision.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div className="min-w-0">
                <p className="font-medium">
                  <RelativeTime date={revision.created_at} /> · {revisionAuthor(revision)}
                  {index === 0 && <span className="ml-2 text-muted-foreground">(current)</span>}
                </p>
                <p className="truncate text-muted-foreground">
                  {revisionChanges(revision)}: “{revision.title}”
                </p>
              </div>
              {index > 0 && (
                <Button variant="outline" size="sm" onClick={() => setChosen(revision)} aria-label={`Restore the revision of ${new Date(revision.created_at).toLocaleString()}`}>
                  Restore
                </Button>
              )}
            </li>
          ))}
        </ol>
      )}
      <ConfirmDialog
        open={chosen !== null}
        title="Restore this revision?"
        description={`The title, content, excerpt and SEO fields go back to this version; the current one stays in the history.${dirty ? ' Your unsaved changes are discarded.' : ''}`}
        confirmLabel="Restore"
        busyLabel="Restoring..."
        busy={busy}
        onConfirm={() => chosen && void restore(chosen)}
        onCancel={() => setChosen(null)}
      />
    </section>
  );
}
