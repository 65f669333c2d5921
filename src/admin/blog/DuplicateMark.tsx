import { useEffect, useState } from 'react';
import { type AdminPost, dismissDuplicateMark, getDuplicateOriginal } from '../../lib/back-office/posts';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { toast } from '../../stores/toast';
import { Button } from '../components/ui/Button';

/**
 * The editor's notice on a writing-tool delivery the duplicate gate held back as a draft: "Possible duplicate
 * of <the original>", linked to it, with Dismiss (clears the mark; the post stays a draft to publish or
 * delete as the editor decides).
 */
export default function DuplicateMark({ post }: { post: Pick<AdminPost, 'id' | 'organization_id' | 'duplicate_of'> }) {
  const [original, setOriginal] = useState<{ id: string; title: string } | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!post.duplicate_of) return;
    getDuplicateOriginal(supabaseBrowser(), post.duplicate_of)
      .then(setOriginal)
      .catch((error) => console.error(error));
  }, [post.duplicate_of]);
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
        . ZimmWriter delivered it as a new article; it was saved as a draft instead of going out.
      </span>
      <Button variant="outline" size="sm" disabled={busy} onClick={() => void dismiss()}>
        {busy ? 'Dismissing...' : 'Dismiss'}
      </Button>
    </div>
  );
}
