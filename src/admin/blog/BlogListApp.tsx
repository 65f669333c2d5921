import { useStore } from '@nanostores/react';
import { useState } from 'react';
import {
  type AdminPost,
  arrivalSender,
  deletePost,
  isPublicPost,
  listPosts,
  POSTS_PAGE_SIZE,
  restorePost,
  type StatusFilter,
} from '../../lib/back-office/posts';
import { describeDeployState, isPostLive } from '../../lib/back-office/deploy-status';
import { formatPublicationTime } from '../../lib/back-office/post-actions';
import { loadQueueSettings } from '../../lib/back-office/publishing-queue';
import { countWords } from '../../lib/back-office/count-words';
import { creditedName } from '../../lib/post-display';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $deployFacts } from '../stores/deploy-facts';
import { toast } from '../../stores/toast';
import { Badge } from '../components/ui/Badge';
import { Button, ButtonLink } from '../components/ui/Button';
import { Card } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Input } from '../components/ui/Input';
import { Select, type SelectOption } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import BackOfficeShell from '../BackOfficeShell';
import StatusBadge from './StatusBadge';
import type { BackOfficeAccess } from '../use-back-office-access';
import { useDebounced } from '../use-debounced';
import { useLoad } from '../use-load';

/** Wait after the last keystroke before searching, so typing does not send a request per letter. */
const SEARCH_DEBOUNCE_MS = 300;

const STATUS_OPTIONS: readonly SelectOption[] = [
  { value: 'all', label: 'All Status' },
  { value: 'published', label: 'Published' },
  { value: 'draft', label: 'Draft' },
  { value: 'scheduled', label: 'Scheduled' },
  { value: 'trash', label: 'Trash' },
];

/**
 * /admin/blog: the organization's posts, searchable, filterable and paginated (client-only island). Posts a
 * publishing tool moved to the trash are listed only under the Trash filter, where whoever may delete a post
 * restores it (as a draft) or deletes it for good.
 */
export default function BlogListApp() {
  return <BackOfficeShell title="Blog Management">{(access) => <BlogList access={access} />}</BackOfficeShell>;
}

function BlogList({ access }: { access: BackOfficeAccess }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<AdminPost | null>(null);

  const debounced = useDebounced(search, SEARCH_DEBOUNCE_MS);

  const list = useLoad(
    () => listPosts(supabaseBrowser(), { organizationId: access.organization.id, search: debounced, status, page }),
    [access.organization.id, debounced, status, page],
  );
  const result = list.value ?? null;
  // A scheduled post's card tells when it goes out as the editor does: in the organization's time zone.
  const timeZone = useLoad(async () => (await loadQueueSettings(supabaseBrowser(), access.organization.id)).time_zone, [access.organization.id]).value ?? null;
  const error = list.state === 'error' ? 'The posts could not be loaded.' : null;

  const filtering = debounced.trim() !== '' || status !== 'all';
  const pages = result ? Math.max(1, Math.ceil(result.total / POSTS_PAGE_SIZE)) : 1;

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-xl font-semibold">Posts</h2>
        <div className="flex flex-wrap gap-2">
          <ButtonLink href="/admin/blog/queue" variant="outline">
            Publishing Queue
          </ButtonLink>
          <ButtonLink href="/admin/blog/categories" variant="outline">
            Categories &amp; Tags
          </ButtonLink>
          {access.canEdit && <ButtonLink href="/admin/blog/new">New Post</ButtonLink>}
        </div>
      </div>
      <div className="mt-6 flex flex-wrap gap-3">
        <Input
          type="search"
          aria-label="Search posts"
          placeholder="Search posts..."
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
          className="max-w-md"
        />
        <Select
          aria-label="Filter by status"
          options={STATUS_OPTIONS}
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as StatusFilter);
            setPage(1);
          }}
        />
      </div>

      <section aria-label="Posts" aria-busy={!result && !error} className="mt-6">
        {error ? (
          <ErrorState message={error} onRetry={list.reload} />
        ) : !result ? (
          <Skeleton rows={3} label="Loading posts..." />
        ) : result.posts.length === 0 ? (
          <EmptyState
            title="No posts found"
            hint={
              status === 'trash'
                ? 'Posts a publishing tool moves to the trash wait here until they are restored or deleted.'
                : filtering
                  ? 'Try adjusting your search or filter criteria.'
                  : 'Get started by creating your first blog post.'
            }
            action={!filtering && access.canEdit ? <ButtonLink href="/admin/blog/new">Create First Post</ButtonLink> : undefined}
          />
        ) : (
          <>
            <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
              {result.posts.map((post) => (
                <PostCard key={post.id} post={post} access={access} timeZone={timeZone} onDelete={() => setDeleting(post)} onRestored={list.reload} />
              ))}
            </ul>
            {pages > 1 && (
              <nav aria-label="Pagination" className="mt-6 flex items-center justify-center gap-3">
                <Button variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </Button>
                <span className="text-sm">
                  Page {page} of {pages}
                </span>
                <Button variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next
                </Button>
              </nav>
            )}
          </>
        )}
      </section>
      {deleting && (
        <DeleteDialog
          post={deleting}
          onClose={(deleted) => {
            setDeleting(null);
            if (deleted) list.reload();
          }}
        />
      )}
    </>
  );
}

function PostCard({
  post,
  access,
  timeZone,
  onDelete,
  onRestored,
}: {
  post: AdminPost;
  access: BackOfficeAccess;
  timeZone: string | null;
  onDelete: () => void;
  onRestored: () => void;
}) {
  const [restoring, setRestoring] = useState(false);
  const deploy = useStore($deployFacts);
  const facts = deploy?.organizationId === post.organization_id ? deploy.facts : null;
  const live = isPostLive(post, facts);
  // A post waiting for a build that failed says so, with the reason; the header above has Retry.
  const site = facts && live === false && post.status === 'published' ? describeDeployState(facts) : null;
  const buildFailed = site?.retry ? site : null;
  const date = post.status === 'scheduled' && post.published_at && timeZone
    ? `Goes out ${formatPublicationTime(post.published_at, timeZone)}`
    : new Date(post.published_at ?? post.created_at).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
  const mayDelete = access.role === 'admin' || (access.canEdit && post.author_id === access.user.id);
  // The public page exists once a build with the post succeeded; until then View opens the preview.
  const viewHref = isPublicPost(post) && live !== false ? `/blog/${post.slug}` : `/admin/blog/preview/${post.id}`;
  const sender = arrivalSender(post);

  async function restore() {
    setRestoring(true);
    try {
      await restorePost(supabaseBrowser(), post);
      toast({ title: 'Post restored', description: `"${post.title}" is a draft again.` });
      onRestored();
    } catch (error) {
      console.error(error);
      toast({ title: 'The post could not be restored. Please try again.', variant: 'destructive' });
      setRestoring(false);
    }
  }

  return (
    <li data-testid="post-card">
      <Card className="flex h-full flex-col">
        <div className="flex items-start justify-between gap-3">
          <h3 className="font-semibold">{post.title}</h3>
          <div className="flex shrink-0 flex-col items-end gap-1">
            {post.trashed_at ? (
              <Badge variant="destructive" title="Moved to the trash by a publishing tool: nobody sees it on the site">
                In Trash
              </Badge>
            ) : (
              <StatusBadge status={post.status} />
            )}
            {post.sticky && !post.trashed_at && (
              <Badge variant="outline" title="Shown first on the blog's first page">
                Sticky
              </Badge>
            )}
            {post.queued && (
              <Badge variant="outline" title="Waiting in the publishing queue">
                Queued
              </Badge>
            )}
            {post.duplicate_of && (
              <Badge variant="warning" title={`${sender?.label ?? 'ZimmWriter'} sent it as a new article that repeats another post`}>
                Possible duplicate
              </Badge>
            )}
            {sender && (
              <Badge variant="info" data-testid="post-source" title={sender.title}>
                <span className="sr-only">Source: </span>
                {sender.label}
              </Badge>
            )}
            {live === true && (
              <Badge variant="success" data-testid="post-live">
                Live
              </Badge>
            )}
            {live === false && post.status === 'published' && !buildFailed && (
              <Badge variant="outline" data-testid="post-live" title="Published: visitors see it once the next build succeeds">
                Not live yet
              </Badge>
            )}
            {buildFailed && (
              <Badge variant="destructive" data-testid="post-live" title={`${buildFailed.title}: ${buildFailed.detail}`}>
                {buildFailed.title}
              </Badge>
            )}
          </div>
        </div>
        {post.excerpt && <p className="mt-2 line-clamp-2 text-sm text-muted-foreground">{post.excerpt}</p>}
        <dl className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
          <div>
            <dt className="sr-only">Date</dt>
            <dd>{date}</dd>
          </div>
          <div>
            <dt className="sr-only">Views</dt>
            <dd>{countWords(post.view_count, 'view')}</dd>
          </div>
          <div>
            <dt className="sr-only">Author</dt>
            <dd>By {creditedName(post.author?.full_name, access.organization.name)}</dd>
          </div>
        </dl>
        {post.category && (
          <Badge variant="outline" className="mt-3 w-fit">
            {post.category.name}
          </Badge>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          {access.canEdit && (
            <ButtonLink href={`/admin/blog/edit/${post.id}`} variant="outline" size="sm" aria-label={`Edit ${post.title}`}>
              Edit
            </ButtonLink>
          )}
          <ButtonLink
            href={viewHref}
            target="_blank"
            rel="noopener noreferrer"
            variant="outline"
            size="sm"
            aria-label={`View ${post.title} (opens in a new tab)`}
          >
            View
          </ButtonLink>
          {mayDelete && post.trashed_at && (
            <Button variant="outline" size="sm" disabled={restoring} onClick={() => void restore()} aria-label={`Restore ${post.title}`}>
              {restoring ? 'Restoring...' : 'Restore'}
            </Button>
          )}
          {mayDelete && (
            <Button variant="destructive" size="sm" onClick={onDelete} aria-label={`Delete ${post.title}`}>
              {post.trashed_at ? 'Delete Permanently' : 'Delete'}
            </Button>
          )}
        </div>
      </Card>
    </li>
  );
}

/** The delete confirmation: deletes and says so (the database records the rebuild a public post needs). */
function DeleteDialog({ post, onClose }: { post: AdminPost; onClose: (deleted: boolean) => void }) {
  const [busy, setBusy] = useState(false);

  async function confirm() {
    setBusy(true);
    const client = supabaseBrowser();
    try {
      await deletePost(client, post);
    } catch (error) {
      console.error(error);
      toast({ title: 'Failed to delete the post. Please try again.', variant: 'destructive' });
      setBusy(false);
      return;
    }
    toast({ title: 'Post deleted' });
    onClose(true);
  }

  return (
    <ConfirmDialog
      open
      title="Delete post"
      description="Are you sure you want to delete this post?"
      confirmLabel="Delete"
      busyLabel="Deleting..."
      busy={busy}
      destructive
      onConfirm={() => void confirm()}
      onCancel={() => onClose(false)}
    >
      <p className="text-sm text-muted-foreground">{post.title}</p>
    </ConfirmDialog>
  );
}
