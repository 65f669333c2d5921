import { describe, expect, it } from 'vitest';
import {
  clientInfoFrom,
  FAILURE_REASONS,
  LOCKOUT_DURATION_MS,
  lockedUntil,
  type AttemptRow,
} from '../../../src/lib/server/login-attempts';

const now = new Date('2026-11-21T12:00:00Z');
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
const failure = (minutes: number, reason: string = FAILURE_REASONS.invalidCredentials): AttemptRow => ({
  success: false,
  failure_reason: reason,
  created_at: minutesAgo(minutes),
});
const success = (minutes: number): AttemptRow => ({ success: true, failure_reason: null, created_at: minutesAgo(minutes) });

describe('lockedUntil', () => {
  it('locks for 15 minutes after the fifth failure within 15 minutes', () => {
    const attempts = [failure(1), failure(2), failure(3), failure(4), failure(5)];
    expect(lockedUntil(attempts, now)).toEqual(new Date(now.getTime() - 60_000 + LOCKOUT_DURATION_MS));
  });

  it.each<[string, AttemptRow[]]>([
    ['four failures', [failure(1), failure(2), failure(3), failure(4)]],
    ['five failures spread over more than 15 minutes', [failure(1), failure(5), failure(9), failure(13), failure(17)]],
    ['a lock whose 15 minutes are over', [failure(16), failure(17), failure(18), failure(19), failure(20)]],
    ['a success among the last five', [failure(1), failure(2), success(3), failure(4), failure(5), failure(6)]],
    ['a correct password without admin rights among them', [failure(1), failure(2), failure(3, FAILURE_REASONS.notAdmin), failure(4), failure(5)]],
  ])('does not lock after %s', (_case, attempts) => {
    expect(lockedUntil(attempts, now)).toBeNull();
  });

  it('ignores refusals during a lockout, so trying again does not extend it', () => {
    const locked = [failure(0, FAILURE_REASONS.lockedOut), failure(0.5, FAILURE_REASONS.lockedOut), failure(10), failure(11), failure(12), failure(13), failure(14)];
    expect(lockedUntil(locked, now)).toEqual(new Date(now.getTime() - 10 * 60_000 + LOCKOUT_DURATION_MS));
  });
});

describe('clientInfoFrom', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it.each<[string, Record<string, string>, string | undefined, string | null]>([
    ['Netlify’s client address first', { 'x-nf-client-connection-ip': '203.0.113.9', 'x-forwarded-for': '198.51.100.1' }, '10.0.0.1', '203.0.113.9'],
    ['else the first x-forwarded-for entry', { 'x-forwarded-for': '198.51.100.1, 10.0.0.2' }, '10.0.0.1', '198.51.100.1'],
    ['else the context address', {}, '2001:db8::1', '2001:db8::1'],
    ['never a value that is not an address', { 'x-nf-client-connection-ip': 'evil; drop table', 'x-forwarded-for': 'unknown' }, undefined, null],
  ])('%s', (_case, entries, contextIp, ip) => {
    expect(clientInfoFrom(headers({ ...entries, 'user-agent': 'Test/1.0' }), contextIp)).toEqual({ ip, userAgent: 'Test/1.0' });
  });
});
