import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  type AdminPost,
  type FeaturedMedia,
  getPost,
  type PostDraft,
  PostSaveError,
  SAVE_FAILED_MESSAGE,
  savePost,
} from '../../lib/back-office/posts';
import { listCategories, type TaxonomyCategory } from '../../lib/back-office/blog-taxonomy';
import { ACTION_LABELS, actionMessage, actionsFor, formatPublicationTime, type PostAction, publicationFor } from '../../lib/back-office/post-actions';
import { autosaveKey, clearAutosave, readAutosave, writeAutosave } from '../../lib/back-office/post-autosave';
import { shapePostContent } from '../../lib/post-content';
import { loadQueueSettings } from '../../lib/back-office/publishing-queue';
import { slugify } from '../../lib/slug';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { timeZoneLabel, toZonedInput } from '../../lib/back-office/zoned-time';
import { type ContentFormat, uniqueTags } from '../../schemas/post';
import { toast, toastOnNextPage } from '../../stores/toast';
import { Button } from '../components/ui/Button';
import { Card } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { ErrorState } from '../components/ui/EmptyState';
import { Field, Input, Textarea } from '../components/ui/Input';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import BackOfficeShell from '../BackOfficeShell';
import { FeaturedImageField } from '../media/FeaturedImageField';
import DuplicateMark from './DuplicateMark';
import PostPreview from './PostPreview';
import RevisionHistory from './RevisionHistory';
import type { BackOfficeAccess } from '../use-back-office-access';
import { useLoad } from '../use-load';

/** SEO length guides shown under the meta fields. */
const META_TITLE_GUIDE = 60;
const META_DESCRIPTION_GUIDE = 160;

const LIST_PATH = '/admin/blog';

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

function EditorLoader({ access }: { access: BackOfficeAccess }) {
  const postId = postIdFromPath(window.location.pathname);
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
  return <PostEditor key={`${access.organization.id}:${postId}`} access={access} post={loaded.value.post} timeZone={loaded.value.timeZone} />;
}

/** The editor's form: the post's fields as the inputs hold them. */
interface PostForm {
  title: string;
  slug: string;
  excerpt: string;
  source: string;
  format: ContentFormat;
  category_id: string;
  tags: string[];
  /** A legacy featured image address: shown with Remove until an image from the library replaces it. */
  featured_image_url: string;
  featured_media: FeaturedMedia | null;
  meta_title: string;
  meta_description: string;
  scheduleAt: string;
}

function formOf(post: AdminPost | null, timeZone: string): PostForm {
  return {
    title: post?.title ?? '',
    slug: post?.slug ?? '',
    excerpt: post?.excerpt ?? '',
    source: post?.content_source ?? '',
    format: post?.content_format ?? 'markdown',
    category_id: post?.category_id ?? '',
    tags: post?.tags ?? [],
    featured_image_url: post?.featured_image_url ?? '',
    featured_media: post?.featured_media ?? null,
    meta_title: post?.meta_title ?? '',
    meta_description: post?.meta_description ?? '',
    scheduleAt: post?.status === 'scheduled' && post.published_at ? toZonedInput(post.published_at, timeZone) : '',
  };
}

const FORMAT_OPTIONS = [
  { value: 'markdown', label: 'Markdown' },
  { value: 'html', label: 'HTML' },
];

const CONTENT_HINTS: Record<ContentFormat, string> = {
  markdown: 'Markdown: ## headings, **bold**, - lists, [links](https://example.com), `code`. The preview shows the published result.',
  html: 'HTML, kept as written; unsafe markup is removed. The preview shows the published result.',
};

/** How long typing pauses before the form is kept locally (ms). */
const AUTOSAVE_DELAY_MS = 800;

const NO_CATEGORIES: TaxonomyCategory[] = [];

function PostEditor({ access, post, timeZone }: { access: BackOfficeAccess; post: AdminPost | null; timeZone: string }) {
  const initial = useMemo(() => formOf(post, timeZone), [post, timeZone]);
  const storageKey = autosaveKey(access.organization.id, post?.id ?? null);
  // A form kept in this browser and never saved comes back, with a notice offering to discard it.
  const [kept] = useState(() => {
    const found = readAutosave<PostForm>(localStorage, storageKey);
    return found && JSON.stringify(found.form) !== JSON.stringify(initial) ? found : null;
  });
  const [restoredAt, setRestoredAt] = useState<string | null>(kept?.savedAt ?? null);
  const [form, setForm] = useState<PostForm>(() => (kept ? { ...initial, ...kept.form } : initial));
  const [tagInput, setTagInput] = useState('');
  // The slug follows the title until the user edits it (or when editing a post, which keeps its URL).
  const [slugTouched, setSlugTouched] = useState(post !== null);
  const categories = useLoad(() => listCategories(supabaseBrowser(), access.organization.id), [access.organization.id]).value ?? NO_CATEGORIES;
  const [busy, setBusy] = useState<PostAction | null>(null);
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<'unpublish' | null>(null);
  // Where the user wanted to go with unsaved changes (the leave dialog is open while set).
  const [leavingTo, setLeavingTo] = useState<string | null>(null);
  // Set once the user chose to leave without saving: the browser's own leave prompt must not ask again.
  const leaveConfirmed = useRef(false);
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);
  // The preview shows the body as it will be published; while it is shaped again, the last one stays.
  const html = useLoad(async () => (await shapePostContent(form.source, form.format)).content, [form.source, form.format], []).value ?? '';
  const categoryOptions = useMemo(() => categories.map((category) => ({ value: category.id, label: category.name })), [categories]);
  // A post saved without a category gets the organization's default ("Uncategorized"), so the select shows it.
  const categoryId = form.category_id || (categories.find((category) => category.is_default)?.id ?? '');
  const actions = actionsFor(post?.status ?? null, post?.queued ?? false);

  // Keep the form locally while it differs from the saved post; drop the copy once they match again.
  useEffect(() => {
    if (busy) return;
    const timer = setTimeout(() => {
      if (leaveConfirmed.current) return;
      if (dirty) writeAutosave(localStorage, storageKey, form);
      else clearAutosave(localStorage, storageKey);
    }, AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [form, dirty, busy, storageKey]);

  // Leaving with unsaved changes asks first: in-app links open the editor's own dialog; closing or reloading
  // the tab gets the browser's leave prompt (the only one a page may show then; the autosave keeps the work).
  useEffect(() => {
    if (!dirty || busy) return;
    const guard = (event: BeforeUnloadEvent) => {
      if (!leaveConfirmed.current) event.preventDefault();
    };
    const intercept = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement) || event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target === '_blank') return;
      if (link.origin !== window.location.origin || link.hash && link.pathname === window.location.pathname) return;
      event.preventDefault();
      setLeavingTo(link.href);
    };
    window.addEventListener('beforeunload', guard);
    document.addEventListener('click', intercept, true);
    return () => {
      window.removeEventListener('beforeunload', guard);
      document.removeEventListener('click', intercept, true);
    };
  }, [dirty, busy]);

  const leave = useCallback((to: string) => {
    leaveConfirmed.current = true;
    window.location.assign(to);
  }, []);

  function update<K extends keyof PostForm>(key: K, value: PostForm[K]) {
    setForm((current) => ({ ...current, [key]: value }));
  }

  function addTag() {
    const tag = tagInput.trim();
    if (tag) update('tags', uniqueTags([...form.tags, tag]));
    setTagInput('');
  }

  function discardKept() {
    clearAutosave(localStorage, storageKey);
    setForm(initial);
    setRestoredAt(null);
  }

  async function run(action: PostAction) {
    setConfirming(null);
    if (!form.title.trim() || !form.source.trim()) {
      toast({ title: 'Validation Error', description: 'Title and content are required.', variant: 'destructive' });
      return;
    }
    const publication = publicationFor(action, post, form.scheduleAt, timeZone);
    if ('error' in publication) {
      setScheduleError(publication.error);
      return;
    }
    setScheduleError(null);
    const client = supabaseBrowser();
    const draft: PostDraft = {
      title: form.title,
      slug: form.slug || slugify(form.title),
      excerpt: form.excerpt,
      content_source: form.source,
      content_format: form.format,
      category_id: form.category_id,
      tags: form.tags,
      featured_image_url: form.featured_image_url,
      featured_media_id: form.featured_media?.id ?? null,
      meta_title: form.meta_title,
      meta_description: form.meta_description,
      ...publication,
    };
    setBusy(action);
    let saved: AdminPost;
    try {
      saved = await savePost(client, { id: post?.id, organizationId: access.organization.id, authorId: access.user.id }, draft);
    } catch (error) {
      const description = error instanceof PostSaveError && error.message ? error.message : SAVE_FAILED_MESSAGE;
      toast({ title: 'Error', description, variant: 'destructive' });
      setBusy(null);
      return;
    }
    clearAutosave(localStorage, storageKey);
    toastOnNextPage({ title: actionMessage(action, saved, timeZone) });
    leave(LIST_PATH);
  }

  const actionButton = (action: PostAction, variant: 'default' | 'outline' | 'destructive') => (
    <Button
      key={action}
      type={action === actions[0] ? 'submit' : 'button'}
      variant={variant}
      disabled={busy !== null}
      onClick={action === actions[0] ? undefined : () => (action === 'unpublish' ? setConfirming('unpublish') : void run(action))}
    >
      {busy === action ? ACTION_LABELS[action].busy : ACTION_LABELS[action].label}
    </Button>
  );

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run(actions[0]!);
      }}
    >
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-2xl font-bold">{post ? 'Edit Post' : 'Create New Post'}</h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => (dirty ? setLeavingTo(LIST_PATH) : leave(LIST_PATH))} disabled={busy !== null}>
            Cancel
          </Button>
          {actions.includes('save-draft') && actionButton('save-draft', 'outline')}
          {actions.includes('queue') && actionButton('queue', 'outline')}
          {actions.includes('publish') && actionButton('publish', 'default')}
          {actions.includes('unpublish') && actionButton('unpublish', 'outline')}
          {actions.includes('cancel-schedule') && actionButton('cancel-schedule', 'outline')}
          {actions.includes('unqueue') && actionButton('unqueue', 'outline')}
          {actions.includes('update') && actionButton('update', 'default')}
        </div>
      </div>
      {post?.queued && post.published_at && (
        <p role="status" className="mt-4 rounded-lg border border-border bg-muted p-3 text-sm">
          In the publishing queue: goes out {formatPublicationTime(post.published_at, timeZone)}.{' '}
          <a className="underline" href="/admin/blog/queue">
            Reorder in the queue
          </a>
        </p>
      )}
      {post?.duplicate_of && <DuplicateMark post={post} />}
      {restoredAt && (
        <div role="status" className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border border-border bg-muted p-3 text-sm">
          <span>Restored your unsaved changes from {formatPublicationTime(restoredAt, timeZone)}.</span>
          <Button variant="outline" size="sm" onClick={discardKept}>
            Discard changes
          </Button>
        </div>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <div className="space-y-4">
          <Field label="Title *">
            {(field) => (
              <Input
                {...field}
                value={form.title}
                required
                onChange={(event) => {
                  const title = event.target.value;
                  setForm((current) => ({ ...current, title, slug: slugTouched ? current.slug : slugify(title) }));
                }}
              />
            )}
          </Field>
          <Field label="URL Slug" hint="Created from the title; lower-case words joined by hyphens.">
            {(field) => (
              <Input
                {...field}
                value={form.slug}
                onChange={(event) => {
                  setSlugTouched(event.target.value !== '');
                  update('slug', event.target.value);
                }}
                onBlur={() => form.slug && update('slug', slugify(form.slug))}
              />
            )}
          </Field>
          <Field label="Excerpt">
            {(field) => <Textarea {...field} rows={3} value={form.excerpt} onChange={(event) => update('excerpt', event.target.value)} />}
          </Field>
          <Field label="Content format">
            {(field) => (
              <Select
                {...field}
                className="w-full"
                options={FORMAT_OPTIONS}
                value={form.format}
                onChange={(event) => update('format', event.target.value as ContentFormat)}
              />
            )}
          </Field>
          <Field label="Content *" hint={CONTENT_HINTS[form.format]}>
            {(field) => (
              <Textarea
                {...field}
                rows={15}
                className="font-mono"
                value={form.source}
                required
                onChange={(event) => update('source', event.target.value)}
              />
            )}
          </Field>
          <Field label="Category">
            {(field) => (
              <Select
                {...field}
                className="w-full"
                options={categoryOptions}
                value={categoryId}
                onChange={(event) => update('category_id', event.target.value)}
              />
            )}
          </Field>
          <Field label="Tags" hint="Type a tag and press Enter; click a tag to remove it.">
            {(field) => (
              <Input
                {...field}
                value={tagInput}
                onChange={(event) => setTagInput(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter') {
                    event.preventDefault();
                    addTag();
                  }
                }}
              />
            )}
          </Field>
          {form.tags.length > 0 && (
            <ul className="flex flex-wrap gap-2" aria-label="Tags">
              {form.tags.map((tag) => (
                <li key={tag}>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Remove tag ${tag}`}
                    onClick={() => update('tags', form.tags.filter((t) => t !== tag))}
                  >
                    {tag} ×
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <FeaturedImageField
            organizationId={access.organization.id}
            media={form.featured_media}
            legacyUrl={form.featured_image_url}
            onChoose={(media) => setForm((current) => ({ ...current, featured_media: media, featured_image_url: '' }))}
            onRemove={() => setForm((current) => ({ ...current, featured_media: null, featured_image_url: '' }))}
          />
          <fieldset className="space-y-4 rounded-lg border border-border p-4">
            <legend className="px-1 font-semibold">SEO Settings</legend>
            <Field label="Meta Title" hint={`${form.meta_title.length}/${META_TITLE_GUIDE} characters`}>
              {(field) => <Input {...field} value={form.meta_title} onChange={(event) => update('meta_title', event.target.value)} />}
            </Field>
            <Field label="Meta Description" hint={`${form.meta_description.length}/${META_DESCRIPTION_GUIDE} characters`}>
              {(field) => (
                <Textarea {...field} rows={3} value={form.meta_description} onChange={(event) => update('meta_description', event.target.value)} />
              )}
            </Field>
          </fieldset>
          {(actions.includes('schedule') || actions.includes('reschedule')) && (
            <fieldset className="space-y-2 rounded-lg border border-border p-4">
              <legend className="px-1 font-semibold">Schedule</legend>
              <Field label="Publish at" hint={`${timeZone} time (${timeZoneLabel(timeZone)})`} error={scheduleError ?? undefined}>
                {(field) => <Input {...field} type="datetime-local" value={form.scheduleAt} onChange={(event) => update('scheduleAt', event.target.value)} />}
              </Field>
              {actionButton(actions.includes('schedule') ? 'schedule' : 'reschedule', 'outline')}
            </fieldset>
          )}
          {post && <RevisionHistory post={post} dirty={dirty} onRestored={() => {
                clearAutosave(localStorage, storageKey);
                leave(window.location.href);
              }} />}
        </div>
        <Card aria-labelledby="preview-heading">
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
            authorName={post?.author?.full_name ?? (access.user.user_metadata?.full_name as string | undefined) ?? null}
            date={post?.published_at ?? post?.created_at ?? null}
          />
        </Card>
      </div>
      <ConfirmDialog
        open={leavingTo !== null}
        title="Unsaved changes"
        description="You have unsaved changes. Leave without saving? They stay in this browser until you discard them."
        confirmLabel="Leave"
        destructive
        onConfirm={() => leave(leavingTo ?? LIST_PATH)}
        onCancel={() => setLeavingTo(null)}
      />
      <ConfirmDialog
        open={confirming === 'unpublish'}
        title="Unpublish this post?"
        description="It leaves the site at the next build and stays here as a draft. You can publish it again at any time."
        confirmLabel="Unpublish"
        destructive
        onConfirm={() => void run('unpublish')}
        onCancel={() => setConfirming(null)}
      />
    </form>
  );
}
