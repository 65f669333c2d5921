/**
 * A post's revision history as the editor shows it: the newest revisions with who saved them and what
 * changed, and restoring one. The database writes revisions (a trigger on every save of title, content,
 * excerpt or SEO fields) and restores them (`restore_post_revision`, itself a new revision, logged
 * `post_restored`); members read them, editors and admins restore, as the post's own row-level security says.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { ContentFormat, PostStatus } from '../../schemas/post.ts';
import { formatPublicationTime } from './post-actions.ts';

/** How many revisions the editor lists (the database keeps the newest 50 per post). */
export const REVISIONS_SHOWN = 10;

/** One saved version of a post. */
export interface PostRevision {
  id: string;
  created_at: string;
  source: 'editor' | 'webhook' | 'restore' | 'system';
  restored_from: string | null;
  changed_fields: string[];
  title: string;
  content_format: ContentFormat;
  editor: { full_name: string | null; email: string } | null;
}

/** The newest revisions of a post, newest first. */
export async function listRevisions(client: SupabaseClient, postId: string, limit = REVISIONS_SHOWN): Promise<PostRevision[]> {
  const { data, error } = await client
    .from('blog_post_revisions')
    .select('id, created_at, source, restored_from, changed_fields, title, content_format, editor:profiles(full_name, email)')
    .eq('post_id', postId)
    .order('created_at', { ascending: false })
    .order('id', { ascending: false })
    .limit(limit);
  if (error) throw new Error(`Loading the revisions of post ${postId} failed: ${error.message}`);
  return (data ?? []) as unknown as PostRevision[];
}

/** What a revision holds that restoring puts back, for its preview. */
export interface RevisionContent {
  title: string;
  excerpt: string | null;
  content_source: string;
  content_format: ContentFormat;
}

/** The content of one revision (members read their organization's revisions; RLS decides). */
export async function getRevisionContent(client: SupabaseClient, revisionId: string): Promise<RevisionContent> {
  const { data, error } = await client
    .from('blog_post_revisions')
    .select('title, excerpt, content_source, content_format')
    .eq('id', revisionId)
    .maybeSingle();
  if (error) throw new Error(`Loading revision ${revisionId} failed: ${error.message}`);
  if (!data) throw new Error(`Revision ${revisionId} does not exist or may not be read`);
  return data as RevisionContent;
}

/**
 * What restoring does to the post, said before it happens: restoring saves at once, so a published post is
 * republished (visitors see the version after the next build), a scheduled one goes out with it at its
 * time, and a draft stays a draft.
 */
export function restoreConsequence(post: { status: PostStatus; published_at: string | null; queued?: boolean }, timeZone: string): string {
  const fields = 'The title, content, excerpt and SEO fields go back to this version and are saved at once';
  if (post.status === 'published') return `${fields}: the post is republished with them, and visitors see this version after the next site build.`;
  if (post.status === 'scheduled' && post.published_at) {
    const when = formatPublicationTime(post.published_at, timeZone);
    return `${fields}; the post stays ${post.queued ? 'in the publishing queue' : 'scheduled'} and goes out with this version on ${when}.`;
  }
  return `${fields} as the draft; nothing changes on the site until you publish.`;
}

/** Puts a revision back on its post; the message says why when the database refuses. */
export async function restoreRevision(client: SupabaseClient, revisionId: string): Promise<void> {
  const { error } = await client.rpc('restore_post_revision', { p_revision_id: revisionId });
  if (error) throw new Error(error.message || 'The revision could not be restored. Try again.');
}

/** Who saved a revision, as the history names them. */
export function revisionAuthor(revision: Pick<PostRevision, 'source' | 'editor'>): string {
  const name = revision.editor?.full_name?.trim() || revision.editor?.email;
  if (name) return name;
  return revision.source === 'webhook' ? 'ZimmWriter' : revision.source === 'system' ? 'The system' : 'A former member';
}

/** What a revision changed, in words ("Changed title, content"); a post's first version is "Created". */
export function revisionChanges(revision: Pick<PostRevision, 'source' | 'changed_fields'>): string {
  if (revision.source === 'restore') return 'Restored an earlier version';
  if (revision.changed_fields.length === 0) return 'Created';
  return `Changed ${revision.changed_fields.map((field) => field.replace(/_/g, ' ')).join(', ')}`;
}
