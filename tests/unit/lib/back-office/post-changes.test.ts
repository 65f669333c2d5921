import { describe, expect, it } from 'vitest';
import { describePostChange, type PostVersion } from '../../../../src/lib/back-office/post-changes.ts';

const TZ = 'America/New_York';
const opened = (over: Partial<PostVersion> = {}): PostVersion => ({ updated_at: '2026-11-27T10:00:00.000000+00:00', status: 'draft', published_at: null, queued: false, ...over });
const revision = (source: 'editor' | 'webhook' | 'system', created_at: string, full_name: string | null = 'Jordan Lee') => ({ source, created_at, editor: source === 'editor' ? { full_name, email: 'jordan@x.test' } : null });

describe('describePostChange', () => {
  const at = '2026-11-27T14:00:00.000Z';

  it('names the scheduler for a scheduled post that went live at its time', () => {
    const scheduled = opened({ status: 'scheduled', published_at: at });
    expect(describePostChange(scheduled, { ...scheduled, status: 'published', updated_at: '2026-11-27T14:00:01+00:00' }, TZ)).toBe('The scheduler published it at Nov 27, 2026, 9:00 AM EST.');
  });

  it('names the queue for a queued post whose slot moved', () => {
    const queued = opened({ status: 'scheduled', queued: true, published_at: at });
    expect(describePostChange(queued, { ...queued, published_at: '2026-11-28T14:00:00.000Z', updated_at: 'later' }, TZ)).toBe('The publishing queue moved it to Nov 28, 2026, 9:00 AM EST.');
  });

  it('names the member or the writing tool of a newer revision, and what they did', () => {
    const draft = opened();
    const newer = revision('editor', '2026-11-27T11:00:00Z');
    expect(describePostChange(draft, { ...draft, updated_at: 'later' }, TZ, newer)).toBe('Jordan Lee edited it.');
    expect(describePostChange(draft, { ...draft, status: 'published', published_at: at, updated_at: 'later' }, TZ, newer)).toBe('Jordan Lee published it.');
    expect(describePostChange(draft, { ...draft, updated_at: 'later' }, TZ, revision('webhook', '2026-11-27T11:00:00Z'))).toBe('The writing tool edited it.');
    expect(describePostChange(draft, { ...draft, updated_at: 'later' }, TZ, revision('editor', '2026-11-27T11:00:00Z', null))).toBe('jordan@x.test edited it.');
  });

  it("takes neither the opened version's own revision nor the server's for a newer author", () => {
    const scheduled = opened({ status: 'scheduled', published_at: at });
    const published = { ...scheduled, status: 'published' as const, updated_at: 'later' };
    // Written in the transaction of the opened version, a moment after its time.
    expect(describePostChange(scheduled, published, TZ, revision('editor', '2026-11-27T10:00:00.004Z'))).toBe('The scheduler published it at Nov 27, 2026, 9:00 AM EST.');
    expect(describePostChange(opened(), { ...opened(), updated_at: 'later' }, TZ, revision('system', '2026-11-27T11:00:00Z'))).toBe('Someone edited it.');
  });

  it('says "Someone" when no newer revision tells who, and what the status became', () => {
    const published = opened({ status: 'published', published_at: at });
    const older = revision('editor', '2026-11-27T09:00:00Z');
    expect(describePostChange(published, { ...published, status: 'draft', updated_at: 'later' }, TZ, older)).toBe('Someone unpublished it (it is a draft now).');
    expect(describePostChange(opened(), { ...opened(), status: 'scheduled', published_at: at, updated_at: 'later' }, TZ)).toBe('Someone scheduled it for Nov 27, 2026, 9:00 AM EST.');
    expect(describePostChange(opened(), { ...opened(), status: 'scheduled', queued: true, published_at: at, updated_at: 'later' }, TZ)).toBe('Someone put it in the publishing queue for Nov 27, 2026, 9:00 AM EST.');
    const scheduled = opened({ status: 'scheduled', published_at: at });
    expect(describePostChange(scheduled, { ...scheduled, published_at: '2026-11-29T14:00:00.000Z', updated_at: 'later' }, TZ)).toBe('Someone rescheduled it for Nov 29, 2026, 9:00 AM EST.');
  });
});
