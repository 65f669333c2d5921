import { describe, expect, it } from 'vitest';
import { groupSessionsByUser, sessionIdOfAccessToken, type MemberSession } from '../../../../src/lib/back-office/sessions.ts';

const session = (session_id: string, user_id: string, last_activity: string, user_agent: string | null = session_id, created_at = '2026-11-23T08:00:00Z'): MemberSession => ({
  session_id, user_id, full_name: `Name ${user_id}`, email: `${user_id}@example.com`, created_at, last_activity,
  expires_at: null, user_agent, ip: null,
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
    expect(groups.map((g) => [g.user_id, g.browsers.map((b) => b.latest.session_id)])).toEqual([
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
  it("makes one entry of a person's sessions in one browser: the latest shown, the first sign-in kept, others' apart", () => {
    const chrome = 'Chrome on Windows';
    const groups = groupSessionsByUser([
      session('a1', 'me', '2026-11-23T10:00:00Z', chrome, '2026-11-20T08:00:00Z'),
      session('a2', 'me', '2026-11-23T12:00:00Z', chrome, '2026-11-22T08:00:00Z'),
      session('a3', 'me', '2026-11-23T11:00:00Z', chrome, '2026-11-21T08:00:00Z'),
      session('b1', 'me', '2026-11-23T09:00:00Z', 'Safari on iOS'),
      session('c1', 'bob', '2026-11-23T09:30:00Z', chrome),
      session('n1', 'bob', '2026-11-23T09:00:00Z', null),
      session('n2', 'bob', '2026-11-23T08:30:00Z', null),
    ], null);
    expect(groups.map((g) => g.browsers.map((b) => [b.latest.session_id, b.sessions.map((s) => s.session_id), b.firstSignIn]))).toEqual([
      [['a2', ['a2', 'a3', 'a1'], '2026-11-20T08:00:00Z'], ['b1', ['b1'], '2026-11-23T08:00:00Z']],
      [['c1', ['c1'], '2026-11-23T08:00:00Z'], ['n1', ['n1', 'n2'], '2026-11-23T08:00:00Z']],
    ]);
    // The browser in use here shows its own session, however recent the others.
    expect(groupSessionsByUser([session('x1', 'me', '2026-11-23T12:00:00Z', chrome), session('x2', 'me', '2026-11-23T08:00:00Z', chrome)], 'x2')[0]!.browsers[0]!.latest.session_id).toBe('x2');
  });
});
