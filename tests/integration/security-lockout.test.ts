/**
 * The lockout as an attacker meets it: the rule in SQL (begin_sign_in), parallel guesses, a stranger on
 * another address, an address spraying many accounts, and a password guessed straight at Supabase Auth's
 * token endpoint, which gives a session that reads nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import signInHandler from '../../netlify/functions/auth-sign-in.mts';
import { FAILURE_REASONS } from '../../src/lib/server/login-attempts.ts';
import { createMember, directTokenClient, seed, serviceClient } from './support/db-fixtures.ts';
import { removeMember, type Member } from './support/auth-users.ts';

const service = serviceClient();
const wrongPassword = 'Not-The-Password-9';
const members: Member[] = [];
const addresses: string[] = [];

/** A test address of its own (TEST-NET-3), so suites never share a lockout. */
function freshAddress(): string {
  const address = `203.0.113.${10 + addresses.length}`;
  addresses.push(address);
  return address;
}

function signIn(email: string, password: string, ip: string | null): Promise<Response> {
  return signInHandler(
    new Request('http://localhost/api/auth/sign-in', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(ip ? { 'x-nf-client-connection-ip': ip } : {}) },
      body: JSON.stringify({ email, password }),
    }),
  );
}

/** Stored attempts, `minutesAgo` each, as the lockout reads them. */
async function pastAttempts(email: string, ip: string | null, rows: Array<[minutesAgo: number, reason: string | null]>) {
  const { error } = await service.from('login_attempts').insert(
    rows.map(([minutes, reason]) => ({
      email,
      ip_address: ip,
      success: reason === null,
      failure_reason: reason,
      created_at: new Date(Date.now() - minutes * 60_000).toISOString(),
    })),
  );
  if (error) throw error;
}

const begin = async (email: string, ip: string | null) =>
  (await service.rpc('begin_sign_in', { p_email: email, p_ip: ip, p_user_agent: 'LockoutSuite' })).data as { attempt_id?: string; locked_until?: string };

let victim: Member;
beforeAll(async () => {
  victim = await createMember('admin');
  members.push(victim);
});

afterAll(async () => {
  await Promise.all(members.map(removeMember));
  await service.from('login_attempts').delete().in('ip_address', addresses);
});

const bad = FAILURE_REASONS.invalidCredentials;
const locked = FAILURE_REASONS.lockedOut;

describe('the rule (begin_sign_in), for one e-mail and address', () => {
  it.each<[string, Array<[number, string | null]>, boolean]>([
    ['five wrong passwords within 15 minutes', [[1, bad], [2, bad], [3, bad], [4, bad], [5, bad]], true],
    ['four wrong passwords', [[1, bad], [2, bad], [3, bad], [4, bad]], false],
    ['five spread over more than 15 minutes', [[1, bad], [5, bad], [9, bad], [13, bad], [17, bad]], false],
    ['a lock whose 15 minutes are over', [[16, bad], [17, bad], [18, bad], [19, bad], [20, bad]], false],
    ['a success among the last five', [[1, bad], [2, bad], [3, null], [4, bad], [5, bad], [6, bad]], false],
    ['a correct password of a deactivated account among them', [[1, bad], [2, bad], [3, FAILURE_REASONS.inactive], [4, bad], [5, bad]], false],
    ['refusals during a lockout, which do not extend it', [[0, locked], [0.5, locked], [10, bad], [11, bad], [12, bad], [13, bad], [14, bad]], true],
  ])('%s: locked %s', async (_case, rows, expected) => {
    const email = `rule-${crypto.randomUUID().slice(0, 8)}@scale-pro.test`;
    const ip = freshAddress();
    await pastAttempts(email, ip, rows);
    const answer = await begin(email, ip);
    expect('locked_until' in answer).toBe(expected);
    if (expected) {
      // Until 15 minutes after the newest counted failure.
      const newest = Math.min(...rows.filter(([, reason]) => reason === bad).map(([minutes]) => minutes));
      expect(Math.abs(Date.parse(answer.locked_until!) - (Date.now() - newest * 60_000 + 15 * 60_000))).toBeLessThan(5_000);
    }
  });
});

describe('attacks on the lockout', () => {
  it('twelve simultaneous guesses: at most five reach the password check, the rest are refused as locked', async () => {
    const ip = freshAddress();
    const answers = await Promise.all(Array.from({ length: 12 }, () => signIn(victim.email, wrongPassword, ip)));
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    // Then even the right password is refused from there.
    expect((await signIn(victim.email, seed.password, ip)).status).toBe(429);
  });

  it('a stranger who locks an admin from their own address does not lock the admin out elsewhere', async () => {
    const stranger = freshAddress();
    for (let i = 0; i < 5; i += 1) await signIn(victim.email, wrongPassword, stranger);
    expect((await signIn(victim.email, seed.password, stranger)).status).toBe(429);
    expect((await signIn(victim.email, seed.password, freshAddress())).status).toBe(200);
  });

  it('one address guessing across many accounts is stopped after 30 wrong passwords', async () => {
    const sprayer = freshAddress();
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => pastAttempts(`spray-${i}-${crypto.randomUUID().slice(0, 6)}@scale-pro.test`, sprayer, [[1, bad]])),
    );
    const answer = await signIn(victim.email, seed.password, sprayer);
    expect(answer.status).toBe(429);
    const { data } = await service.from('login_attempts').select('failure_reason').eq('email', victim.email).eq('ip_address', sprayer);
    expect(data).toEqual([{ failure_reason: locked }]);
  });

  it('a password guessed straight at /auth/v1/token gives a session that reads and writes nothing', async () => {
    const ip = freshAddress();
    for (let i = 0; i < 5; i += 1) await signIn(victim.email, wrongPassword, ip);
    expect((await signIn(victim.email, seed.password, ip)).status).toBe(429);

    const direct = await directTokenClient(victim.email);
    expect((await direct.auth.getUser()).data.user?.id).toBe(victim.id);
    // Every request is refused outright by the request guard (401 session_ended).
    expect((await direct.rpc('org_role', { org: seed.scalePro })).data).toBeNull();
    expect((await direct.from('profiles').select('email')).data ?? []).toEqual([]);
    expect((await direct.from('blog_posts').select('id').eq('status', 'draft')).data ?? []).toEqual([]);
    expect((await direct.from('user_invitations').select('id')).error?.message).toBe('session_ended');
    expect((await direct.rpc('list_organization_sessions', { p_organization_id: seed.scalePro })).status).toBe(401);
    const invited = await direct
      .from('user_invitations')
      .insert({ organization_id: seed.scalePro, email: 'accomplice@example.com', role: 'admin', token_hash: 'f'.repeat(64), invited_by: victim.id });
    expect(invited.error?.message).toBe('session_ended');
    const renamed = await direct.from('organizations').update({ name: 'Owned' }).eq('id', seed.scalePro).select('id');
    expect(renamed.data ?? []).toEqual([]);
    const { data: org } = await service.from('organizations').select('name').eq('id', seed.scalePro).single();
    expect(org?.name).toBe('Scale Pro Marketing');
    expect((await service.from('user_invitations').select('id').eq('email', 'accomplice@example.com')).data).toEqual([]);
  });
});
