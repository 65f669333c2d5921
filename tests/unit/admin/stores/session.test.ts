import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { INITIAL_SESSION_STATE, reduceSession, type SessionState } from '../../../../src/admin/stores/session';

const session = { access_token: 'a.b.c', refresh_token: 'r', user: { id: 'u1' } } as unknown as Session;
const signedIn: SessionState = { status: 'signed-in', session, recovery: false, lastEvent: 'SIGNED_IN' };

describe('reduceSession', () => {
  it.each<[AuthChangeEvent, Session | null, SessionState['status']]>([
    ['INITIAL_SESSION', null, 'signed-out'],
    ['INITIAL_SESSION', session, 'signed-in'],
    ['SIGNED_IN', session, 'signed-in'],
    ['TOKEN_REFRESHED', session, 'signed-in'],
    ['USER_UPDATED', session, 'signed-in'],
    ['MFA_CHALLENGE_VERIFIED', session, 'signed-in'],
    ['SIGNED_OUT', null, 'signed-out'],
  ])('%s leads to %s', (event, next, status) => {
    const { state } = reduceSession(INITIAL_SESSION_STATE, event, next, false);
    expect(state).toMatchObject({ status, session: next, lastEvent: event });
  });

  it('marks a recovery until sign-out', () => {
    const recovering = reduceSession(INITIAL_SESSION_STATE, 'PASSWORD_RECOVERY', session, false).state;
    expect(recovering.recovery).toBe(true);
    expect(reduceSession(recovering, 'TOKEN_REFRESHED', session, false).state.recovery).toBe(true);
    expect(reduceSession(recovering, 'SIGNED_OUT', null, true).state.recovery).toBe(false);
  });

  it('reports an expired session when a signed-in session is lost without signing out', () => {
    expect(reduceSession(signedIn, 'SIGNED_OUT', null, false).expired).toBe(true);
  });

  it.each<[string, SessionState, boolean]>([
    ['the user signed out', signedIn, true],
    ['nobody was signed in', { ...INITIAL_SESSION_STATE, status: 'signed-out' }, false],
    ['the page was still loading', INITIAL_SESSION_STATE, false],
  ])('does not report expiry when %s', (_case, previous, signingOut) => {
    expect(reduceSession(previous, 'SIGNED_OUT', null, signingOut).expired).toBe(false);
  });
});
