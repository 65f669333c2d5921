import type { PostCardData } from '../../lib/post-display';
import PostCard from './PostCard';

interface Props {
  posts: readonly PostCardData[];
}

/** The two-column grid of post cards, or the empty state when a view has no posts. */
export default function PostGrid({ posts }: Props) {
  if (posts.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-border px-6 py-16 text-center" data-empty-state>
        <p className="text-xl font-semibold">No articles found</p>
        <p className="mt-2 text-muted-foreground">Try adjusting your search or filter to find what you&apos;re looking for.</p>
      </div>
    );
  }
  return (
    <ul className="grid gap-6 md:grid-cols-2" data-post-grid>
      {posts.map((post) => (
        <li key={post.slug} className="flex">
          <PostCard post={post} />
        </li>
      ))}
    </ul>
  );
}
