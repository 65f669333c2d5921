import { useEffect, useRef, useState } from 'react';
import {
  type AdminPost,
  deletePost,
  isPublicPost,
  listPosts,
  POSTS_PAGE_SIZE,
  type StatusFilter,
} from '../../lib/admin-posts';
import { requestSiteRebuild } from '../../lib/admin-functions';
import { supabaseBrowser } from '../../lib/supabase-browser';
import { toast } from '../../stores/toast';
import BlogShell, { buttonClass, fieldClass } from './BlogShell';
import StatusBadge from './StatusBadge';
import type { BlogAccess } from './use-blog-access';

/** Wait after the last keystroke before searching, so typing does not send a request per letter. */
const SEARCH_DEBOUNCE_MS = 300;

/** /admin/blog: the organization's posts, searchable, filterable and paginated (client-only island). */
export default function BlogListApp() {
  return <BlogShell>{(access) => <BlogList access={access} />}</BlogShell>;
}

function BlogList({ access }: { access: BlogAccess }) {
  const [search, setSearch] = useState('');
  const [debounced, setDebounced] = useState('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  // What the last request answered, for which query; anything for another query reads as loading.
  const [loaded, setLoaded] = useState<{ key: string; result?: { posts: AdminPost[]; total: number }; error?: string } | null>(null);
  const [reload, setReload] = useState(0);
  const [deleting, setDeleting] = useState<AdminPost | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => {
      setDebounced(search);
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const key = JSON.stringify([access.organization.id, debounced, status, page, reload]);
  useEffect(() => {
    let stale = false;
    listPosts(supabaseBrowser(), { organizationId: access.organization.id, search: debounced, status, page })
      .then((result) => !stale && setLoaded({ key, result }))
      .catch((cause: Error) => !stale && setLoaded({ key, error: cause.message }));
    return () => {
      stale = true;
    };
  }, [key, access.organization.id, debounced, status, page]);
  const current = loaded?.key === key ? loaded : null;
  const result = current?.result ?? null;
  const error = current?.error ?? null;

  const filtering = debounced.trim() !== '' || status !== 'all';
  const pages = result ? Math.max(1, Math.ceil(result.total / POSTS_PAGE_SIZE)) : 1;

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-2xl font-bold">Blog Management</h2>
        {access.canEdit && (
          <a href="/admin/blog/new" className={buttonClass.primary}>
            New Post
          </a>
        )}
      </div>
      <div className="mt-6 flex flex-wrap gap-3">
        <input
          type="search"
          aria-label="Search posts"
          placeholder="Search posts..."
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          className={`${fieldClass} max-w-md`}
        />
        <select
          aria-label="Filter by status"
          value={status}
          onChange={(event) => {
            setStatus(event.target.value as StatusFilter);
            setPage(1);
          }}
          className={`${fieldClass} w-auto`}
        >
          <option value="all">All Status</option>
          <option value="published">Published</option>
          <option value="draft">Draft</option>
          <option value="scheduled">Scheduled</option>
        </select>
      </div>

      <section aria-label="Posts" aria-busy={!result && !error} className="mt-6">
        {error ? (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : !result ? (
          <p className="text-muted-foreground">Loading posts...</p>
        ) : result.posts.length === 0 ? (
          <div className="rounded-lg border border-dashed border-border p-10 text-center">
            <p className="text-lg font-semibold">No posts found</p>
            {filtering ? (
              <p className="mt-1 text-muted-foreground">Try adjusting your search or filter criteria.</p>
            ) : (
              <>
                <p className="mt-1 text-muted-foreground">Get started by creating your first blog post.</p>
                {access.canEdit && (
                  <a href="/admin/blog/new" className={`${buttonClass.primary} mt-4`}>
                    Create First Post
                  </a>
                )}
              </>
            )}
          </div>
        ) : (
          <>
            <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
              {result.posts.map((post) => (
                <PostCard key={post.id} post={post} access={access} onDelete={() => setDeleting(post)} />
              ))}
            </ul>
            {pages > 1 && (
              <nav aria-label="Pagination" className="mt-6 flex items-center justify-center gap-3">
                <button type="button" className={buttonClass.outline} disabled={page <= 1} onClick={() => setPage(page - 1)}>
                  Previous
                </button>
                <span className="text-sm">
                  Page {page} of {pages}
                </span>
                <button type="button" className={buttonClass.outline} disabled={page >= pages} onClick={() => setPage(page + 1)}>
                  Next
                </button>
              </nav>
            )}
          </>
        )}
      </section>
      {deleting && (
        <DeleteDialog
          post={deleting}
          access={access}
          onClose={(deleted) => {
            setDeleting(null);
            if (deleted) setReload((n) => n + 1);
          }}
        />
      )}
    </>
  );
}

function PostCard({ post, access, onDelete }: { post: AdminPost; access: BlogAccess; onDelete: () => void }) {
  const date = new Date(post.published_at ?? post.created_at).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
  const mayDelete = access.role === 'admin' || (access.canEdit && post.author_id === access.user.id);
  const viewHref = isPublicPost(post) ? `/blog/${post.slug}` : `/admin/blog/preview/${post.id}`;
  return (
    <li className="flex flex-col rounded-lg border border-border p-5" data-testid="post-card">
      <div className="flex items-start justify-between gap-3">
        <h3 className="font-semibold">{post.title}</h3>
        <StatusBadge status={post.status} />
      </div>
      {post.excerpt && <p className="mt-2 line-clamp-2 text-sm text-muted-foreground">{post.excerpt}</p>}
      <dl className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <div>
          <dt className="sr-only">Date</dt>
          <dd>{date}</dd>
        </div>
        <div>
          <dt className="sr-only">Views</dt>
          <dd>{post.view_count} views</dd>
        </div>
        <div>
          <dt className="sr-only">Author</dt>
          <dd>By {post.author?.full_name || 'Unknown'}</dd>
        </div>
      </dl>
      {post.category && <span className="mt-3 w-fit rounded-full border border-border px-2 py-0.5 text-xs">{post.category.name}</span>}
      <div className="mt-4 flex flex-wrap gap-2">
        {access.canEdit && (
          <a href={`/admin/blog/edit/${post.id}`} className={buttonClass.outline} aria-label={`Edit ${post.title}`}>
            Edit
          </a>
        )}
        <a href={viewHref} target="_blank" rel="noopener noreferrer" className={buttonClass.outline} aria-label={`View ${post.title} (opens in a new tab)`}>
          View
        </a>
        {mayDelete && (
          <button type="button" className={buttonClass.danger} onClick={onDelete} aria-label={`Delete ${post.title}`}>
            Delete
          </button>
        )}
      </div>
    </li>
  );
}

/** The delete confirmation (native dialog: focus moves in and returns, Escape cancels). */
function DeleteDialog({ post, access, onClose }: { post: AdminPost; access: BlogAccess; onClose: (deleted: boolean) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => ref.current?.showModal(), []);

  async function confirm() {
    setBusy(true);
    const client = supabaseBrowser();
    try {
      await deletePost(client, post, access.user.id);
    } catch (error) {
      console.error(error);
      toast({ title: 'Failed to delete the post. Please try again.', variant: 'destructive' });
      setBusy(false);
      return;
    }
    toast({ title: 'Post deleted' });
    if (isPublicPost(post)) {
      requestSiteRebuild(client, post.organization_id, `Post deleted: ${post.slug}`).catch((error) => console.error(error));
    }
    onClose(true);
  }

  return (
    <dialog
      ref={ref}
      aria-labelledby="delete-post-title"
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose(false);
      }}
      className="m-auto max-w-md rounded-lg border border-border bg-background p-6 text-foreground backdrop:bg-black/50"
    >
      <h2 id="delete-post-title" className="text-lg font-semibold">
        Delete post
      </h2>
      <p className="mt-2">Are you sure you want to delete this post?</p>
      <p className="mt-1 text-sm text-muted-foreground">{post.title}</p>
      <div className="mt-6 flex justify-end gap-2">
        <button type="button" className={buttonClass.outline} disabled={busy} onClick={() => onClose(false)}>
          Cancel
        </button>
        <button type="button" className={buttonClass.danger} disabled={busy} onClick={() => void confirm()}>
          {busy ? 'Deleting...' : 'Delete'}
        </button>
      </div>
    </dialog>
  );
}
