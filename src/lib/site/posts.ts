/**
 * The only place the site reads blog posts and categories. The build reads one organization's published
 * posts (status published, published_at passed: the anon RLS policy says the same, the query says it too),
 * their categories, authors and old-slug redirects (of posts and of categories); maps them to display shapes with their defaults;
 * and sanitizes every body again with the project's one sanitizer. An unreachable database fails the build
 * (see build-snapshot.ts for the BLOG_USE_SNAPSHOT fallback).
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { z } from '../../schemas/zod.ts';
import {
  AuthorRowSchema,
  BlogRowsSchema,
  CategoryRedirectRowSchema,
  CategoryRowSchema,
  PostRowSchema,
  RedirectRowSchema,
  type AuthorRow,
  type BlogRows,
  type CategoryRow,
  type PostRow,
} from '../../schemas/blog.ts';
import { readWithSnapshot } from './build-snapshot.ts';
import { tagSlug } from '../blog-urls.ts';
import type { Organization } from '../host-match.ts';
import { getSiteOrganization } from './organizations.ts';
import { creditedName, PLACEHOLDER_IMAGE, type PostCardData, UNCATEGORIZED } from '../post-display.ts';
import { readingTimeMinutes } from '../reading-time.ts';
import { ledeOf, postExcerpt } from '../excerpt.ts';
import { sanitizeArticleHtml } from '../sanitize-html.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';
import { mediaPublicUrl } from '../media-library.ts';

type Env = Record<string, string | undefined>;

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
  /** Title and description for search engines and link previews. */
  metaTitle: string;
  metaDescription: string;
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
    updatedAt: new Date(row.updated_at).toISOString(),
    metaTitle: row.meta_title?.trim() || row.title,
    metaDescription: row.meta_description?.trim() || excerpt,
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
    .map((row) => toBlogPost(row, categoryById, authorById, rows.organization))
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
  return { organization: rows.organization, posts, categories, redirects, categoryRedirects };
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

/**
 * The post columns the build reads. The featured image is read apart, once per distinct image
 * (readFeaturedMedia), not embedded per post: an embed joins the image's row-level security check to every post,
 * and right after a bulk import, before Postgres has analyzed the table, the planner ran that check for every post
 * and every image of the library (10,000 posts: past the statement timeout).
 */
const POST_COLUMNS =
  'id, slug, title, excerpt, content, category_id, author_id, tags, featured_image_url, featured_media_id, meta_title, meta_description, published_at, created_at, updated_at';

/** PostgREST's usual max-rows; the build pages through posts in steps of this size. */
const READ_BATCH = 1000;
/** Ids per `in.(...)` filter, so the request line stays short (an id is 36 characters). */
const IDS_PER_REQUEST = 100;

/** Throws a build-stopping error with where and what failed. */
function check<T>(what: string, url: string, result: { data: T | null; error: { message?: string; code?: string } | null }): T {
  if (result.error) throw new Error(`Cannot read ${what} from ${url}: ${result.error.message || result.error.code || 'unreachable'}`);
  return result.data as T;
}

function parseRows<T>(what: string, schema: z.ZodType<T>, rows: unknown): T[] {
  const parsed = z.array(schema).safeParse(rows);
  if (!parsed.success) throw new Error(`The ${what} read from the database do not match the expected shape: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

type ReadResult = PromiseLike<{ data: unknown[] | null; error: { message?: string; code?: string } | null }>;

/** The rows `read` returns for `ids`, asked IDS_PER_REQUEST at a time. */
async function readByIds(what: string, url: string, ids: readonly string[], read: (ids: string[]) => ReadResult): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  for (let from = 0; from < ids.length; from += IDS_PER_REQUEST) {
    rows.push(...(check(what, url, await read(ids.slice(from, from + IDS_PER_REQUEST))) as Record<string, unknown>[]));
  }
  return rows;
}

/** Featured images by id, each with its public URL; anon reads only those of published posts (RLS). */
async function readFeaturedMedia(client: SupabaseClient, url: string, ids: readonly string[]): Promise<Map<string, Record<string, unknown>>> {
  const rows = await readByIds('featured images', url, ids, (batch) => client.from('media').select('id, storage_path, alt_text, width, height').in('id', batch));
  return new Map(rows.map(({ id, storage_path, ...described }) => [String(id), { ...described, url: mediaPublicUrl(String(storage_path), url) }]));
}

async function readPublishedPosts(client: SupabaseClient, url: string, organizationId: string, now: string): Promise<PostRow[]> {
  const rows: Record<string, unknown>[] = [];
  for (let from = 0; ; from += READ_BATCH) {
    const result = await client
      .from('blog_posts')
      .select(POST_COLUMNS)
      .eq('organization_id', organizationId)
      .eq('status', 'published')
      .lte('published_at', now)
      .order('published_at', { ascending: false })
      .order('id')
      .range(from, from + READ_BATCH - 1);
    const batch = check('posts', url, result) as unknown as Record<string, unknown>[];
    rows.push(...batch);
    if (batch.length < READ_BATCH) break;
  }
  const mediaIds = [...new Set(rows.flatMap((row) => (typeof row.featured_media_id === 'string' ? [row.featured_media_id] : [])))];
  const media = await readFeaturedMedia(client, url, mediaIds);
  return parseRows('posts', PostRowSchema, rows.map(({ featured_media_id, ...row }) => ({ ...row, featured_media: media.get(String(featured_media_id)) ?? null })));
}

/** Reads an organization's public blog rows with the anon key, as a visitor could. */
export async function readBlogRows(organization: Organization, env: Env = process.env, now = new Date()): Promise<BlogRows> {
  const { url, anonKey } = publicSupabaseConfig(env);
  const client = createClient(url, anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const [categoryResult, posts, redirectResult, categoryRedirectResult] = await Promise.all([
    client.from('blog_categories').select('id, name, slug, description').eq('organization_id', organization.id).eq('needs_review', false),
    readPublishedPosts(client, url, organization.id, now.toISOString()),
    client.from('blog_post_redirects').select('old_slug, post_id').eq('organization_id', organization.id),
    client.from('blog_category_redirects').select('old_slug, category_id').eq('organization_id', organization.id),
  ]);
  const authorIds = [...new Set(posts.flatMap((post) => (post.author_id ? [post.author_id] : [])))];
  const authors = await readByIds('authors', url, authorIds, (batch) =>
    client.from('profiles').select('id, full_name, bio, avatar_url, author_title, author_website').in('id', batch),
  );
  return {
    organization,
    categories: parseRows('categories', CategoryRowSchema, check('categories', url, categoryResult)),
    posts,
    authors: parseRows('authors', AuthorRowSchema, authors),
    redirects: parseRows('redirects', RedirectRowSchema, check('redirects', url, redirectResult)),
    category_redirects: parseRows('category redirects', CategoryRedirectRowSchema, check('category redirects', url, categoryRedirectResult)),
  };
}

/** An organization without a database row (the synthetic fallback) has no blog: its lists are empty. */
function emptyBlogRows(organization: Organization): BlogRows {
  return { organization, categories: [], posts: [], authors: [], redirects: [], category_redirects: [] };
}

const SITE_BLOG = Symbol.for('scale-pro-site.blog');
/**
 * Where the blog is kept once read. In `astro build` the integrations (loaded with Astro's config) and the
 * prerendered pages (Astro's bundle) are two copies of this module in one process: the promise is kept on
 * globalThis, so the blog is read and prepared once per build, not twice (at 10,000 posts each read took seconds
 * and memory). Under `astro dev` it stays in this module: `npm run dev`'s local rebuild makes astro dev reload
 * the module to read the database afresh (netlify/local/dev-refresh.ts), and the integrations read nothing there.
 */
type BlogStore = { [SITE_BLOG]?: Promise<Blog> };
const blogStore: BlogStore = import.meta.env?.DEV ? {} : (globalThis as BlogStore);

/** The blog of the organization this build shows; read once per build (snapshot kept, see build-snapshot.ts). */
export function getBlog(env: Env = process.env): Promise<Blog> {
  blogStore[SITE_BLOG] ??= getSiteOrganization(env)
    .then((organization) =>
      organization.id === 'fallback'
        ? emptyBlogRows(organization)
        : readWithSnapshot(`blog-${organization.slug}`, BlogRowsSchema, () => readBlogRows(organization, env), env),
    )
    .then(toBlog);
  return blogStore[SITE_BLOG];
}
