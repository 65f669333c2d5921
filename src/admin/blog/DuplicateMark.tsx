import { useState } from 'react';
import { type AdminPost, dismissDuplicateMark, getDuplicateOriginal } from '../../lib/back-office/posts';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { toast } from '../../stores/toast';
import { Button } from '../components/ui/Button';
import { useLoad } from '../use-load';

/**
 * The editor's notice on a writing-tool delivery the duplicate gate held back as a draft: "Possible duplicate
 * of <the original>", linked to it, with Dismiss (clears the mark; the post stays a draft to publish or
 * delete as the editor decides).
 */
export default function DuplicateMark({ post }: { post: Pick<AdminPost, 'id' | 'organization_id' | 'duplicate_of'> }) {
  // The original's title for the link; until it arrives (or if it cannot be read) the link says "another post".
  const original = useLoad(
    async () => (post.duplicate_of ? getDuplicateOriginal(supabaseBrowser(), post.duplicate_of) : null),
    [post.duplicate_of],
  ).value;
  const [dismissed, setDismissed] = useState(false);
  const [busy, setBusy] = useState(false);
  if (dismissed || !post.duplicate_of) return null;

  async function dismiss() {
    setBusy(true);
    try {
      await dismissDuplicateMark(supabaseBrowser(), post);
      setDismissed(true);
      toast({ title: 'Mark dismissed', description: 'The post is no longer marked as a possible duplicate.' });
    } catch (error) {
      console.error(error);
      toast({ title: 'Error', description: 'The mark could not be dismissed. Try again.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div role="status" className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-500/60 dark:bg-amber-950/40 dark:text-amber-100">
      <span>
        Possible duplicate of{' '}
        <a className="font-medium underline" href={`/admin/blog/edit/${post.duplicate_of}`}>
          {original ? `“${original.title}”` : 'another post'}
        </a>
        . It arrived as a new article (from ZimmWriter or a publishing tool); it was saved as a draft instead of going out.
      </span>
      <Button variant="outline" size="sm" disabled={busy} onClick={() => void dismiss()}>
        {busy ? 'Dismissing...' : 'Dismiss'}
      </Button>
    </div>
  );
}
