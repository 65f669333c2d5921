import { useEffect, useMemo, useRef, useState } from 'react';
import { listCategories, type TaxonomyCategory } from '../../../lib/back-office/blog-taxonomy';
import { actionMessage, actionsFor, changesSite, formatPublicationTime, type PostAction } from '../../../lib/back-office/post-actions';
import { autosaveKey, writeAutosave } from '../../../lib/back-office/post-autosave';
import type { AdminPost } from '../../../lib/back-office/posts';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { shapePostContent } from '../../../lib/post-content';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import type { BackOfficeAccess } from '../../use-back-office-access';
import { useLoad } from '../../use-load';
import DuplicateMark from '../DuplicateMark';
import PostPreview from '../PostPreview';
import RevisionHistory from '../RevisionHistory';
import { ChangedElsewhere } from './ChangedElsewhere';
import { ActionButton, EditorActionBar } from './EditorActions';
import { changedFields, formOf } from './post-form';
import { PostFields } from './PostFields';
import { PostSiteStatus } from './PostSiteStatus';
import { useKeptForm } from './use-kept-form';
import { useLeaveGuard } from '../../use-leave-guard';
import { usePostChanges } from './use-post-changes';
import { usePostSave } from './use-post-save';
import { useToastLift } from './use-toast-lift';

/** Where the editor's Cancel and "All posts" lead. */
export const LIST_PATH = '/admin/blog';

const NO_CATEGORIES: TaxonomyCategory[] = [];

interface PostEditorProps {
  access: BackOfficeAccess;
  post: AdminPost | null;
  timeZone: string;
  /** Mounted again after a save: focus goes to the heading, not to the page's start. */
  justSaved: boolean;
  /** The last save changed what visitors see (an unpublished post shows when it leaves the site). */
  showSiteStatus: boolean;
  onSaved: (post: AdminPost, title: string, siteChanged: boolean) => void;
  /** Opens the post as it is now (changed elsewhere); the unsaved changes come back over it, kept in this browser. */
  onReload: (post: AdminPost) => void;
}

/**
 * The editor: the post's fields beside its preview, the actions its status allows, autosave and the leave
 * guard, and a notice when the post changed elsewhere since it opened (a save would not overwrite that: it is
 * refused). On a phone the actions stay in a bar at the bottom of the screen, and the preview follows the fields.
 */
export default function PostEditor({ access, post, timeZone, justSaved, showSiteStatus, onSaved, onReload }: PostEditorProps) {
  const initial = useMemo(() => formOf(post, timeZone), [post, timeZone]);
  const storageKey = autosaveKey(access.organization.id, post?.id ?? null);
  const [confirming, setConfirming] = useState<'unpublish' | null>(null);
  const changes = usePostChanges(post, timeZone);
  const save = usePostSave(access, post, timeZone, changes.conflict);
  const { busy } = save;
  // Set once the user chose to leave without saving: the form is no longer kept, and nothing asks again.
  const leftRef = useRef(false);
  const kept = useKeptForm(storageKey, initial, busy !== null, leftRef);
  const { form, setForm, dirty } = kept;
  const guard = useLeaveGuard(dirty && busy === null, leftRef);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (justSaved) heading.current?.focus({ preventScroll: true });
  }, [justSaved]);
  const actionBar = useRef<HTMLDivElement>(null);
  useToastLift(actionBar);

  /** Saves with one of the post's actions; the editor stays on the saved post and says what happened. */
  async function run(action: PostAction) {
    const saved = await save.run(action, form);
    if (!saved) return;
    kept.forget();
    onSaved(saved, actionMessage(action, saved, timeZone), changesSite(action, saved));
  }

  const categories = useLoad(() => listCategories(supabaseBrowser(), access.organization.id), [access.organization.id]).value ?? NO_CATEGORIES;
  // The preview shows the body as it will be published; while it is shaped again, the last one stays.
  const html = useLoad(async () => (await shapePostContent(form.source, form.format)).content, [form.source, form.format], []).value ?? '';
  // A post saved without a category gets the organization's default ("Uncategorized"), so the select shows it.
  const categoryId = form.category_id || (categories.find((category) => category.is_default)?.id ?? '');
  // The actions of the post as it is now: once it changed elsewhere (the scheduler published it), those of its new
  // state, never a Cancel schedule for a post already live.
  const now = changes.change?.current ?? post;
  const actions = actionsFor(now?.status ?? null, now?.queued ?? false);

  // Unpublishing asks first; every other action runs at once.
  const onAction = (action: PostAction) => (action === 'unpublish' ? setConfirming('unpublish') : void run(action));
  const scheduleAction = actions.find((action) => action === 'schedule' || action === 'reschedule');

  /** The post as it is now, with only the fields this editor changed kept in this browser to come back over it. */
  function loadLatest(current: AdminPost) {
    if (dirty) writeAutosave(localStorage, storageKey, changedFields(form, initial));
    onReload(current);
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run(actions[0]!);
      }}
    >
      <a href={LIST_PATH} className="text-sm text-muted-foreground underline-offset-2 hover:text-foreground hover:underline">
        <span aria-hidden="true">← </span>All posts
      </a>
      <div className="mt-1 flex flex-wrap items-center justify-between gap-4">
        <h2 ref={heading} tabIndex={-1} className="text-2xl font-bold focus:outline-none">
          {post ? 'Edit Post' : 'Create New Post'}
        </h2>
        <EditorActionBar
          actions={actions}
          busy={busy}
          onAction={onAction}
          onCancel={() => (dirty ? guard.askToLeave(LIST_PATH) : guard.leave(LIST_PATH))}
          barRef={actionBar}
        />
      </div>
      {post && (post.status === 'published' || showSiteStatus) && <PostSiteStatus post={post} />}
      {post?.queued && post.published_at && (
        <p role="status" className="mt-4 rounded-lg border border-border bg-muted p-3 text-sm">
          In the publishing queue: goes out {formatPublicationTime(post.published_at, timeZone)}.{' '}
          <a className="underline" href="/admin/blog/queue">
            Reorder in the queue
          </a>
        </p>
      )}
      {changes.change && <ChangedElsewhere change={changes.change} listPath={LIST_PATH} onLoadLatest={loadLatest} />}
      {post?.duplicate_of && <DuplicateMark post={post} />}
      {kept.restoredAt && (
        <div role="status" className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border border-border bg-muted p-3 text-sm">
          <span>Restored your unsaved changes from {formatPublicationTime(kept.restoredAt, timeZone)}.</span>
          <Button variant="outline" size="sm" onClick={kept.discard}>
            Discard changes
          </Button>
        </div>
      )}

      <div className="mt-6 grid grid-cols-1 gap-6 pb-32 lg:grid-cols-2 lg:pb-0">
        <div className="space-y-4">
          <PostFields
            form={form}
            setForm={setForm}
            isNew={post === null}
            organizationId={access.organization.id}
            organizationName={access.organization.name}
            categories={categories}
            categoryId={categoryId}
            timeZone={timeZone}
            scheduleError={save.scheduleError}
            scheduleButton={scheduleAction && <ActionButton action={scheduleAction} primary={scheduleAction === actions[0]} variant="outline" busy={busy} onAction={onAction} />}
          />
        </div>
        <Card aria-labelledby="preview-heading" className="lg:row-span-2 lg:self-start">
          <h3 id="preview-heading" className="font-semibold text-muted-foreground">
            Preview
          </h3>
          <PostPreview
            title={form.title}
            excerpt={form.excerpt}
            html={html}
            featuredMedia={form.featured_media}
            featuredImageUrl={form.featured_image_url}
            categoryName={categories.find((category) => category.id === categoryId)?.name ?? null}
            tags={form.tags}
            // A saved post keeps its own credit (none: the organization's); a new one will be the signed-in member's.
            authorName={post ? (post.author?.full_name ?? null) : ((access.user.user_metadata?.full_name as string | undefined) ?? null)}
            organizationName={access.organization.name}
            date={post?.published_at ?? post?.created_at ?? null}
            timeZone={timeZone}
          />
        </Card>
        {post && (
          <RevisionHistory
            post={post}
            dirty={dirty}
            timeZone={timeZone}
            organizationName={access.organization.name}
            onRestored={(restored) => {
              kept.forget();
              onSaved(restored, 'Revision restored.', restored.status === 'published');
            }}
          />
        )}
      </div>
      <ConfirmDialog
        open={guard.leavingTo !== null}
        title="Unsaved changes"
        description="You have unsaved changes. Leave without saving? They stay in this browser until you discard them."
        confirmLabel="Leave"
        destructive
        onConfirm={() => guard.leave(guard.leavingTo ?? LIST_PATH)}
        onCancel={guard.stay}
      />
      <ConfirmDialog
        open={confirming === 'unpublish'}
        title="Unpublish this post?"
        description="It leaves the site at the next build and stays here as a draft. You can publish it again at any time."
        confirmLabel="Unpublish"
        destructive
        onConfirm={() => {
          setConfirming(null);
          void run('unpublish');
        }}
        onCancel={() => setConfirming(null)}
      />
    </form>
  );
}
