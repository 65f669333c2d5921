import { type AdminPost, getPost } from '../../lib/back-office/posts';
import { loadQueueSettings } from '../../lib/back-office/publishing-queue';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import BackOfficeShell from '../BackOfficeShell';
import { ErrorState } from '../components/ui/EmptyState';
import { Skeleton } from '../components/ui/Skeleton';
import type { BackOfficeAccess } from '../use-back-office-access';
import { useLoad } from '../use-load';
import PostPreview from './PostPreview';
import StatusBadge from './StatusBadge';

/**
 * /admin/blog/preview/{id}: a post of the managed organization rendered as its public page renders it (the same
 * PostArticle, in a column as wide as the post page's), for members only.
 */
export default function PostPreviewApp() {
  return <BackOfficeShell title="Blog Management">{(access) => <Preview access={access} />}</BackOfficeShell>;
}

function Preview({ access }: { access: BackOfficeAccess }) {
  const id = window.location.pathname.match(/^\/admin\/blog\/preview\/([0-9a-f-]{36})\/?$/i)?.[1] ?? null;
  const loaded = useLoad(
    async (): Promise<{ post: AdminPost | null; timeZone: string }> => {
      const [post, queue] = await Promise.all([id ? getPost(supabaseBrowser(), access.organization.id, id) : null, loadQueueSettings(supabaseBrowser(), access.organization.id)]);
      return { post, timeZone: queue.time_zone };
    },
    [id, access.organization.id],
  );
  const post = loaded.value?.post ?? null;
  return (
    <>
      <nav aria-label="Preview" className="mx-auto mb-6 flex max-w-[49.5rem] flex-wrap items-center gap-3 text-sm">
        <a href="/admin/blog" className="rounded-md border border-border px-3 py-2 font-medium hover:bg-muted">
          ← Back to posts
        </a>
        {post && access.canEdit && (
          <a href={`/admin/blog/edit/${post.id}`} className="rounded-md bg-primary px-3 py-2 font-medium text-primary-foreground hover:opacity-90">
            Edit
          </a>
        )}
      </nav>
      {loaded.state === 'error' ? (
        <ErrorState message="The post could not be loaded." onRetry={loaded.reload} />
      ) : loaded.state === 'ready' && !post ? (
        <ErrorState message="Post not found." />
      ) : !post ? (
        <Skeleton rows={4} label="Loading post..." />
      ) : (
        <div className="mx-auto max-w-[49.5rem]">
          <p className="mb-4 flex items-center gap-2 text-sm text-muted-foreground">
            Preview <StatusBadge status={post.status} />
          </p>
          <PostPreview
            title={post.title}
            excerpt={post.excerpt}
            html={post.content}
            featuredMedia={post.featured_media}
            featuredImageUrl={post.featured_image_url}
            categoryName={post.category?.name ?? null}
            tags={post.tags}
            authorName={post.author?.full_name ?? null}
            organizationName={access.organization.name}
            date={post.published_at ?? post.created_at}
            timeZone={loaded.value!.timeZone}
          />
        </div>
      )}
    </>
  );
}
