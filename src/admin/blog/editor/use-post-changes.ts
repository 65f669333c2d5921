import { useState } from 'react';
import { describePostChange, readPostVersion } from '../../../lib/back-office/post-changes';
import { listRevisions } from '../../../lib/back-office/post-revisions';
import { type AdminPost, getPost } from '../../../lib/back-office/posts';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { useLiveReload } from '../../use-live-reload';
import { useLoad } from '../../use-load';

/** What the editor says about its post having changed elsewhere: the sentence, and the post now (null: deleted). */
export interface PostChange {
  message: string;
  current: AdminPost | null;
}

/**
 * Watches the open post for changes made elsewhere (post-changes.ts): its version is read when the editor
 * opens, every LIVE_RELOAD_INTERVAL_MS while the page is visible and when the user comes back to it; a save
 * refused as out of date reports the post it met (`conflict`). `change` is null while the post is as opened.
 */
export function usePostChanges(post: AdminPost | null, timeZone: string) {
  const [conflict, setConflict] = useState<AdminPost | null>(null);
  const version = useLoad(async () => (post ? readPostVersion(supabaseBrowser(), post.id) : null), [post]);
  useLiveReload(version.reload);
  const deleted = post !== null && version.state === 'ready' && version.value === null;
  const seen = conflict?.updated_at ?? (version.value && version.value.updated_at !== post?.updated_at ? version.value.updated_at : null);
  const detail = useLoad(async (): Promise<PostChange | null> => {
    if (!post || !seen) return null;
    const client = supabaseBrowser();
    const [current, revisions] = await Promise.all([getPost(client, post.organization_id, post.id), listRevisions(client, post.id, 1)]);
    if (!current) return { message: 'It was deleted.', current: null };
    return { message: describePostChange(post, current, timeZone, revisions[0] ?? null), current };
  }, [post, seen, timeZone]);
  const change: PostChange | null = deleted ? { message: 'It was deleted.', current: null } : (detail.value ?? null);
  return { change, conflict: setConflict };
}
