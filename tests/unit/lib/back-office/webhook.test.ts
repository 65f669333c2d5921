import { describe, expect, it } from 'vitest';
import { deliveryGoesOut } from '../../../../src/lib/back-office/webhook';

const post = (status: string, published_at: string | null, queued = false) => ({ id: 'p', title: 'T', status, published_at, queued });
const spaces = (text: string | null) => text?.replace(/\s/g, ' ') ?? null;

describe('deliveryGoesOut: what Recent Deliveries say of a delivered post going out', () => {
  it.each<[string, Parameters<typeof deliveryGoesOut>[0], string, string | null]>([
    ['a queued post: its slot in the zone, with the zone', post('scheduled', '2026-11-27T14:00:00Z', true), 'America/New_York', 'In the queue, goes out Fri, Nov 27, 9:00 AM EST'],
    ['a post scheduled by hand', post('scheduled', '2026-07-01T06:30:00Z'), 'Asia/Tokyo', 'Scheduled, goes out Wed, Jul 1, 3:30 PM GMT+9'],
    ['a published post: nothing to say', post('published', '2026-11-27T14:00:00Z'), 'America/New_York', null],
    ['a draft: nothing to say', post('draft', null), 'America/New_York', null],
    ['no post (a refused delivery)', null, 'America/New_York', null],
  ])('%s', (_case, delivered, timeZone, expected) => {
    expect(spaces(deliveryGoesOut(delivered, timeZone))).toBe(expected);
  });
});
