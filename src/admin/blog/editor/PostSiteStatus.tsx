import { useStore } from '@nanostores/react';
import { useEffect, useRef } from 'react';
import { postOnSite } from '../../../lib/back-office/deploy-status';
import type { AdminPost } from '../../../lib/back-office/posts';
import { $deployFacts, deployClock } from '../../stores/deploy-facts';
import { toast } from '../../../stores/toast';

/** The line's look per state: waiting and building are news in progress, done is good news, failed is not. */
const LOOKS = {
  waiting: 'border-border bg-muted',
  building: 'border-border bg-muted',
  done: 'border-green-600/40 bg-green-50 text-green-900 dark:bg-green-950 dark:text-green-100',
  failed: 'border-red-600/40 bg-red-50 text-red-900 dark:bg-red-950 dark:text-red-100',
} as const;

/**
 * Where the post's latest change stands on the public site (`postOnSite`): when it goes live (or leaves),
 * then that it is live, with a link to it, or that the build failed. It follows the site status the header
 * already watches (`$deployFacts`), and says the outcome in a toast too when it arrives while the editor is
 * open, wherever the page is scrolled.
 */
export function PostSiteStatus({ post }: { post: AdminPost }) {
  const current = useStore($deployFacts);
  const mine = current?.organizationId === post.organization_id && current.facts ? { facts: current.facts, receivedAt: current.receivedAt } : null;
  const onSite = mine ? postOnSite(post, mine.facts, deployClock(mine)) : null;
  const kind = onSite?.kind ?? null;
  const seen = useRef(kind);

  useEffect(() => {
    const before = seen.current;
    seen.current = kind;
    if (!onSite || before === null || before === kind || (kind !== 'done' && kind !== 'failed')) return;
    toast({ title: onSite.text, variant: kind === 'failed' ? 'destructive' : 'default' });
  }, [kind, onSite]);

  if (!onSite) return null;
  return (
    <p role="status" data-testid="post-site-status" data-state={onSite.kind} className={`mt-4 rounded-lg border p-3 text-sm ${LOOKS[onSite.kind]}`}>
      {onSite.text}
      {onSite.kind === 'done' && post.status === 'published' && (
        <>
          {' '}
          <a href={`/blog/${post.slug}`} target="_blank" rel="noopener noreferrer" className="font-medium underline">
            View it<span className="sr-only"> (opens in a new tab)</span>
          </a>
        </>
      )}
    </p>
  );
}
