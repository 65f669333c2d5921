import { categoryPath, postPath, tagPath } from '../../lib/blog-urls';
import { IMAGE_SIZES } from '../../lib/images';
import { CARD_TAG_LIMIT, formatPostDate, type PostCardData } from '../../lib/post-display';
import PostPicture from './PostPicture';

interface Props {
  post: PostCardData;
  /** Heading level of the title: h2 in a list under the page's h1 and section h2 would be h3. */
  headingLevel?: 'h2' | 'h3';
}

/**
 * A post card: image, category, date, read time, title, excerpt, author and at most 3 tags. A React
 * component without state, so list pages render it to static HTML (no JavaScript) and the search island
 * renders the very same card for its results.
 */
export default function PostCard({ post, headingLevel: Heading = 'h3' }: Props) {
  const href = postPath(post.slug);
  return (
    <article className="flex flex-col overflow-hidden rounded-2xl border border-border bg-background shadow-sm transition hover:shadow-lg">
      <a href={href} tabIndex={-1} aria-hidden="true">
        <PostPicture picture={post.picture} alt={post.picture ? post.imageAlt : ''} sizes={IMAGE_SIZES.card} width={800} height={450} className="aspect-video h-auto w-full bg-muted object-cover" />
      </a>
      <div className="flex flex-1 flex-col p-6">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
          {post.categoryName === null ? null : post.categorySlug ? (
            <a href={categoryPath(post.categorySlug)} className="rounded-full bg-primary/10 px-3 py-1 font-semibold text-primary hover:underline">
              {post.categoryName}
            </a>
          ) : (
            <span className="rounded-full bg-muted px-3 py-1 font-semibold">{post.categoryName}</span>
          )}
          <time dateTime={post.date}>{formatPostDate(post.date, post.timeZone)}</time>
          <span>{post.readTime} min read</span>
        </div>
        <Heading className="mt-3 text-xl font-bold">
          <a href={href} className="hover:text-primary hover:underline">{post.title}</a>
        </Heading>
        <p className="mt-2 flex-1 text-muted-foreground">{post.excerpt}</p>
        <p className="mt-4 text-sm font-medium">By {post.authorName}</p>
        {post.tags.length > 0 && (
          <ul className="mt-3 flex flex-wrap gap-2" aria-label="Tags">
            {post.tags.slice(0, CARD_TAG_LIMIT).map((tag) => (
              <li key={tag}>
                <a href={tagPath(tag)} className="rounded-full border border-border px-2.5 py-0.5 text-xs hover:bg-muted">{tag}</a>
              </li>
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}
