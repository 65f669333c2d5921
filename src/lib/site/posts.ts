/**
 * The only place the site reads blog posts and categories. The build reads one organization's published
 * posts (status published, published_at passed: the anon RLS policy says the same, the query says it too),
 * their categories, authors and old-slug redirects (of posts and of categories), once per build, and makes the
 * blog of them (blog-model.ts: display shapes, defaults, the body sanitized again). An unreachable database
 * fails the build (see build-snapshot.ts for the BLOG_USE_SNAPSHOT fallback).
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
  type BlogRows,
  type PostRow,
} from '../../schemas/blog.ts';
import { DEFAULT_TIME_ZONE } from '../../schemas/publishing-queue.ts';
import { readWithSnapshot } from './build-snapshot.ts';
import type { Organization } from '../host-match.ts';
import { getSiteOrganization } from './organizations.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';
import { mediaPublicUrl } from '../media-library.ts';
import { type Blog, toBlog } from './blog-model.ts';

type Env = Record<string, string | undefined>;

/**
 * The post columns the build reads. The featured image is read apart, once per distinct image
 * (readFeaturedMedia), not embedded per post: an embed joins the image's row-level security check to every post,
 * and right after a bulk import, before Postgres has analyzed the table, the planner ran that check for every post
 * and every image of the library (10,000 posts: past the statement timeout).
 */
const POST_COLUMNS =
  'id, slug, title, excerpt, content, category_id, author_id, tags, featured_image_url, featured_media_id, meta_title, meta_description, published_at, created_at, updated_at, sticky';

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
  const [categoryResult, posts, redirectResult, categoryRedirectResult, queueResult] = await Promise.all([
    client.from('blog_categories').select('id, name, slug, description').eq('organization_id', organization.id).eq('needs_review', false),
    readPublishedPosts(client, url, organization.id, now.toISOString()),
    client.from('blog_post_redirects').select('old_slug, post_id').eq('organization_id', organization.id),
    client.from('blog_category_redirects').select('old_slug, category_id').eq('organization_id', organization.id),
    // The zone dates are shown in: the publishing queue's (anon reads only that column of it).
    client.from('publishing_queues').select('time_zone').eq('organization_id', organization.id),
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
    time_zone: check('time zone', url, queueResult)[0]?.time_zone ?? DEFAULT_TIME_ZONE,
  };
}

/** An organization without a database row (the synthetic fallback) has no blog: its lists are empty. */
function emptyBlogRows(organization: Organization): BlogRows {
  return { organization, categories: [], posts: [], authors: [], redirects: [], category_redirects: [], time_zone: DEFAULT_TIME_ZONE };
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
