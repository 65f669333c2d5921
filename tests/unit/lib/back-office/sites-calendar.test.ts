import { describe, expect, it } from 'vitest';
import { calendarRange, dayIn, mayMove, SITE_COLOURS, siteColour, stepAnchor, type CalendarSite } from '../../../../src/lib/back-office/sites-calendar.ts';

describe('calendarRange', () => {
  it('shows a week from its Monday, spanning the days in the person\'s zone', () => {
    const { days, from, to, title } = calendarRange('week', '2026-11-26', 'America/Chicago');
    expect(days.map((day) => day.date)).toEqual(['2026-11-23', '2026-11-24', '2026-11-25', '2026-11-26', '2026-11-27', '2026-11-28', '2026-11-29']);
    expect(from.toISOString()).toBe('2026-11-23T06:00:00.000Z');
    expect(to.toISOString()).toBe('2026-11-30T06:00:00.000Z');
    expect(title).toBe('Week of Nov 23, 2026');
  });

  it('shows a month as six weeks from the Monday on or before its first, marking the days of other months', () => {
    const { days, from, to, title } = calendarRange('month', '2026-11-26', 'Europe/Paris');
    expect(days).toHaveLength(42);
    expect(days[0]).toEqual({ date: '2026-10-26', inMonth: false });
    expect(days.find((day) => day.date === '2026-11-01')!.inMonth).toBe(true);
    expect(days.at(-1)).toEqual({ date: '2026-12-06', inMonth: false });
    expect(from.toISOString()).toBe('2026-10-25T23:00:00.000Z');
    expect(to.toISOString()).toBe('2026-12-06T23:00:00.000Z');
    expect(title).toBe('November 2026');
  });

  it('spans a day that daylight saving time shortens by its real length', () => {
    const { from, to } = calendarRange('week', '2026-03-08', 'America/New_York');
    // Mon Mar 2 to Mon Mar 9: seven days less the hour lost on Sunday Mar 8.
    expect(to.getTime() - from.getTime()).toBe(7 * 86_400_000 - 3_600_000);
  });
});

describe('moving around the calendar', () => {
  it('steps a week or to the first of the month before or after', () => {
    expect(stepAnchor('week', '2026-12-29', 1)).toBe('2027-01-05');
    expect(stepAnchor('month', '2026-01-31', -1)).toBe('2025-12-01');
    expect(stepAnchor('month', '2026-01-31', 1)).toBe('2026-02-01');
  });

  it('dates an instant in a zone', () => {
    expect(dayIn('2026-11-27T03:00:00Z', 'America/Chicago')).toBe('2026-11-26');
    expect(dayIn('2026-11-27T03:00:00Z', 'Asia/Tokyo')).toBe('2026-11-27');
  });
});

describe('sites on the calendar', () => {
  const sites: CalendarSite[] = Array.from({ length: 10 }, (_, index) => ({ organization_id: `o${index}`, name: `Site ${index}`, role: index % 3 === 0 ? 'viewer' : index % 3 === 1 ? 'editor' : 'admin', time_zone: 'UTC' }));

  it('gives each site a colour by its place, the first ones all different', () => {
    const colours = sites.slice(0, SITE_COLOURS.length).map((site) => siteColour(sites, site.organization_id));
    expect(new Set(colours).size).toBe(SITE_COLOURS.length);
    expect(siteColour(sites, 'o8')).toBe(SITE_COLOURS[0]);
  });

  it('lets editors and admins move posts, viewers only look', () => {
    expect(sites.slice(0, 3).map(mayMove)).toEqual([false, true, true]);
    expect(mayMove(undefined)).toBe(false);
  });
});
