/**
 * What each button of the post editor does to a post's publication, and the message it ends with. A draft
 * has Save Draft, Publish, Add to queue and Schedule; a published post Update (stays published) and
 * Unpublish; a scheduled post Update (stays scheduled), Reschedule and Cancel schedule; a post waiting in
 * the publishing queue Update (keeps its slot), Publish (now) and Take out of queue. Pure, so tests call it
 * directly.
 */
import type { PostStatus } from '../../schemas/post.ts';
import { fromZonedInput, timeZoneLabel } from './zoned-time.ts';

export type PostAction = 'save-draft' | 'publish' | 'queue' | 'schedule' | 'update' | 'unpublish' | 'reschedule' | 'cancel-schedule' | 'unqueue';

/** The actions offered for a post in a status (a new post is a draft); `queued` for a post in the queue. */
export function actionsFor(status: PostStatus | null, queued = false): PostAction[] {
  if (status === 'published') return ['update', 'unpublish'];
  if (status === 'scheduled') return queued ? ['update', 'publish', 'unqueue'] : ['update', 'reschedule', 'cancel-schedule'];
  return ['save-draft', 'publish', 'queue', 'schedule'];
}

/** The button labels, and what they read while the save runs. */
export const ACTION_LABELS: Record<PostAction, { label: string; busy: string }> = {
  'save-draft': { label: 'Save Draft', busy: 'Saving...' },
  publish: { label: 'Publish', busy: 'Publishing...' },
  queue: { label: 'Add to queue', busy: 'Adding...' },
  schedule: { label: 'Schedule', busy: 'Scheduling...' },
  update: { label: 'Update', busy: 'Updating...' },
  unpublish: { label: 'Unpublish', busy: 'Unpublishing...' },
  reschedule: { label: 'Reschedule', busy: 'Rescheduling...' },
  'cancel-schedule': { label: 'Cancel schedule', busy: 'Cancelling...' },
  unqueue: { label: 'Take out of queue', busy: 'Taking out...' },
};

/** Shown under the schedule field when the chosen time is missing or not in the future. */
export const SCHEDULE_TIME_MESSAGE = 'Choose a date and time in the future to schedule the post.';

/** A time as the editor's messages write it ("Dec 1, 2026, 9:00 AM EST"): in `timeZone`, else the browser's. */
export function formatPublicationTime(iso: string, timeZone?: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', ...(timeZone ? { timeZone } : {}) }) + (timeZone ? ` ${timeZoneLabel(timeZone, new Date(iso))}` : '');
}

/** What an action writes of a post's publication: `queued` asks the database for the next free slot. */
export type Publication = { status: PostStatus; published_at: string | null; queued: boolean } | { status: 'scheduled'; queued: true };

/**
 * The status and publication time an action gives a post, or the schedule problem. `post` is the stored
 * post (null for a new one); `scheduleAt` the time chosen in the Schedule field (a wall time in the
 * organization's `timeZone`, may be empty). A post
 * joining or staying in the queue sends no time: its slot is the database's (a re-flow may have moved it
 * since the editor opened).
 */
export function publicationFor(
  action: PostAction,
  post: { status: PostStatus; published_at: string | null; queued?: boolean } | null,
  scheduleAt: string,
  timeZone: string,
  now: Date = new Date(),
): Publication | { error: string } {
  switch (action) {
    case 'save-draft':
    case 'unpublish':
    case 'cancel-schedule':
    case 'unqueue':
      return { status: 'draft', published_at: null, queued: false };
    case 'publish':
      return { status: 'published', published_at: now.toISOString(), queued: false };
    case 'queue':
      return { status: 'scheduled', queued: true };
    case 'update':
      if (post?.queued && post.status === 'scheduled') return { status: 'scheduled', queued: true };
      return post && post.status !== 'draft' ? { status: post.status, published_at: post.published_at, queued: false } : { status: 'draft', published_at: null, queued: false };
    case 'schedule':
    case 'reschedule': {
      const when = fromZonedInput(scheduleAt, timeZone);
      if (!when || when <= now) return { error: SCHEDULE_TIME_MESSAGE };
      return { status: 'scheduled', published_at: when.toISOString(), queued: false };
    }
  }
}

/**
 * The confirmation toast of a completed action; `timeZone` is the organization's, in which a queued post's
 * slot is told. A change visitors see (publish, update of a published post, unpublish) is told without a
 * promise of when: the editor adds that from the site's build state (`changesSite`, `postOnSite`).
 */
export function actionMessage(action: PostAction, saved: { status: PostStatus; published_at: string | null; queued?: boolean }, timeZone?: string): string {
  const when = saved.published_at ? formatPublicationTime(saved.published_at, timeZone) : '';
  switch (action) {
    case 'save-draft':
      return 'Post saved successfully!';
    case 'publish':
      return 'Post published successfully!';
    case 'schedule':
      return `Post scheduled for ${when}.`;
    case 'reschedule':
      return `Post rescheduled for ${when}.`;
    case 'queue':
      return `Post added to the publishing queue. Its slot: ${when}.`;
    case 'unqueue':
      return 'Post taken out of the queue. It is a draft again.';
    case 'update':
      if (saved.queued) return `Post updated. It keeps its place in the queue (${when}).`;
      return saved.status === 'scheduled' ? `Post updated. It stays scheduled for ${when}.` : saved.status === 'published' ? 'Post updated.' : 'Post saved successfully!';
    case 'unpublish':
      return 'Post unpublished.';
    case 'cancel-schedule':
      return 'Schedule cancelled. The post is a draft again.';
  }
}

/** True when the saved action changes what visitors see now: the post went live, changed while live, or left. */
export function changesSite(action: PostAction, saved: { status: PostStatus }): boolean {
  return saved.status === 'published' || action === 'unpublish';
}
