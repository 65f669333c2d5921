/**
 * An open editor learning that its post changed elsewhere: the scheduler published it, another member or a
 * delivery edited it, the publishing queue moved its slot. The editor keeps the version it opened (the post's
 * `updated_at`, which every real change moves); it reads the post's version now and then, and a save over an
 * older version is refused (writePost's PostChangedError). This module reads the version and says in words
 * what changed, and who when the post's revisions tell.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { formatPublicationTime } from './post-actions.ts';
import type { AdminPost } from './posts.ts';
import type { PostRevision } from './post-revisions.ts';

/** How often an open editor reads its post's version (it also reads it when the window comes back into view). */
export const POST_VERSION_POLL_MS = 15_000;

/** What the editor compares: the post's version and its publication. */
export type PostVersion = Pick<AdminPost, 'updated_at' | 'status' | 'published_at' | 'queued'>;

/** The post's version now, or null when it is gone (deleted elsewhere) or no longer readable. */
export async function readPostVersion(client: SupabaseClient, postId: string): Promise<PostVersion | null> {
  const { data, error } = await client.from('blog_posts').select('updated_at, status, published_at, queued').eq('id', postId).maybeSingle();
  if (error) throw new Error(`Reading the version of post ${postId} failed: ${error.message}`);
  return data as PostVersion | null;
}

/** Who made a revision, as the notice names them; null for the server's own (source 'system'). */
function revisionAuthor(revision: Pick<PostRevision, 'source' | 'editor'>): string | null {
  if (revision.source === 'webhook') return 'The writing tool';
  if (revision.source === 'system') return null;
  return revision.editor?.full_name?.trim() || revision.editor?.email || 'Another member';
}

/**
 * How much later than the opened version a revision must be to record a change made after it: a revision is
 * written in the transaction of the change it records, at the clock's time, a moment after the version's.
 */
const REVISION_AFTER_VERSION_MS = 1_000;

/**
 * What changed between the version the editor opened and the post now, as one sentence: who (from `revision`,
 * the newest revision when it is newer than the opened version; the scheduler or the queue when the change is
 * theirs), then what ("published it", "moved it in the publishing queue to …", "edited it").
 */
export function describePostChange(
  opened: PostVersion,
  current: PostVersion,
  timeZone: string,
  revision: Pick<PostRevision, 'source' | 'editor' | 'created_at'> | null = null,
): string {
  const newer = revision && Date.parse(revision.created_at) > Date.parse(opened.updated_at) + REVISION_AFTER_VERSION_MS ? revision : null;
  const who = newer ? revisionAuthor(newer) : null;
  const at = (iso: string | null) => (iso ? formatPublicationTime(iso, timeZone) : '');
  if (opened.status === 'scheduled' && current.status === 'published' && !who && opened.published_at === current.published_at) {
    return `The scheduler published it at ${at(current.published_at)}.`;
  }
  if (opened.queued && current.queued && opened.published_at !== current.published_at && !who) {
    return `The publishing queue moved it to ${at(current.published_at)}.`;
  }
  const what =
    current.status !== opened.status
      ? current.status === 'published' ? 'published it'
      : current.status === 'scheduled' ? (current.queued ? `put it in the publishing queue for ${at(current.published_at)}` : `scheduled it for ${at(current.published_at)}`)
      : opened.status === 'published' ? 'unpublished it (it is a draft now)'
      : 'made it a draft'
    : current.published_at !== opened.published_at && current.status === 'scheduled' ? `rescheduled it for ${at(current.published_at)}`
    : 'edited it';
  return `${who ?? 'Someone'} ${what}.`;
}
