/**
 * What each button of the post editor does to a post's publication, and the message it ends with. A draft
 * has Save Draft, Publish and Schedule; a published post Update (stays published) and Unpublish; a
 * scheduled post Update (stays scheduled), Reschedule and Cancel schedule. Pure, so tests call it directly.
 */
import type { PostStatus } from '../schemas/post.ts';

export type PostAction = 'save-draft' | 'publish' | 'schedule' | 'update' | 'unpublish' | 'reschedule' | 'cancel-schedule';

/** The actions offered for a post in a status (a new post is a draft). */
export function actionsFor(status: PostStatus | null): PostAction[] {
  if (status === 'published') return ['update', 'unpublish'];
  if (status === 'scheduled') return ['update', 'reschedule', 'cancel-schedule'];
  return ['save-draft', 'publish', 'schedule'];
}

/** The button labels, and what they read while the save runs. */
export const ACTION_LABELS: Record<PostAction, { label: string; busy: string }> = {
  'save-draft': { label: 'Save Draft', busy: 'Saving...' },
  publish: { label: 'Publish', busy: 'Publishing...' },
  schedule: { label: 'Schedule', busy: 'Scheduling...' },
  update: { label: 'Update', busy: 'Updating...' },
  unpublish: { label: 'Unpublish', busy: 'Unpublishing...' },
  reschedule: { label: 'Reschedule', busy: 'Rescheduling...' },
  'cancel-schedule': { label: 'Cancel schedule', busy: 'Cancelling...' },
};

/** Shown under the schedule field when the chosen time is missing or not in the future. */
export const SCHEDULE_TIME_MESSAGE = 'Choose a date and time in the future to schedule the post.';

/** A time as the editor's messages write it ("Dec 1, 2026, 9:00 AM", the browser's time zone). */
export function formatPublicationTime(iso: string): string {
  return new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The status and publication time an action gives a post, or the schedule problem. `post` is the stored
 * post (null for a new one); `scheduleAt` the time chosen in the Schedule field (local, may be empty).
 */
export function publicationFor(
  action: PostAction,
  post: { status: PostStatus; published_at: string | null } | null,
  scheduleAt: string,
  now: Date = new Date(),
): { status: PostStatus; published_at: string | null } | { error: string } {
  switch (action) {
    case 'save-draft':
    case 'unpublish':
    case 'cancel-schedule':
      return { status: 'draft', published_at: null };
    case 'publish':
      return { status: 'published', published_at: now.toISOString() };
    case 'update':
      return post && post.status !== 'draft' ? { status: post.status, published_at: post.published_at } : { status: 'draft', published_at: null };
    case 'schedule':
    case 'reschedule': {
      const when = scheduleAt ? new Date(scheduleAt) : null;
      if (!when || Number.isNaN(when.getTime()) || when <= now) return { error: SCHEDULE_TIME_MESSAGE };
      return { status: 'scheduled', published_at: when.toISOString() };
    }
  }
}

/** The confirmation toast of a completed action. */
export function actionMessage(action: PostAction, saved: { status: PostStatus; published_at: string | null }): string {
  const when = saved.published_at ? formatPublicationTime(saved.published_at) : '';
  switch (action) {
    case 'save-draft':
      return 'Post saved successfully!';
    case 'publish':
      return 'Post published successfully!';
    case 'schedule':
      return `Post scheduled for ${when}.`;
    case 'reschedule':
      return `Post rescheduled for ${when}.`;
    case 'update':
      return saved.status === 'scheduled' ? `Post updated. It stays scheduled for ${when}.` : saved.status === 'published' ? 'Post updated successfully!' : 'Post saved successfully!';
    case 'unpublish':
      return 'Post unpublished. It leaves the site at the next build.';
    case 'cancel-schedule':
      return 'Schedule cancelled. The post is a draft again.';
  }
}
