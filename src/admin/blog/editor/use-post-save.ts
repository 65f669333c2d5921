import { useState } from 'react';
import { type PostAction, publicationFor } from '../../../lib/back-office/post-actions';
import { type AdminPost, PostChangedError, PostSaveError, SAVE_FAILED_MESSAGE, savePost } from '../../../lib/back-office/posts';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { toast } from '../../../stores/toast';
import type { BackOfficeAccess } from '../../use-back-office-access';
import { draftOf, type PostForm } from './post-form';

/**
 * Saving the post with one of its actions (save a draft, publish, schedule, queue, update, unpublish...):
 * the required fields and the schedule are checked first (a schedule problem shows under Publish at), then
 * the post is saved under the editor's session; a refusal is a toast with the database's reason. `run`
 * answers the saved post, or null when nothing was saved. `busy` is the action running (it stays set after a
 * save: the editor is mounted again with the saved post then). A save writes only over the version the editor
 * opened: a post changed elsewhere meanwhile is not overwritten, and `onChanged` gets the post as it is now.
 */
export function usePostSave(access: BackOfficeAccess, post: AdminPost | null, timeZone: string, onChanged: (current: AdminPost) => void) {
  const [busy, setBusy] = useState<PostAction | null>(null);
  const [scheduleError, setScheduleError] = useState<string | null>(null);

  async function run(action: PostAction, form: PostForm): Promise<AdminPost | null> {
    if (!form.title.trim() || !form.source.trim()) {
      toast({ title: 'Validation Error', description: 'Title and content are required.', variant: 'destructive' });
      return null;
    }
    const publication = publicationFor(action, post, form.scheduleAt, timeZone);
    if ('error' in publication) {
      setScheduleError(publication.error);
      return null;
    }
    setScheduleError(null);
    setBusy(action);
    try {
      const target = { id: post?.id, organizationId: access.organization.id, authorId: access.user.id, updatedAt: post?.updated_at };
      return await savePost(supabaseBrowser(), target, draftOf(form, publication));
    } catch (error) {
      if (error instanceof PostChangedError) onChanged(error.current);
      const description = error instanceof PostSaveError && error.message ? error.message : SAVE_FAILED_MESSAGE;
      toast({ title: 'Error', description, variant: 'destructive' });
      setBusy(null);
      return null;
    }
  }

  return { busy, scheduleError, run };
}
