import { useEffect, useState } from 'react';
import { type AdminPost, getPost } from '../../lib/admin-posts';
import { supabaseBrowser } from '../../lib/supabase-browser';
import { ErrorState } from '../components/ui/EmptyState';
import { Skeleton } from '../components/ui/Skeleton';
import BlogShell from './BlogShell';
import PostBody from './PostBody';
import StatusBadge from './StatusBadge';

/** /admin/blog/preview/{id}: a draft or scheduled post rendered like its public page, for members only. */
export default function PostPreviewApp() {
  return <BlogShell>{() => <Preview />}</BlogShell>;
}

function Preview() {
  const id = window.location.pathname.match(/^\/admin\/blog\/preview\/([0-9a-f-]{36})\/?$/i)?.[1] ?? null;
  const [post, setPost] = useState<AdminPost | null>(null);
  const [error, setError] = useState<string | null>(id ? null : 'Post not found.');
  useEffect(() => {
    if (!id) return;
    getPost(supabaseBrowser(), id)
      .then((found) => (found ? setPost(found) : setError('Post not found.')))
      .catch((cause: Error) => setError(cause.message));
  }, [id]);
  if (error) return <ErrorState message={error} />;
  if (!post) return <Skeleton rows={4} label="Loading post..." />;
  return (
    <article className="mx-auto max-w-3xl">
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        Preview <StatusBadge status={post.status} />
      </p>
      <h1 className="mt-4 text-4xl font-bold">{post.title}</h1>
      {post.excerpt && <p className="mt-4 text-lg text-muted-foreground">{post.excerpt}</p>}
      <PostBody html={post.content} />
    </article>
  );
}
