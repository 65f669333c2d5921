import type { AdminPost } from '../../../lib/back-office/posts';
import { Button } from '../../components/ui/Button';
import type { PostChange } from './use-post-changes';

/**
 * The editor's notice that the post changed elsewhere since it opened (use-post-changes.ts): what changed, and
 * the way on. A post that still exists is loaded as it is now, this editor's unsaved changes coming back over
 * it; a deleted one can only be left.
 */
export function ChangedElsewhere({ change, listPath, onLoadLatest }: { change: PostChange; listPath: string; onLoadLatest: (current: AdminPost) => void }) {
  const { current } = change;
  return (
    <div role="alert" className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border border-amber-500/60 bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950/40 dark:text-amber-100">
      <span className="min-w-0 flex-1">
        <strong>This post changed since you opened it.</strong> {change.message}{' '}
        {current ? 'Saving now would overwrite that, so a save waits until you load the latest version (your unsaved changes come back over it).' : 'It can no longer be saved.'}
      </span>
      {current ? (
        <Button size="sm" onClick={() => onLoadLatest(current)}>
          Load the latest version
        </Button>
      ) : (
        <a className="underline" href={listPath}>All posts</a>
      )}
    </div>
  );
}
