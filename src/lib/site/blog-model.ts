/**
 * The blog as the site shows it: the display shapes (posts, categories, authors, redirects), the mapping of the
 * database's rows to them with their defaults (every body sanitized again with the project's one sanitizer),
 * and the per-build index that answers a category's posts, a tag's posts and the tag list. Pure: posts.ts reads
 * the rows, this module makes the blog of them.
 */
import type { AuthorRow, BlogRows, CategoryRow, PostRow } from '../../schemas/blog.ts';
import { tagSlug } from '../blog-urls.ts';
import type { Organization } from '../host-match.ts';
import { DEFAULT_TIME_ZONE } from '../../schemas/publishing-queue.ts';
import { creditedName, PLACEHOLDER_IMAGE, postPageTitle, type PostCardData, UNCATEGORIZED } from '../post-display.ts';
import { readingTimeMinutes } from '../reading-time.ts';
import { ledeOf, postExcerpt } from '../excerpt.ts';
import { sanitizeArticleHtml } from '../sanitize-html.ts';

export interface BlogCategory {
  id: string;
  name: string;
  slug: string;
  description: string | null;
}

/** Who a post is credited to: a member's author card, or the organization itself (creditedName's rule). */
export interface BlogAuthor {
  /** 'organization' for a post without a named author: structured data then says Organization, not Person. */
  kind: 'person' | 'organization';
  name: string;
  title: string | null;
  bio: string | null;
  avatarUrl: string | null;
  website: string | null;
}

/** A published post as pages show it. */
export interface BlogPost {
  id: string;
  /** The organization's time zone: its date is shown in it (a post at 11:12 PM in New York is dated that day). */
  timeZone: string;
  slug: string;
  title: string;
  /** The post's excerpt, else the automatic one from its running text (excerpt.ts). */
  excerpt: string;
  /** The summary under the title: a hand-written excerpt the body does not begin with, else null (excerpt.ts). */
  lede: string | null;
  /** Sanitized article HTML. */
  html: string;
  categoryId: string | null;
  category: BlogCategory | null;
  /**
   * The category's name; 'Uncategorized' for a post without one; null while its category waits for an editor's
   * review (visitors see no category rather than a wrong one, and the post is in no category's list).
   */
  categoryName: string | null;
  author: BlogAuthor;
  /** Tags that can have a page (at least one letter or digit), in the post's order. */
  tags: string[];
  /** The featured image (Media Library, else a legacy address) with its alt text and size when known. */
  featuredImage: FeaturedImage | null;
  /** Featured image URL, or the local placeholder. */
  image: string;
  hasFeaturedImage: boolean;
  readTime: number;
  /** ISO date shown on the post: published_at, else created_at. */
  date: string;
  /** ISO time of the last edit (sitemap, Article JSON-LD). */
  updatedAt: string;
  /** The page's title for search engines and link previews (postPageTitle: the site's name never twice). */
  metaTitle: string;
  /** The description for search engines and link previews: the SEO description, else the excerpt. */
  metaDescription: string;
  /** Shown first on the blog's own list (WordPress's sticky posts). */
  sticky: boolean;
}

/** A post's featured image: where it is, its alt text, and its size in pixels when the library knows it. */
export interface FeaturedImage {
  url: string;
  /** The Media Library's alt text; empty when nobody wrote one. */
  alt: string;
  width: number | null;
  height: number | null;
}

/** A post's former slug and the slug it moved to. */
export interface BlogRedirect {
  oldSlug: string;
  slug: string;
}

/** One organization's public blog. */
export interface Blog {
  organization: Organization;
  /** Newest first. */
  posts: BlogPost[];
  /**
   * The blog's own list (/blog and its pages): the sticky posts first, newest first among them, then the others;
   * category and tag pages, the feed and the sitemap keep `posts`' order, as WordPress keeps sticky posts to its
   * front page.
   */
  listed: BlogPost[];
  /**
   * The categories visitors are offered (pills, sidebar, category pages, sitemap), by name: those with at least
   * one published post. A category still waiting for review is not read at all (readBlogRows): its posts show
   * no category (and are in no category's list) until an editor approves it.
   */
  categories: BlogCategory[];
  redirects: BlogRedirect[];
  /** Old slugs of renamed or merged categories and the category slug each now leads to. */
  categoryRedirects: BlogRedirect[];
}

/** A tag with its page slug and how many posts carry it. */
export interface TagSummary {
  name: string;
  slug: string;
  count: number;
}

export function toBlogCategory(row: CategoryRow): BlogCategory {
  return { id: row.id, name: row.name, slug: row.slug, description: row.description };
}

/**
 * The author card: the member's, or for a post without a named author (no profile, or a nameless one) the
 * organization's, with what its settings say about it (the blog's description; its site's address).
 */
export function toBlogAuthor(row: AuthorRow | undefined, organization: Organization): BlogAuthor {
  if (row?.full_name?.trim()) {
    return {
      kind: 'person',
      name: creditedName(row.full_name, organization.name),
      title: row.author_title ?? null,
      bio: row.bio ?? null,
      avatarUrl: row.avatar_url ?? null,
      website: row.author_website ?? null,
    };
  }
  return {
    kind: 'organization',
    name: creditedName(null, organization.name),
    title: null,
    bio: organization.settings.blog_description ?? null,
    avatarUrl: null,
    website: organization.domain ? `https://${organization.domain}` : null,
  };
}

/** A post row with its category and author looked up, the defaults applied and the body sanitized. */
export function toBlogPost(
  row: PostRow,
  categories: ReadonlyMap<string, BlogCategory>,
  authors: ReadonlyMap<string, AuthorRow>,
  organization: Organization,
  timeZone: string = DEFAULT_TIME_ZONE,
): BlogPost {
  const category = (row.category_id && categories.get(row.category_id)) || null;
  const html = sanitizeArticleHtml(row.content);
  const excerpt = postExcerpt(row.excerpt, html);
  const featuredImage = toFeaturedImage(row);
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    excerpt,
    lede: ledeOf(row.excerpt, html),
    html,
    categoryId: category?.id ?? null,
    category,
    categoryName: category?.name ?? (row.category_id ? null : UNCATEGORIZED),
    author: toBlogAuthor(row.author_id ? authors.get(row.author_id) : undefined, organization),
    tags: (row.tags ?? []).filter((tag) => tagSlug(tag) !== ''),
    featuredImage,
    image: featuredImage?.url ?? PLACEHOLDER_IMAGE,
    hasFeaturedImage: featuredImage !== null,
    // Computed by the one rule (reading-time.ts) from the body the page shows, so every post, also one saved
    // before the rule was shared, reads the same figure here, in the editor's preview and in the admin preview.
    readTime: readingTimeMinutes(html),
    date: new Date(row.published_at ?? row.created_at).toISOString(),
    timeZone,
    updatedAt: new Date(row.updated_at).toISOString(),
    metaTitle: postPageTitle(row.title, row.meta_title, organization.name),
    metaDescription: row.meta_description?.trim() || excerpt,
    sticky: row.sticky,
  };
}

/** The library's image with its alt text, else a legacy address (no alt text: nobody wrote one). */
export function toFeaturedImage(row: Pick<PostRow, 'featured_media' | 'featured_image_url'>): FeaturedImage | null {
  const media = row.featured_media;
  if (media) return { url: media.url, alt: media.alt_text.trim(), width: media.width, height: media.height };
  return row.featured_image_url ? { url: row.featured_image_url, alt: '', width: null, height: null } : null;
}

/** The rows of one organization's blog as display shapes: posts newest first, redirects to live posts only. */
export function toBlog(rows: BlogRows): Blog {
  const allCategories = rows.categories.map(toBlogCategory).sort((a, b) => a.name.localeCompare(b.name));
  const categoryById = new Map(allCategories.map((category) => [category.id, category]));
  const authorById = new Map(rows.authors.map((author) => [author.id, author]));
  const posts = rows.posts
    .map((row) => toBlogPost(row, categoryById, authorById, rows.organization, rows.time_zone))
    .sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  // An empty category is a dead end ("Uncategorized 0"): not offered, no page built.
  const used = new Set(posts.flatMap((post) => (post.category ? [post.category.id] : [])));
  const categories = allCategories.filter((category) => used.has(category.id));
  const slugById = new Map(posts.map((post) => [post.id, post.slug]));
  const liveSlugs = new Set(slugById.values());
  const redirects = rows.redirects.flatMap(({ old_slug, post_id }) => {
    const slug = slugById.get(post_id);
    return slug && !liveSlugs.has(old_slug) ? [{ oldSlug: old_slug, slug }] : [];
  });
  const categorySlugById = new Map(categories.map((category) => [category.id, category.slug]));
  const liveCategorySlugs = new Set(categorySlugById.values());
  const categoryRedirects = rows.category_redirects.flatMap(({ old_slug, category_id }) => {
    const slug = categorySlugById.get(category_id);
    return slug && !liveCategorySlugs.has(old_slug) ? [{ oldSlug: old_slug, slug }] : [];
  });
  const listed = [...posts.filter((post) => post.sticky), ...posts.filter((post) => !post.sticky)];
  return { organization: rows.organization, posts, listed, categories, redirects, categoryRedirects };
}

/** The card fields of a post. */
export function toPostCardData(post: BlogPost): PostCardData {
  return {
    slug: post.slug,
    title: post.title,
    excerpt: post.excerpt,
    image: post.image,
    hasFeaturedImage: post.hasFeaturedImage,
    imageAlt: post.featuredImage?.alt ?? '',
    categoryName: post.categoryName,
    categorySlug: post.category?.slug ?? null,
    date: post.date,
    timeZone: post.timeZone,
    readTime: post.readTime,
    authorName: post.author.name,
    tags: post.tags,
  };
}

/**
 * What the pages ask about the whole blog (a category's posts, a tag's posts, the tag list), computed in one
 * pass the first time a list of posts is asked about and kept while that array lives, so a page pays a lookup,
 * not a pass over every post (at 10,000 posts a pass per page made the build quadratic). Lists of posts are
 * never changed once built; the answers are shared, so callers do not change them either.
 */
interface PostsIndex {
  byCategory: Map<string, BlogPost[]>;
  byTag: Map<string, BlogPost[]>;
  tags: TagSummary[];
}

const postsIndexes = new WeakMap<readonly BlogPost[], PostsIndex>();

function postsIndex(posts: readonly BlogPost[]): PostsIndex {
  let index = postsIndexes.get(posts);
  if (index) return index;
  const byCategory = new Map<string, BlogPost[]>();
  const byTag = new Map<string, BlogPost[]>();
  const summaries = new Map<string, TagSummary>();
  for (const post of posts) {
    if (post.category) append(byCategory, post.category.slug, post);
    const seen = new Set<string>();
    for (const tag of post.tags) {
      const slug = tagSlug(tag);
      if (seen.has(slug)) continue;
      seen.add(slug);
      append(byTag, slug, post);
      // The first spelling seen names the tag.
      const summary = summaries.get(slug) ?? { name: tag, slug, count: 0 };
      summary.count += 1;
      summaries.set(slug, summary);
    }
  }
  const tags = [...summaries.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
  index = { byCategory, byTag, tags };
  postsIndexes.set(posts, index);
  return index;
}

function append(map: Map<string, BlogPost[]>, key: string, post: BlogPost): void {
  const list = map.get(key);
  if (list) list.push(post);
  else map.set(key, [post]);
}

/** Posts of a category (by slug), in the order of `posts` (newest first for the blog's). */
export function postsInCategory(posts: readonly BlogPost[], categorySlug: string): readonly BlogPost[] {
  return postsIndex(posts).byCategory.get(categorySlug) ?? [];
}

/** Posts carrying a tag (by tag slug), in the order of `posts`. */
export function postsWithTag(posts: readonly BlogPost[], slug: string): readonly BlogPost[] {
  return postsIndex(posts).byTag.get(slug) ?? [];
}

/**
 * Every tag of the posts, one entry per tag slug (the first spelling seen names it), most used first,
 * then by name.
 */
export function tagSummaries(posts: readonly BlogPost[]): readonly TagSummary[] {
  return postsIndex(posts).tags;
}
