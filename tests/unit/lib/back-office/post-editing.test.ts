/**
 * The editor's pure parts: the shaping of a body (the same call the webhook makes), the publish actions per
 * status with their messages, the validate and shape steps of a save, the local autosave, and how the
 * revision history names who did what.
 */
import { describe, expect, it } from 'vitest';
import { EMPTY_CONTENT_MESSAGE, PostSaveError, shapePost, validatePost, type PostDraft } from '../../../../src/lib/back-office/posts.ts';
import { actionMessage, actionsFor, changesSite, publicationFor, SCHEDULE_TIME_MESSAGE } from '../../../../src/lib/back-office/post-actions.ts';
import { autosaveKey, clearAutosave, readAutosave, writeAutosave } from '../../../../src/lib/back-office/post-autosave.ts';
import { shapePostContent } from '../../../../src/lib/post-content.ts';
import { restoreConsequence, revisionAuthor, revisionChanges } from '../../../../src/lib/back-office/post-revisions.ts';

const draft: PostDraft = {
  title: ' A post ',
  slug: 'a-post',
  excerpt: '',
  content_source: '## Heading\n\n- a\n- b\n\n[link](https://example.com) `code`\n',
  content_format: 'markdown',
  status: 'draft',
  category_id: '',
  tags: ['SEO', 'seo'],
  featured_image_url: '',
  meta_title: '',
  meta_description: '',
  published_at: null,
};

describe('shapePostContent', () => {
  it('keeps Markdown as written and derives sanitized HTML and the reading time', async () => {
    const shaped = await shapePostContent('# Title\n\n<img src=x onerror=alert(1)> **bold**\n', 'markdown');
    expect(shaped).toEqual({
      content_source: '# Title\n\n<img src=x onerror=alert(1)> **bold**\n',
      content_format: 'markdown',
      content: '<h1>Title</h1>\n<p><img src="x" /> <strong>bold</strong></p>',
      reading_time: 1,
    });
  });

  it('keeps HTML as HTML (no Markdown rendering of it) and counts minutes rounding up', async () => {
    const html = `<p>${'word '.repeat(401)}</p>\n\n    not code`;
    const shaped = await shapePostContent(html, 'html');
    expect(shaped.content_source).toBe(html);
    expect(shaped.content).not.toContain('<pre>');
    expect(shaped.reading_time).toBe(3);
  });
});

describe('the save steps', () => {
  it('validate: trims, drops case-insensitive duplicate tags, nulls empty fields', () => {
    expect(validatePost(draft)).toMatchObject({ title: 'A post', tags: ['SEO'], excerpt: null, category_id: null });
  });

  it('validate: refuses with every problem in one message', () => {
    expect(() => validatePost({ ...draft, title: ' ', slug: 'Bad Slug' })).toThrow(PostSaveError);
    expect(() => validatePost({ ...draft, status: 'published' })).toThrow('Published and scheduled posts need a publication date');
  });

  it('shape: the HTML, source and reading time, or a clear refusal when nothing safe is left', async () => {
    const row = await shapePost(validatePost(draft));
    expect(row).toMatchObject({ content_source: draft.content_source, content_format: 'markdown', reading_time: 1, published_at: null });
    expect(row.content).toContain('<h2>Heading</h2>');
    await expect(shapePost(validatePost({ ...draft, content_source: '<script>x</script>', content_format: 'html' }))).rejects.toThrow(EMPTY_CONTENT_MESSAGE);
  });
});

describe('publish actions', () => {
  const now = new Date('2026-11-23T12:00:00Z');

  it('offers what each status needs', () => {
    expect(actionsFor(null)).toEqual(['save-draft', 'publish', 'queue', 'schedule']);
    expect(actionsFor('draft')).toEqual(['save-draft', 'publish', 'queue', 'schedule']);
    expect(actionsFor('published')).toEqual(['update', 'unpublish']);
    expect(actionsFor('scheduled')).toEqual(['update', 'reschedule', 'cancel-schedule']);
    expect(actionsFor('scheduled', true)).toEqual(['update', 'publish', 'unqueue']);
  });

  it('Update keeps a published post published at its original time, a scheduled one scheduled, and a queued one in its slot', () => {
    const published = { status: 'published' as const, published_at: '2026-10-01T09:00:00.000Z' };
    expect(publicationFor('update', published, '', 'America/New_York', now)).toEqual({ ...published, queued: false });
    const scheduled = { status: 'scheduled' as const, published_at: '2026-12-01T09:00:00.000Z' };
    expect(publicationFor('update', scheduled, '', 'America/New_York', now)).toEqual({ ...scheduled, queued: false });
    // No time for a queued post: the database keeps its slot, which a re-flow may have moved since.
    expect(publicationFor('update', { ...scheduled, queued: true }, '', 'America/New_York', now)).toEqual({ status: 'scheduled', queued: true });
  });

  it('Unpublish, Cancel schedule and Take out of queue make a draft; Publish goes live now; Add to queue asks for a slot', () => {
    const draft = { status: 'draft', published_at: null, queued: false };
    expect(publicationFor('unpublish', { status: 'published', published_at: now.toISOString() }, '', 'America/New_York', now)).toEqual(draft);
    expect(publicationFor('cancel-schedule', { status: 'scheduled', published_at: now.toISOString() }, '', 'America/New_York', now)).toEqual(draft);
    expect(publicationFor('unqueue', { status: 'scheduled', published_at: now.toISOString(), queued: true }, '', 'America/New_York', now)).toEqual(draft);
    expect(publicationFor('publish', null, '', 'America/New_York', now)).toEqual({ status: 'published', published_at: now.toISOString(), queued: false });
    expect(publicationFor('queue', null, '', 'America/New_York', now)).toEqual({ status: 'scheduled', queued: true });
  });

  it('Schedule and Reschedule need a time in the future, read in the organization\'s time zone', () => {
    expect(publicationFor('schedule', null, '', 'America/New_York', now)).toEqual({ error: SCHEDULE_TIME_MESSAGE });
    // now is 7:00 AM in New York: 6:59 there is past, 7:30 is to come (read in UTC it would be past).
    expect(publicationFor('reschedule', null, '2026-11-23T06:59', 'America/New_York', now)).toEqual({ error: SCHEDULE_TIME_MESSAGE });
    expect(publicationFor('reschedule', null, '2026-11-23T07:30', 'America/New_York', now)).toEqual({ status: 'scheduled', published_at: '2026-11-23T12:30:00.000Z', queued: false });
    expect(publicationFor('schedule', null, '2030-01-01T10:00', 'America/New_York', now)).toEqual({ status: 'scheduled', published_at: '2030-01-01T15:00:00.000Z', queued: false });
  });

  it('ends each action with its own message, a queued post\'s slot told in the organization\'s time zone', () => {
    const published = { status: 'published' as const, published_at: '2026-10-01T09:00:00Z' };
    expect(actionMessage('save-draft', { status: 'draft', published_at: null })).toBe('Post saved successfully!');
    expect(actionMessage('publish', published)).toBe('Post published successfully!');
    expect(actionMessage('update', published)).toBe('Post updated.');
    expect(actionMessage('unpublish', { status: 'draft', published_at: null })).toBe('Post unpublished.');
    expect(actionMessage('cancel-schedule', { status: 'draft', published_at: null })).toBe('Schedule cancelled. The post is a draft again.');
    expect(actionMessage('schedule', { status: 'scheduled', published_at: '2030-01-01T15:00:00Z' }, 'America/New_York')).toBe('Post scheduled for Jan 1, 2030, 10:00 AM EST.');
    expect(actionMessage('reschedule', { status: 'scheduled', published_at: '2030-07-01T14:00:00Z' }, 'America/New_York')).toBe('Post rescheduled for Jul 1, 2030, 10:00 AM EDT.');
    const queued = { status: 'scheduled' as const, published_at: '2030-01-01T14:20:00Z', queued: true };
    expect(actionMessage('queue', queued, 'America/New_York')).toBe('Post added to the publishing queue. Its slot: Jan 1, 2030, 9:20 AM EST.');
    expect(actionMessage('update', queued, 'Asia/Tokyo')).toBe('Post updated. It keeps its place in the queue (Jan 1, 2030, 11:20 PM GMT+9).');
    expect(actionMessage('unqueue', { status: 'draft', published_at: null })).toBe('Post taken out of the queue. It is a draft again.');
  });

  it.each([
    ['publish', 'published', true],
    ['update', 'published', true],
    ['unpublish', 'draft', true],
    ['update', 'scheduled', false],
    ['save-draft', 'draft', false],
    ['cancel-schedule', 'draft', false],
    ['queue', 'scheduled', false],
  ] as const)('%s ending %s changes what visitors see: %s', (action, status, expected) => {
    expect(changesSite(action, { status })).toBe(expected);
  });
});

describe('local autosave', () => {
  it('keeps, reads back and clears a form per organization and post', () => {
    const storage = new Map<string, string>();
    const store = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) };
    const key = autosaveKey('org-1', null);
    expect(key).toBe('postDraft:org-1:new');
    expect(readAutosave(store, key)).toBeNull();
    writeAutosave(store, key, { title: 'Kept' }, new Date('2026-11-23T12:00:00Z'));
    expect(readAutosave(store, key)).toEqual({ savedAt: '2026-11-23T12:00:00.000Z', form: { title: 'Kept' } });
    storage.set(key, '{not json');
    expect(readAutosave(store, key)).toBeNull();
    clearAutosave(store, key);
    expect(storage.has(key)).toBe(false);
  });
});

describe('revision history wording', () => {
  it('names the editor, the writing tool or the system, and what changed', () => {
    expect(revisionAuthor({ source: 'editor', editor: { full_name: 'Jordan Lee', email: 'j@example.com' } })).toBe('Jordan Lee');
    expect(revisionAuthor({ source: 'webhook', editor: null })).toBe('ZimmWriter');
    expect(revisionAuthor({ source: 'editor', editor: null })).toBe('A former member');
    expect(revisionChanges({ source: 'editor', changed_fields: [] })).toBe('Created');
    expect(revisionChanges({ source: 'editor', changed_fields: ['title', 'meta_title'] })).toBe('Changed title, meta title');
    expect(revisionChanges({ source: 'restore', changed_fields: ['title'] })).toBe('Restored an earlier version');
  });
});

describe('restoreConsequence', () => {
  it.each([
    [{ status: 'published' as const, published_at: '2026-10-01T09:00:00Z' },
      'The title, content, excerpt and SEO fields go back to this version and are saved at once: the post is republished with them, and visitors see this version after the next site build.'],
    [{ status: 'scheduled' as const, published_at: '2030-01-01T15:00:00Z' },
      'The title, content, excerpt and SEO fields go back to this version and are saved at once; the post stays scheduled and goes out with this version on Jan 1, 2030, 10:00 AM EST.'],
    [{ status: 'scheduled' as const, published_at: '2030-01-01T15:00:00Z', queued: true },
      'The title, content, excerpt and SEO fields go back to this version and are saved at once; the post stays in the publishing queue and goes out with this version on Jan 1, 2030, 10:00 AM EST.'],
    [{ status: 'draft' as const, published_at: null },
      'The title, content, excerpt and SEO fields go back to this version and are saved at once as the draft; nothing changes on the site until you publish.'],
  ])('tells what restoring does to a %j post', (post, message) => {
    expect(restoreConsequence(post, 'America/New_York')).toBe(message);
  });
});
