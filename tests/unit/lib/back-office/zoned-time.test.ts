import { describe, expect, it } from 'vitest';
import { formatInTimeZone, fromZonedInput, timeZoneLabel, toZonedInput } from '../../../../src/lib/back-office/zoned-time.ts';

describe('times in the organization\'s time zone', () => {
  it('tells a slot in the zone, with the zone\'s short name', () => {
    expect(formatInTimeZone('2026-12-01T14:20:00Z', 'America/New_York')).toBe('Tue, Dec 1, 9:20 AM');
    expect(formatInTimeZone('2026-12-01T14:20:00Z', 'Asia/Tokyo')).toBe('Tue, Dec 1, 11:20 PM');
    expect(timeZoneLabel('America/New_York', new Date('2026-12-01T14:20:00Z'))).toBe('EST');
    expect(timeZoneLabel('America/New_York', new Date('2026-07-01T14:20:00Z'))).toBe('EDT');
  });

  it('reads the Publish at field as a wall time in the zone, whatever zone the machine is in', () => {
    expect(fromZonedInput('2027-01-01T10:00', 'America/New_York')?.toISOString()).toBe('2027-01-01T15:00:00.000Z');
    expect(fromZonedInput('2027-07-01T10:00', 'America/New_York')?.toISOString()).toBe('2027-07-01T14:00:00.000Z');
    expect(fromZonedInput('2027-01-01T10:00:30', 'Asia/Tokyo')?.toISOString()).toBe('2027-01-01T01:00:30.000Z');
    expect(fromZonedInput('2027-01-01T10:00', 'UTC')?.toISOString()).toBe('2027-01-01T10:00:00.000Z');
  });

  it('refuses what is not a date and time', () => {
    for (const value of ['', 'tomorrow', '2027-01-01', '2027-01-01 10:00', '2027-13-01T10:00', '2027-02-30T10:00', '2027-01-01T24:00', '2027-01-01T10:00x']) expect(fromZonedInput(value, 'America/New_York')).toBeNull();
  });

  it('shows a stored time back in the field as the same wall time, across daylight saving', () => {
    expect(toZonedInput('2027-01-01T15:00:00Z', 'America/New_York')).toBe('2027-01-01T10:00');
    expect(toZonedInput('2027-07-01T14:00:00Z', 'America/New_York')).toBe('2027-07-01T10:00');
    expect(toZonedInput('2027-01-01T01:00:00Z', 'Asia/Tokyo')).toBe('2027-01-01T10:00');
    for (const wall of ['2027-03-14T01:30', '2027-03-14T03:30', '2027-11-07T00:59', '2027-11-07T03:00']) {
      expect(toZonedInput(fromZonedInput(wall, 'America/New_York')!.toISOString(), 'America/New_York')).toBe(wall);
    }
  });
});
