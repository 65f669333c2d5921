/**
 * Blog posts as the back office manages them: the paginated, searchable list, one post, saving (validate,
 * shape, write: each step its own function) and deleting. Everything runs under the signed-in user's own
 * session, so RLS decides what they may do (viewers read, editors write, editors delete only their own
 * posts, admins delete any), and the database logs every change and records the site rebuild a visible
 * change needs, in the same transaction.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { type ContentFormat, type PostInput, PostInputSchema, type PostStatus } from '../../schemas/post.ts';
import { ilikePattern } from '../ilike-pattern.ts';
import { sendDueRebuilds } from './site-builds.ts';
import { type PostContent, shapePostContent } from '../post-content.ts';

/** Posts per list page. */
export const POSTS_PAGE_SIZE = 12;

/** The list's status filter: one status, all (the trash apart), or the trash. */
export type StatusFilter = PostStatus | 'all' | 'trash';

/** A post as the list and the editor read it, with its author's name and category. */
export interface AdminPost {
  id: string;
  organization_id: string;
  title: string;
  slug: string;
  excerpt: string | null;
  content: string;
  content_source: string;
  content_format: ContentFormat;
  status: PostStatus;
  category_id: string | null;
  tags: string[] | null;
  /** A legacy featured image address (saved before the Media Library); null once a library image is chosen. */
  featured_image_url: string | null;
  featured_media_id: string | null;
  /** The featured image from the Media Library, embedded through featured_media_id. */
  featured_media: FeaturedMedia | null;
  meta_title: string | null;
  meta_description: string | null;
  author_id: string | null;
  published_at: string | null;
  /** Waiting in the publishing queue: scheduled, published_at is its slot. */
  queued: boolean;
  /** The post a writing-tool delivery likely repeats ("Possible duplicate of"), until an editor dismisses it. */
  duplicate_of: string | null;
  /** Shown first on the blog's first page. */
  sticky: boolean;
  /** When the post was moved to the trash (a draft until restored or deleted), else null. */
  trashed_at: string | null;
  created_at: string;
  updated_at: string;
  reading_time: number | null;
  view_count: number;
  author: { full_name: string | null } | null;
  category: { name: string } | null;
  /**
   * The list only: one of the post's revisions that arrived from outside (source 'webhook': the writing tool's
   * webhook, or a publishing tool through the WordPress API, whose application password is the `sender`), if any;
   * the revision history is the record of who wrote a post, so this is what marks a delivered post.
   */
  deliveries?: { source: string; sender: string | null }[];
}

/**
 * Who sent a post that arrived from outside, as blog management labels it: the application password's name for
 * a publishing tool (with its member, the post's author), else ZimmWriter, the writing tool's webhook.
 */
export function arrivalSender(post: Pick<AdminPost, 'deliveries' | 'author'>): { label: string; title: string } | null {
  const delivery = post.deliveries?.[0];
  if (!delivery) return null;
  if (!delivery.sender) return { label: 'ZimmWriter', title: 'Delivered by ZimmWriter, the writing tool' };
  const member = post.author?.full_name?.trim();
  return { label: delivery.sender, title: `Sent by a publishing tool with the application password "${delivery.sender}"${member ? ` of ${member}` : ''}` };
}

/** What the editor shows of a post's featured image from the Media Library. */
export interface FeaturedMedia {
  id: string;
  storage_path: string;
  alt_text: string;
  width: number | null;
  height: number | null;
}

const POST_COLUMNS =
  'id, organization_id, title, slug, excerpt, content, content_source, content_format, status, category_id, tags, ' +
  'featured_image_url, featured_media_id, meta_title, meta_description, author_id, published_at, queued, duplicate_of, sticky, trashed_at, created_at, updated_at, reading_time, view_count, ' +
  'author:profiles(full_name), category:blog_categories(name), featured_media:media(id, storage_path, alt_text, width, height)';

/** The message shown when a slug is already used by another post of the organization. */
export const SLUG_TAKEN_MESSAGE = 'This URL slug is already used by another post. Please choose a different slug.';

/** The message when saving fails without a server message. */
export const SAVE_FAILED_MESSAGE = 'Failed to save post. Please try again.';

/** True when visitors can see the post now (published with a publication time in the past). */
export function isPublicPost(post: Pick<AdminPost, 'status' | 'published_at'>, now: Date = new Date()): boolean {
  return post.status === 'published' && post.published_at !== null && new Date(post.published_at) <= now;
}

/** One page of an organization's posts, newest first, filtered on the server; `total` counts all matches. */
export async function listPosts(
  client: SupabaseClient,
  options: { organizationId: string; search?: string; status?: StatusFilter; page?: number },
): Promise<{ posts: AdminPost[]; total: number }> {
  const page = Math.max(1, options.page ?? 1);
  let query = client
    .from('blog_posts')
    .select(`${POST_COLUMNS}, deliveries:blog_post_revisions(source, sender)`, { count: 'exact' })
    .eq('organization_id', options.organizationId)
    .eq('deliveries.source', 'webhook')
    .limit(1, { referencedTable: 'deliveries' });
  // Posts in the trash are listed only under the trash.
  query = options.status === 'trash' ? query.not('trashed_at', 'is', null) : query.is('trashed_at', null);
  if (options.status && options.status !== 'all' && options.status !== 'trash') query = query.eq('status', options.status);
  const term = options.search?.trim();
  if (term) {
    const pattern = ilikePattern(term);
    query = query.or(`title.ilike.${pattern},content.ilike.${pattern}`);
  }
  const from = (page - 1) * POSTS_PAGE_SIZE;
  const { data, error, count } = await query
    .order('created_at', { ascending: false })
    .order('id')
    .range(from, from + POSTS_PAGE_SIZE - 1);
  if (error) throw new Error(`Loading the posts failed: ${error.message}`);
  return { posts: (data ?? []) as unknown as AdminPost[], total: count ?? 0 };
}

/** One post of the organization by id, or null when it does not exist, is another organization's, or RLS hides it. */
export async function getPost(client: SupabaseClient, organizationId: string, id: string): Promise<AdminPost | null> {
  const { data, error } = await client.from('blog_posts').select(POST_COLUMNS).eq('organization_id', organizationId).eq('id', id).maybeSingle();
  if (error) throw new Error(`Loading post ${id} failed: ${error.message}`);
  return data as unknown as AdminPost | null;
}

/** What the editor sends to `savePost`: the form's fields, raw (validation happens here). */
export interface PostDraft {
  title: string;
  slug: string;
  excerpt: string;
  /** What the author wrote, in `content_format`. */
  content_source: string;
  content_format: ContentFormat;
  status: PostStatus;
  category_id: string;
  tags: string[];
  /** A legacy featured image address; ignored (cleared) when featured_media_id is set. */
  featured_image_url: string;
  /** The featured image chosen from the organization's Media Library, or null for none. */
  featured_media_id?: string | null;
  meta_title: string;
  meta_description: string;
  /** Shown first on the blog's first page. */
  sticky?: boolean;
  /**
   * ISO time: for published posts when they went live, for scheduled ones when they will. Absent for a post
   * joining or staying in the queue: the database keeps its slot.
   */
  published_at?: string | null;
  /** Join (or stay in) the publishing queue. */
  queued?: boolean;
}

/** A save refused before or by the database, with the message to show. */
export class PostSaveError extends Error {}

/** The message of a save refused because the post changed since the editor opened it. */
export const POST_CHANGED_MESSAGE = 'This post was changed elsewhere since you opened it. Load the latest version, then save again.';

/** A save refused because the post changed elsewhere since the version the editor opened: `current` is the post now. */
export class PostChangedError extends PostSaveError {
  constructor(readonly current: AdminPost) {
    super(POST_CHANGED_MESSAGE);
  }
}

/** The message shown when the content holds nothing that survives sanitizing. */
export const EMPTY_CONTENT_MESSAGE = 'The content has nothing left to show once unsafe markup is removed.';

/** A post row as written: the validated fields with the body shaped (source, HTML, reading time). */
export type PostRow = Omit<PostInput, 'published_at'> & PostContent & { published_at?: string | null };

/** Step 1 of a save: the draft's fields checked and normalized (empty optional fields become null). */
export function validatePost(draft: PostDraft): PostInput {
  const parsed = PostInputSchema.safeParse(draft);
  if (!parsed.success) throw new PostSaveError(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
}

/** Step 2: the body shaped as the webhook shapes it (post-content.ts): source kept, HTML and reading time derived. */
export async function shapePost(post: PostInput): Promise<PostRow> {
  const body = await shapePostContent(post.content_source, post.content_format);
  if (!body.content) throw new PostSaveError(EMPTY_CONTENT_MESSAGE);
  // A queued post sends no time: its slot is the database's.
  return { ...post, ...body, ...(post.queued ? { published_at: undefined } : { published_at: post.published_at ?? null }) };
}

/** Which post a save writes: a new one of the organization (no `id`), or `id` as of its version `updatedAt`. */
export interface PostTarget {
  id?: string;
  organizationId: string;
  authorId: string;
  /** The version the editor opened: the update applies only while the post is still at it. */
  updatedAt?: string;
}

/**
 * Step 3: creates (no `id`) or updates the organization's post under the user's session (RLS decides) and
 * returns it. An update given `updatedAt` writes only over that version: a post changed elsewhere meanwhile
 * throws PostChangedError with the post as it is now. A duplicate slug answers SLUG_TAKEN_MESSAGE; other
 * failures carry the server's message.
 */
export async function writePost(client: SupabaseClient, target: PostTarget, row: PostRow): Promise<AdminPost> {
  let query;
  if (target.id) {
    query = client.from('blog_posts').update(row).eq('id', target.id).eq('organization_id', target.organizationId);
    if (target.updatedAt) query = query.eq('updated_at', target.updatedAt);
  } else {
    query = client.from('blog_posts').insert({ ...row, organization_id: target.organizationId, author_id: target.authorId });
  }
  const { data, error } = await query.select(POST_COLUMNS).maybeSingle();
  if (error) throw new PostSaveError(error.code === '23505' ? SLUG_TAKEN_MESSAGE : error.message || SAVE_FAILED_MESSAGE);
  if (!data && target.id && target.updatedAt) {
    const current = await getPost(client, target.organizationId, target.id);
    if (current && current.updated_at !== target.updatedAt) throw new PostChangedError(current);
  }
  if (!data) throw new PostSaveError('You do not have permission to change this post.');
  return data as unknown as AdminPost;
}

/**
 * Validates, shapes and writes a post (steps 1 to 3), then asks for the site's due builds: the database
 * recorded the rebuild a visible change needs with the write, and this starts it now rather than at the
 * scheduler's next minute.
 */
export async function savePost(client: SupabaseClient, target: PostTarget, draft: PostDraft): Promise<AdminPost> {
  const saved = await writePost(client, target, await shapePost(validatePost(draft)));
  sendDueRebuilds(client, target.organizationId);
  return saved;
}

/** The post a possible duplicate repeats: its title and slug, or null when it is gone or not readable. */
export async function getDuplicateOriginal(client: SupabaseClient, id: string): Promise<{ id: string; title: string; slug: string } | null> {
  const { data, error } = await client.from('blog_posts').select('id, title, slug').eq('id', id).maybeSingle();
  if (error) throw new Error(`Loading post ${id} failed: ${error.message}`);
  return data as { id: string; title: string; slug: string } | null;
}

/** Dismisses a post's "Possible duplicate" mark (editors and admins; members may only clear it). */
export async function dismissDuplicateMark(client: SupabaseClient, post: Pick<AdminPost, 'id' | 'organization_id'>): Promise<void> {
  const { data, error } = await client.from('blog_posts').update({ duplicate_of: null }).eq('id', post.id).eq('organization_id', post.organization_id).select('id');
  if (error) throw new Error(`Dismissing the duplicate mark of ${post.id} failed: ${error.message}`);
  if (!data?.length) throw new Error('This post does not exist or you may not change it.');
}

/**
 * Takes a post out of the trash, as a draft (restore_trashed_post: who may delete it may restore it; the
 * database logs 'post_untrashed').
 */
export async function restorePost(client: SupabaseClient, post: Pick<AdminPost, 'id'>): Promise<void> {
  const { error } = await client.rpc('restore_trashed_post', { p_post_id: post.id });
  if (error) throw new Error(`Restoring post ${post.id} failed: ${error.message}`);
}

/**
 * Deletes a post (the database logs 'post_deleted'). RLS lets admins delete any post and editors only their
 * own; a refused delete removes no row, which is reported as an error instead of a silent success.
 */
export async function deletePost(client: SupabaseClient, post: Pick<AdminPost, 'id' | 'organization_id'>): Promise<void> {
  const { data, error } = await client.from('blog_posts').delete().eq('id', post.id).select('id');
  if (error) throw new Error(`Deleting post ${post.id} failed: ${error.message}`);
  if (!data || data.length === 0) throw new Error(`Post ${post.id} was not deleted: it does not exist or you may not delete it`);
  // A deleted live post leaves the site with the rebuild the database recorded: started now.
  sendDueRebuilds(client, post.organization_id);
}
