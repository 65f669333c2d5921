import { useState } from 'react';
import { postOnSite } from '../../lib/back-office/deploy-status';
import { type AdminPost, getPost } from '../../lib/back-office/posts';
import { loadQueueSettings } from '../../lib/back-office/publishing-queue';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $deployFacts, deployClock, refreshDeployStatus } from '../stores/deploy-facts';
import { toast } from '../../stores/toast';
import BackOfficeShell from '../BackOfficeShell';
import { ErrorState } from '../components/ui/EmptyState';
import { Skeleton } from '../components/ui/Skeleton';
import type { BackOfficeAccess } from '../use-back-office-access';
import { useLoad } from '../use-load';
import PostEditor, { LIST_PATH } from './editor/PostEditor';

/** The post id of /admin/blog/edit/{id}, or null on /admin/blog/new. */
function postIdFromPath(pathname: string): string | null {
  return pathname.match(/^\/admin\/blog\/edit\/([0-9a-f-]{36})\/?$/i)?.[1] ?? null;
}

/** /admin/blog/new and /admin/blog/edit/{id}: the post editor (client-only island). */
export default function PostEditorApp() {
  return <BackOfficeShell title="Blog Management">{(access) => (access.canEdit ? <EditorLoader access={access} /> : <ReadOnlyNotice />)}</BackOfficeShell>;
}

function ReadOnlyNotice() {
  return (
    <p role="alert" className="text-red-700 dark:text-red-400">
      Viewers cannot create or edit posts. <a className="underline" href={LIST_PATH}>Back to the posts</a>
    </p>
  );
}

/** The editor after a save: the saved post, whether the save changed what visitors see, and a count that remounts the form. */
type Saved = { organizationId: string; post: AdminPost; siteChanged: boolean; count: number };

/**
 * Tells what a save did: its message, and for a change visitors see, when it reaches the site (read from a
 * fresh site status, since the save has just recorded its rebuild).
 */
async function announceSave(post: AdminPost, title: string, siteChanged: boolean): Promise<void> {
  if (!siteChanged) {
    toast({ title });
    return;
  }
  await refreshDeployStatus(post.organization_id);
  const current = $deployFacts.get();
  const facts = current?.organizationId === post.organization_id ? current.facts : null;
  const description = facts && current ? postOnSite(post, facts, deployClock({ facts, receivedAt: current.receivedAt })).text : undefined;
  toast({ title, description, durationMs: 8000 });
}

function EditorLoader({ access }: { access: BackOfficeAccess }) {
  // Read once: after a new post's first save the address becomes its edit address, and the editor goes on
  // with the saved post rather than loading it again.
  const [postId] = useState(() => postIdFromPath(window.location.pathname));
  const [saved, setSaved] = useState<Saved | null>(null);
  // The post (null on /admin/blog/new) and the organization's time zone: the Publish at field and every time
  // the editor tells are in it.
  const loaded = useLoad(async () => {
    const client = supabaseBrowser();
    const [post, settings] = await Promise.all([
      postId ? getPost(client, access.organization.id, postId) : null,
      loadQueueSettings(client, access.organization.id),
    ]);
    return { post, timeZone: settings.time_zone };
  }, [postId, access.organization.id]);
  if (loaded.state === 'error') {
    return <ErrorState message={postId ? 'The post could not be loaded.' : 'The editor could not be loaded.'} onRetry={loaded.reload} />;
  }
  if (!loaded.value) return <Skeleton rows={4} label={postId ? 'Loading post...' : 'Loading editor...'} />;
  if (postId && !loaded.value.post) return <ErrorState message="Post not found." />;
  const mine = saved?.organizationId === access.organization.id ? saved : null;

  /** After a save (or a restored revision) the editor stays on the post, showing it as saved. */
  function onSaved(post: AdminPost, title: string, siteChanged: boolean) {
    if (!postId) window.history.replaceState(window.history.state, '', `/admin/blog/edit/${post.id}`);
    setSaved({ organizationId: post.organization_id, post, siteChanged, count: (mine?.count ?? 0) + 1 });
    void announceSave(post, title, siteChanged);
  }

  /** The post changed elsewhere: the editor opens it as it is now (no save happened, so nothing to announce). */
  function onReload(post: AdminPost) {
    setSaved({ organizationId: post.organization_id, post, siteChanged: false, count: (mine?.count ?? 0) + 1 });
  }

  return (
    <PostEditor
      key={`${access.organization.id}:${postId}:${mine?.count ?? 0}`}
      access={access}
      post={mine?.post ?? loaded.value.post}
      timeZone={loaded.value.timeZone}
      justSaved={mine !== null}
      showSiteStatus={mine?.siteChanged ?? false}
      onSaved={onSaved}
      onReload={onReload}
    />
  );
}

