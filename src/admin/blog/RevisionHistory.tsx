import { useState } from 'react';
import { type AdminPost, getPost } from '../../lib/back-office/posts';
import {
  getRevisionContent, listRevisions, type PostRevision, restoreConsequence, restoreRevision, revisionAuthor, revisionChanges,
} from '../../lib/back-office/post-revisions';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { shapePostContent } from '../../lib/post-content';
import { toast } from '../../stores/toast';
import { Button } from '../components/ui/Button';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { Dialog, DialogFooter } from '../components/ui/Dialog';
import { RelativeTime } from '../components/ui/RelativeTime';
import { useLoad } from '../use-load';
import PostPreview from './PostPreview';

/** A revision's time as its buttons and preview name it. */
const revisionTime = (revision: PostRevision) => new Date(revision.created_at).toLocaleString();

export interface RevisionHistoryProps {
  post: AdminPost;
  dirty: boolean;
  /** The organization's time zone, in which a scheduled post's time is told. */
  timeZone: string;
  /** The organization's name: the preview credits a post without an author to it. */
  organizationName: string;
  /** The post as the restore left it. */
  onRestored: (post: AdminPost) => void;
}

/**
 * The post's latest revisions (who, when, what changed), with Preview and Restore on each but the current
 * one. The preview renders the revision as the editor's preview does (the same shaping and sanitizing);
 * restoring asks first, saying what it does for the post's status (a published post is republished at
 * once), runs in the database (which records the rebuild when the post is public) and hands the restored
 * post back to the editor (`onRestored`).
 */
export default function RevisionHistory({ post, dirty, timeZone, organizationName, onRestored }: RevisionHistoryProps) {
  const revisions = useLoad(() => listRevisions(supabaseBrowser(), post.id), [post.id]);
  const [previewing, setPreviewing] = useState<PostRevision | null>(null);
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
    try {
      const restored = await getPost(client, post.organization_id, post.id);
      if (!restored) throw new Error(`Post ${post.id} is gone`);
      onRestored(restored);
    } catch (error) {
      console.error(error);
      toast({ title: 'Revision restored', description: 'The editor could not load it: reload the page to see it.', variant: 'destructive' });
      setBusy(false);
      setChosen(null);
    }
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
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" onClick={() => setPreviewing(revision)} aria-label={`Preview the revision of ${revisionTime(revision)}`}>
                    Preview
                  </Button>
                  <Button variant="outline" size="sm" onClick={() => setChosen(revision)} aria-label={`Restore the revision of ${revisionTime(revision)}`}>
                    Restore
                  </Button>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {previewing && (
        <RevisionPreview
          organizationName={organizationName}
          timeZone={timeZone}
          post={post}
          revision={previewing}
          onClose={() => setPreviewing(null)}
          onRestore={() => {
            setPreviewing(null);
            setChosen(previewing);
          }}
        />
      )}
      <ConfirmDialog
        open={chosen !== null}
        title="Restore this revision?"
        description={`${restoreConsequence(post, timeZone)} The current version stays in the history.${dirty ? ' Your unsaved changes are discarded.' : ''}`}
        confirmLabel="Restore"
        busyLabel="Restoring..."
        busy={busy}
        onConfirm={() => chosen && void restore(chosen)}
        onCancel={() => setChosen(null)}
      />
    </section>
  );
}

/** One revision rendered as the post would show it (its image, category and author are the post's own). */
function RevisionPreview({
  post,
  revision,
  organizationName,
  timeZone,
  onClose,
  onRestore,
}: {
  post: AdminPost;
  revision: PostRevision;
  organizationName: string;
  timeZone: string;
  onClose: () => void;
  onRestore: () => void;
}) {
  const content = useLoad(async () => {
    const stored = await getRevisionContent(supabaseBrowser(), revision.id);
    return { ...stored, html: (await shapePostContent(stored.content_source, stored.content_format)).content };
  }, [revision.id]);
  return (
    <Dialog
      open
      onClose={onClose}
      title="Revision preview"
      description={`Saved ${revisionTime(revision)} by ${revisionAuthor(revision)}.`}
      className="w-[min(56rem,calc(100vw-2rem))]! max-h-[calc(100dvh-2rem)] overflow-y-auto"
    >
      {content.state === 'error' ? (
        <p className="text-sm text-red-700 dark:text-red-400">This revision could not be loaded.</p>
      ) : !content.value ? (
        <p className="text-sm text-muted-foreground">Loading the revision...</p>
      ) : (
        <div data-testid="revision-preview">
          <PostPreview
            title={content.value.title}
            excerpt={content.value.excerpt}
            html={content.value.html}
            featuredMedia={post.featured_media}
            featuredImageUrl={post.featured_image_url}
            categoryName={post.category?.name ?? null}
            tags={post.tags}
            authorName={post.author?.full_name ?? null}
            organizationName={organizationName}
            date={post.published_at ?? post.created_at}
            timeZone={timeZone}
          />
        </div>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Close
        </Button>
        <Button onClick={onRestore} disabled={!content.value}>
          Restore this version
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
