import { useEffect, useMemo, useRef, useState } from 'react';
import {
  type AdminPost,
  getPost,
  isPublicPost,
  listCategories,
  type PostDraft,
  PostSaveError,
  renderPostContent,
  SAVE_FAILED_MESSAGE,
  savePost,
} from '../../lib/admin-posts';
import { requestSiteRebuild } from '../../lib/admin-functions';
import { slugify } from '../../lib/slug';
import { supabaseBrowser } from '../../lib/supabase-browser';
import type { PostStatus } from '../../schemas/post';
import { toast, toastOnNextPage } from '../../stores/toast';
import { Button } from '../components/ui/Button';
import { Card } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { ErrorState } from '../components/ui/EmptyState';
import { Field, Input, Textarea } from '../components/ui/Input';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import BackOfficeShell from '../BackOfficeShell';
import PostBody from './PostBody';
import type { BackOfficeAccess } from '../use-back-office-access';

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
  const [post, setPost] = useState<AdminPost | null | undefined>(postId ? undefined : null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!postId) return;
    getPost(supabaseBrowser(), access.organization.id, postId)
      .then((found) => (found ? setPost(found) : setError('Post not found.')))
      .catch((cause: Error) => {
        console.error(cause);
        setError('The post could not be loaded. Try again.');
      });
  }, [postId, access.organization.id]);
  if (error) return <ErrorState message={error} />;
  if (post === undefined) return <Skeleton rows={4} label="Loading post..." />;
  return <PostEditor access={access} post={post} />;
}

/** Local date-time input value (yyyy-MM-ddTHH:mm) of an ISO time. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

function PostEditor({ access, post }: { access: BackOfficeAccess; post: AdminPost | null }) {
  const initial = useMemo(
    () => ({
      title: post?.title ?? '',
      slug: post?.slug ?? '',
      excerpt: post?.excerpt ?? '',
      body: post?.content ?? '',
      category_id: post?.category_id ?? '',
      tags: post?.tags ?? [],
      featured_image_url: post?.featured_image_url ?? '',
      meta_title: post?.meta_title ?? '',
      meta_description: post?.meta_description ?? '',
      scheduleAt: post?.status === 'scheduled' ? toLocalInput(post.published_at) : '',
    }),
    [post],
  );
  const [form, setForm] = useState(initial);
  const [tagInput, setTagInput] = useState('');
  // The slug follows the title until the user edits it (or when editing a post, which keeps its URL).
  const [slugTouched, setSlugTouched] = useState(post !== null);
  const [categories, setCategories] = useState<{ id: string; name: string }[]>([]);
  const [busy, setBusy] = useState<PostStatus | null>(null);
  const [scheduleError, setScheduleError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);
  // Set once the user chose to leave without saving: the browser's own leave prompt must not ask again.
  const leaveConfirmed = useRef(false);
  const dirty = JSON.stringify(form) !== JSON.stringify(initial);
  const html = useMemo(() => renderPostContent(form.body), [form.body]);
  const categoryOptions = useMemo(
    () => [{ value: '', label: 'No category' }, ...categories.map((category) => ({ value: category.id, label: category.name }))],
    [categories],
  );

  useEffect(() => {
    listCategories(supabaseBrowser(), access.organization.id)
      .then(setCategories)
      .catch((error) => console.error(error));
  }, [access.organization.id]);

  useEffect(() => {
    if (!dirty || busy) return;
    const guard = (event: BeforeUnloadEvent) => {
      if (!leaveConfirmed.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', guard);
    return () => window.removeEventListener('beforeunload', guard);
  }, [dirty, busy]);

  function update<K extends keyof typeof form>(key: K, value: (typeof form)[K]) {
    setForm((current) => ({ ...current, [key]: value }));
  }

  function addTag() {
    const tag = tagInput.trim();
    if (tag && !form.tags.includes(tag)) update('tags', [...form.tags, tag]);
    setTagInput('');
  }

  async function save(status: PostStatus) {
    if (!form.title.trim() || !form.body.trim()) {
      toast({ title: 'Validation Error', description: 'Title and content are required.', variant: 'destructive' });
      return;
    }
    if (!access.organization.id) {
      toast({ title: 'Error', description: 'No organization selected.', variant: 'destructive' });
      return;
    }
    const client = supabaseBrowser();
    const { data: session } = await client.auth.getSession();
    if (!session.session) {
      toast({ title: 'Error', description: 'You must be logged in to create posts.', variant: 'destructive' });
      return;
    }
    let publishedAt: string | null = null;
    if (status === 'scheduled') {
      const when = form.scheduleAt ? new Date(form.scheduleAt) : null;
      if (!when || Number.isNaN(when.getTime()) || when <= new Date()) {
        setScheduleError('Choose a date and time in the future to schedule the post.');
        return;
      }
      publishedAt = when.toISOString();
    } else if (status === 'published') {
      publishedAt = post?.status === 'published' && post.published_at ? post.published_at : new Date().toISOString();
    }
    setScheduleError(null);
    const draft: PostDraft = {
      title: form.title,
      slug: form.slug || slugify(form.title),
      excerpt: form.excerpt,
      content: html,
      status,
      category_id: form.category_id,
      tags: form.tags,
      featured_image_url: form.featured_image_url,
      meta_title: form.meta_title,
      meta_description: form.meta_description,
      published_at: publishedAt,
    };
    setBusy(status);
    try {
      const saved = await savePost(client, { id: post?.id, organizationId: access.organization.id, authorId: access.user.id }, draft);
      if ((post && isPublicPost(post)) || isPublicPost(saved)) {
        await requestSiteRebuild(client, saved.organization_id, `Post ${post ? 'updated' : 'published'}: ${saved.slug}`).catch((error) =>
          console.error(error),
        );
      }
      toastOnNextPage({ title: status === 'published' ? 'Post published successfully!' : 'Post saved successfully!' });
      window.location.assign(LIST_PATH);
    } catch (error) {
      const description = error instanceof PostSaveError && error.message ? error.message : SAVE_FAILED_MESSAGE;
      toast({ title: 'Error', description, variant: 'destructive' });
      setBusy(null);
    }
  }

  function cancel() {
    if (dirty) setLeaving(true);
    else window.location.assign(LIST_PATH);
  }

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save('draft');
      }}
    >
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-2xl font-bold">{post ? 'Edit Post' : 'Create New Post'}</h2>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={cancel} disabled={busy !== null}>
            Cancel
          </Button>
          <Button type="submit" variant="outline" disabled={busy !== null}>
            {busy === 'draft' ? 'Saving...' : 'Save Draft'}
          </Button>
          <Button onClick={() => void save('published')} disabled={busy !== null}>
            {busy === 'published' ? 'Publishing...' : 'Publish'}
          </Button>
        </div>
      </div>

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
          <Field label="Content *" hint="Markdown (or HTML); the preview shows the published result.">
            {(field) => (
              <Textarea
                {...field}
                rows={15}
                className="font-mono"
                value={form.body}
                required
                onChange={(event) => update('body', event.target.value)}
              />
            )}
          </Field>
          <Field label="Category">
            {(field) => (
              <Select
                {...field}
                className="w-full"
                options={categoryOptions}
                value={form.category_id}
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
          <Field label="Featured Image URL">
            {(field) => (
              <Input {...field} type="url" value={form.featured_image_url} onChange={(event) => update('featured_image_url', event.target.value)} />
            )}
          </Field>
          {/^https?:\/\/\S+$/.test(form.featured_image_url) && (
            <img src={form.featured_image_url} alt="Featured image preview" className="max-h-48 rounded-md object-cover" />
          )}
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
          <fieldset className="space-y-2 rounded-lg border border-border p-4">
            <legend className="px-1 font-semibold">Schedule</legend>
            <Field label="Publish at" error={scheduleError ?? undefined}>
              {(field) => <Input {...field} type="datetime-local" value={form.scheduleAt} onChange={(event) => update('scheduleAt', event.target.value)} />}
            </Field>
            <Button variant="outline" onClick={() => void save('scheduled')} disabled={busy !== null}>
              {busy === 'scheduled' ? 'Scheduling...' : 'Schedule'}
            </Button>
          </fieldset>
        </div>
        <Card aria-labelledby="preview-heading">
          <h3 id="preview-heading" className="font-semibold text-muted-foreground">
            Preview
          </h3>
          <h1 className="mt-4 text-3xl font-bold">{form.title || 'Untitled'}</h1>
          <PostBody html={html} />
        </Card>
      </div>
      <ConfirmDialog
        open={leaving}
        title="Unsaved changes"
        description="You have unsaved changes. Leave without saving?"
        confirmLabel="Leave"
        destructive
        onConfirm={() => {
          leaveConfirmed.current = true;
          window.location.assign(LIST_PATH);
        }}
        onCancel={() => setLeaving(false)}
      />
    </form>
  );
}
