import { describe, expect, it } from 'vitest';
import { calendarDays, readClientCalendar, tokenFromHash } from '../../../src/lib/client-calendar.ts';
import { clientLinkState, clientLinkUrl } from '../../../src/lib/back-office/client-calendar-links.ts';
import { ClientLinkInputSchema } from '../../../src/schemas/client-calendar.ts';

const TOKEN = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ-_01234';

describe('the client calendar page', () => {
  it('takes the token after "#", and nothing that cannot be one', () => {
    expect(tokenFromHash(`#${TOKEN}`)).toBe(TOKEN);
    expect(tokenFromHash(`#${TOKEN} `)).toBe(TOKEN);
    for (const hash of ['', '#', `#${TOKEN.slice(1)}`, `#${TOKEN}x`, `#${TOKEN.slice(1)}/`, '#access_token=abc']) expect(tokenFromHash(hash)).toBeNull();
  });

  it('reads the answer it knows the shape of, and nothing else', () => {
    const answer = { site: { name: 'Acme', time_zone: 'America/Chicago' }, link: { label: 'Owners', expires_at: '2026-12-29T00:00:00Z' }, posts: [{ title: 'A', published_at: '2026-12-02T15:00:00Z', queued: true }] };
    expect(readClientCalendar(answer)).toEqual(answer);
    expect(readClientCalendar({ ...answer, extra: 'ignored', site: { ...answer.site, id: 'x' } })).toEqual(answer);
    for (const bad of [null, [], 'text', { ...answer, posts: [{ title: 'A', published_at: 5, queued: true }] }, { ...answer, posts: [{ title: 'A', published_at: 'x' }] }, { ...answer, site: null }, { ...answer, link: { label: 'Owners' } }]) {
      expect(readClientCalendar(bad)).toBeNull();
    }
  });

  it("lays the posts out by day in the site's zone, not the reader's", () => {
    const days = calendarDays(
      [
        // 02:30 UTC on Dec 2 is still Dec 1 in Chicago.
        { title: 'Late evening', published_at: '2026-12-02T02:30:00Z', queued: false },
        { title: 'Next morning', published_at: '2026-12-02T15:00:00Z', queued: true },
        { title: 'Same morning', published_at: '2026-12-02T16:15:00Z', queued: false },
      ],
      'America/Chicago',
    );
    expect(days.map((day) => [day.key, day.label, day.posts.map((post) => `${post.time} ${post.title}${post.queued ? ' (queued)' : ''}`)])).toEqual([
      ['2026-12-01', 'Tuesday, December 1, 2026', ['8:30 PM Late evening']],
      ['2026-12-02', 'Wednesday, December 2, 2026', ['9:00 AM Next morning (queued)', '10:15 AM Same morning']],
    ]);
    expect(calendarDays([], 'America/Chicago')).toEqual([]);
  });
});

describe('client calendar links in the back office', () => {
  it('is revoked, expired or active, in that order', () => {
    const now = new Date('2026-12-01T12:00:00Z');
    expect(clientLinkState({ expires_at: '2026-12-02T00:00:00Z', revoked_at: null }, now)).toBe('active');
    expect(clientLinkState({ expires_at: '2026-12-01T12:00:00Z', revoked_at: null }, now)).toBe('expired');
    expect(clientLinkState({ expires_at: '2026-11-01T00:00:00Z', revoked_at: '2026-10-01T00:00:00Z' }, now)).toBe('revoked');
  });

  it('puts the token after "#", where it never reaches a server', () => {
    expect(clientLinkUrl('https://clientsite.com', TOKEN)).toBe(`https://clientsite.com/client-calendar#${TOKEN}`);
  });

  it('accepts what the database accepts: a name of 1 to 80 characters, 1 to 365 days', () => {
    expect(ClientLinkInputSchema.parse({ label: '  Acme  ', days: '30' })).toEqual({ label: 'Acme', days: 30 });
    for (const days of [1, 365]) expect(ClientLinkInputSchema.safeParse({ label: 'Acme', days }).success).toBe(true);
    for (const bad of [{ label: ' ', days: 30 }, { label: 'x'.repeat(81), days: 30 }, { label: 'Acme', days: 0 }, { label: 'Acme', days: 366 }, { label: 'Acme', days: 1.5 }]) {
      expect(ClientLinkInputSchema.safeParse(bad).success).toBe(false);
    }
  });
});
