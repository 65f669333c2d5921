import { describe, expect, it } from 'vitest';
import { groupSessionsByUser, sessionIdOfAccessToken, type MemberSession } from '../../../../src/lib/back-office/sessions.ts';

const session = (session_id: string, user_id: string, last_activity: string): MemberSession => ({
  session_id, user_id, full_name: `Name ${user_id}`, email: `${user_id}@example.com`, created_at: '2026-11-23T08:00:00Z', last_activity,
  expires_at: null, user_agent: null, ip: null,
});
const jwt = (payload: unknown) => `e30.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.signature`;

describe('sessionIdOfAccessToken', () => {
  it('reads the session_id claim of a JWT (base64url, unpadded)', () => {
    expect(sessionIdOfAccessToken(jwt({ sub: 'u', session_id: 'a0000000-0000-4000-8000-00000000000f', name: '??>' }))).toBe('a0000000-0000-4000-8000-00000000000f');
  });
  it.each([[null], [undefined], [''], ['not-a-jwt'], ['a.%%%.c'], [jwt({ sub: 'u' })], [jwt('text')], [jwt({ session_id: 42 })]])(
    'gives null for %j', (token) => expect(sessionIdOfAccessToken(token)).toBeNull());
});

describe('groupSessionsByUser', () => {
  const sessions = [
    session('s1', 'bob', '2026-11-23T10:05:00Z'),
    session('s2', 'me', '2026-11-23T10:04:00Z'),
    session('s3', 'bob', '2026-11-23T10:03:00Z'),
    session('s4', 'carol', '2026-11-23T10:06:00Z'),
    session('s5', 'me', '2026-11-23T10:01:00Z'),
  ];
  it('puts your group first with this device first, then people by their latest activity', () => {
    const groups = groupSessionsByUser(sessions, 's5');
    expect(groups.map((g) => [g.user_id, g.sessions.map((s) => s.session_id)])).toEqual([
      ['me', ['s5', 's2']],
      ['carol', ['s4']],
      ['bob', ['s1', 's3']],
    ]);
    expect(groups[0]).toMatchObject({ full_name: 'Name me', email: 'me@example.com' });
  });
  it('orders by activity alone when this device is not listed', () => {
    expect(groupSessionsByUser(sessions, null).map((g) => g.user_id)).toEqual(['carol', 'bob', 'me']);
    expect(groupSessionsByUser([], 's1')).toEqual([]);
  });
});
