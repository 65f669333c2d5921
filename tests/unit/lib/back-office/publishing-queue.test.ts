import { describe, expect, it } from 'vitest';
import { describeQueue, type QueueSettings } from '../../../../src/lib/back-office/publishing-queue.ts';
import { QueueSettingsSchema } from '../../../../src/schemas/publishing-queue.ts';

const queue: QueueSettings = {
  time_zone: 'America/New_York', posts_per_day: 3, weekdays: [1, 2, 3, 4, 5], window_start: '09:00:00', window_end: '17:00:00', spread_minutes: 0, posts_per_slot: 1,
};

describe('the publishing queue in words', () => {
  it.each<[Partial<QueueSettings>, string]>([
    [{}, '3 posts a day, Mon, Tue, Wed, Thu, Fri, between 09:00 and 17:00 (America/New_York)'],
    [{ posts_per_day: 1, weekdays: [1, 2, 3, 4, 5, 6, 7] }, '1 post a day, every day, between 09:00 and 17:00 (America/New_York)'],
    [{ weekdays: [2, 4], spread_minutes: 20, time_zone: 'Asia/Tokyo' }, '3 posts a day, Tue, Thu, between 09:00 and 17:00, each moved by up to 20 minutes (Asia/Tokyo)'],
    [{ posts_per_slot: 3 }, '3 posts a day, 3 to a slot (one build each), Mon, Tue, Wed, Thu, Fri, between 09:00 and 17:00 (America/New_York)'],
  ])('describes %j', (change, sentence) => {
    expect(describeQueue({ ...queue, ...change })).toBe(sentence);
  });
});

describe('QueueSettingsSchema (mirrors the checks of publishing_queues)', () => {
  const valid = { time_zone: 'America/New_York', posts_per_day: 3, weekdays: [5, 1, 1], window_start: '09:00', window_end: '17:00', spread_minutes: 20, posts_per_slot: 1 };

  it('accepts settings, with the weekdays deduplicated and sorted', () => {
    expect(QueueSettingsSchema.parse(valid).weekdays).toEqual([1, 5]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no weekday', { weekdays: [] }, 'weekdays'],
    ['a weekday 8', { weekdays: [8] }, 'weekdays'],
    ['0 posts a day', { posts_per_day: 0 }, 'posts_per_day'],
    ['25 posts a day', { posts_per_day: 25 }, 'posts_per_day'],
    ['a window that ends before it starts', { window_start: '17:00', window_end: '09:00' }, 'window_end'],
    ['a time that is no time', { window_start: '25:00' }, 'window_start'],
    ['a spread as long as the gap between posts', { posts_per_day: 8, spread_minutes: 60 }, 'spread_minutes'],
    ['a spread over 120 minutes', { spread_minutes: 121 }, 'spread_minutes'],
    ['no time zone', { time_zone: '' }, 'time_zone'],
    ['0 posts a slot', { posts_per_slot: 0 }, 'posts_per_slot'],
    ['11 posts a slot', { posts_per_day: 12, posts_per_slot: 11 }, 'posts_per_slot'],
    ['more posts to a slot than a day has', { posts_per_slot: 4 }, 'posts_per_slot'],
  ])('refuses %s', (_case, change, path) => {
    const result = QueueSettingsSchema.safeParse({ ...valid, ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => String(issue.path[0]))).toContain(path);
  });
});
