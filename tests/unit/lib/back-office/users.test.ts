import { describe, expect, it } from 'vitest';
import { invitationState } from '../../../../src/lib/back-office/users.ts';

describe('invitationState', () => {
  const now = new Date('2026-11-23T12:00:00Z');
  const later = '2026-11-30T12:00:00Z';
  const earlier = '2026-11-20T12:00:00Z';
  it.each([
    ['pending', { used_at: null, revoked_at: null, expires_at: later }],
    ['expired', { used_at: null, revoked_at: null, expires_at: earlier }],
    ['expired', { used_at: null, revoked_at: null, expires_at: now.toISOString() }],
    ['accepted', { used_at: earlier, revoked_at: null, expires_at: later }],
    ['accepted', { used_at: earlier, revoked_at: null, expires_at: earlier }],
    ['revoked', { used_at: null, revoked_at: earlier, expires_at: earlier }],
  ] as const)('%s for %j', (state, row) => {
    expect(invitationState(row, now)).toBe(state);
  });
});
