import { afterAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { anonClient, createMember, directTokenClient, seed, serviceClient, sessionIdOf, signedInClient, withDatabase } from './support/db-fixtures.ts';

// The Sessions tab's RPCs: what list_organization_sessions returns for the list (device, address, times, a last
// activity that follows token refreshes and the back office's notes of use), and terminate_session ending a
// session and logging `session_terminated` (migration 20261123001100) with what the audit sentence needs;
// refused callers end nothing and log nothing; terminate_browser_sessions ending a person's sessions in one
// browser (the same user agent) and no other, under the same rule.
const service = serviceClient();
const members: Array<{ remove: () => PromiseLike<unknown> }> = [];
afterAll(async () => {
  for (const member of members) await member.remove();
});

async function member(role: 'admin' | 'editor' | 'viewer', organizationId: string = seed.scalePro) {
  const created = await createMember(role, organizationId);
  members.push(created);
  const client = await signedInClient(created.email);
  return { ...created, client, sessionId: await sessionIdOf(client) };
}

/** Who may not end a member's session: each makes its own client. */
const ATTACKERS: Array<[string, () => Promise<SupabaseClient>]> = [
  ['anon', async () => anonClient()],
  ['the admin of another organization', () => signedInClient(seed.users.otherAdmin.email)],
  ['an editor of the same organization', async () => (await member('editor')).client],
  ["an admin's session the server never vouched for", () => directTokenClient(seed.users.admin.email)],
];

async function liveSessionIds(organizationId: string = seed.scalePro): Promise<string[]> {
  const { data, error } = await service.rpc('list_organization_sessions', { p_organization_id: organizationId });
  if (error) throw new Error(error.message);
  return (data as Array<{ session_id: string }>).map((s) => s.session_id);
}

async function terminationLogs(sessionId: string) {
  const { data, error } = await service
    .from('user_activity_logs')
    .select('user_id, organization_id, action, resource_type, resource_id, details')
    .eq('action', 'session_terminated')
    .eq('resource_id', sessionId);
  if (error) throw new Error(error.message);
  return data;
}

describe('list_organization_sessions', () => {
  it('gives an admin each session with its user agent, IP and last activity', async () => {
    const viewer = await member('viewer');
    const admin = await signedInClient(seed.users.admin.email);
    const { data, error } = await admin.rpc('list_organization_sessions', { p_organization_id: seed.scalePro });
    expect(error).toBeNull();
    const row = (data as Array<Record<string, unknown>>).find((s) => s.session_id === viewer.sessionId);
    expect(row).toMatchObject({ user_id: viewer.id, email: viewer.email, full_name: 'Test viewer', user_agent: 'integration-tests', expires_at: null });
    expect(Date.parse(String(row?.last_activity))).toBeGreaterThanOrEqual(Date.parse(String(row?.created_at)));
    expect(row).toHaveProperty('ip');
  });
});

/** The session's row as the admin's Sessions list gives it. */
async function listed(sessionId: string) {
  const { data, error } = await service.rpc('list_organization_sessions', { p_organization_id: seed.scalePro });
  if (error) throw new Error(error.message);
  return (data as Array<{ session_id: string; created_at: string; last_activity: string; user_agent: string | null }>).find((s) => s.session_id === sessionId);
}

/** Moves everything the session has recorded an hour into the past, as if signed in and last used then. */
const backdateSession = (sessionId: string) =>
  withDatabase(async (db) => {
    await db.query(
      `update auth.sessions set created_at = created_at - interval '1 hour', updated_at = updated_at - interval '1 hour',
         refreshed_at = refreshed_at - interval '1 hour' where id = $1`,
      [sessionId],
    );
    await db.query(`update private.session_activity set seen_at = seen_at - interval '1 hour' where session_id = $1`, [sessionId]);
  });

const secondsAgo = (time: string | undefined) => (Date.now() - Date.parse(String(time))) / 1000;

describe('last activity', () => {
  it('moves when the session refreshes its token through /auth/v1; the sign-in time stays', async () => {
    const viewer = await member('viewer');
    await backdateSession(viewer.sessionId);
    const before = await listed(viewer.sessionId);
    expect(secondsAgo(before?.last_activity)).toBeGreaterThan(3500);

    const { data, error } = await viewer.client.auth.refreshSession();
    expect(error).toBeNull();
    expect(await sessionIdOf(viewer.client)).toBe(viewer.sessionId);
    const after = await listed(viewer.sessionId);
    expect(secondsAgo(after?.last_activity)).toBeLessThan(60);
    expect(after?.created_at).toBe(before?.created_at);
    // The refreshed session goes on reading data.
    expect(data.session?.access_token).toBeTruthy();
    expect((await viewer.client.from('profiles').select('id').eq('id', viewer.id)).data).toHaveLength(1);
  });

  it("moves when the back office notes its use (note_session_activity), at most once a minute, for the caller's own session only", async () => {
    const editor = await member('editor');
    const other = await member('viewer');
    await backdateSession(editor.sessionId);
    await backdateSession(other.sessionId);

    expect((await editor.client.rpc('note_session_activity')).error).toBeNull();
    const noted = await listed(editor.sessionId);
    expect(secondsAgo(noted?.last_activity)).toBeLessThan(60);
    expect(secondsAgo((await listed(other.sessionId))?.last_activity)).toBeGreaterThan(3500);

    // A second note within the minute writes nothing.
    const seen = () => withDatabase(async (db) => (await db.query('select seen_at from private.session_activity where session_id = $1', [editor.sessionId])).rows[0]?.seen_at as Date);
    const first = await seen();
    expect((await editor.client.rpc('note_session_activity')).error).toBeNull();
    expect(await seen()).toEqual(first);
  });

  it('records nothing for callers without a vouched-for session, and nobody reads or writes the notes directly', async () => {
    const victim = await member('viewer');
    await backdateSession(victim.sessionId);
    const anon = await anonClient().rpc('note_session_activity');
    expect(anon.error).not.toBeNull();
    const unvouched = await directTokenClient(seed.users.admin.email);
    await unvouched.rpc('note_session_activity');
    expect(await withDatabase(async (db) => (await db.query('select 1 from private.session_activity where session_id = $1', [await sessionIdOf(unvouched)])).rowCount)).toBe(0);
    for (const client of [anonClient(), victim.client]) {
      const read = await client.schema('private' as 'public').from('session_activity').select('*');
      expect(read.error).not.toBeNull();
    }
    expect(secondsAgo((await listed(victim.sessionId))?.last_activity)).toBeGreaterThan(3500);
  });
});

describe('terminate_session', () => {
  it("an admin ends a member's session: it is gone and the organization's log names both", async () => {
    const viewer = await member('viewer');
    const admin = await signedInClient(seed.users.admin.email);
    expect((await admin.rpc('terminate_session', { p_session_id: viewer.sessionId })).error).toBeNull();
    expect(await liveSessionIds()).not.toContain(viewer.sessionId);
    expect(await terminationLogs(viewer.sessionId)).toEqual([{
      user_id: seed.users.admin.id, organization_id: seed.scalePro, action: 'session_terminated', resource_type: 'session',
      resource_id: viewer.sessionId,
      details: expect.objectContaining({ user_id: viewer.id, email: viewer.email, full_name: 'Test viewer', own_session: false, user_agent: 'integration-tests' }),
    }]);
  });

  it('a member ends their own session (signing out elsewhere), logged in their organization as themselves', async () => {
    const editor = await member('editor');
    const other = await signedInClient(editor.email);
    const otherSession = await sessionIdOf(other);
    // Ending the session the call itself runs on works too (the actor is read before the delete).
    for (const sessionId of [otherSession, editor.sessionId]) {
      expect((await editor.client.rpc('terminate_session', { p_session_id: sessionId })).error).toBeNull();
      expect(await terminationLogs(sessionId)).toEqual([expect.objectContaining({
        user_id: editor.id, organization_id: seed.scalePro,
        details: expect.objectContaining({ user_id: editor.id, email: editor.email, full_name: 'Test editor', own_session: true }),
      })]);
    }
    expect(await liveSessionIds()).not.toContain(editor.sessionId);
  });

  it('refuses callers who may not end the session, ending nothing and logging nothing', async () => {
    const victim = await member('viewer');
    for (const [who, attacker] of ATTACKERS) {
      const { error } = await (await attacker()).rpc('terminate_session', { p_session_id: victim.sessionId });
      expect(error, who).not.toBeNull();
      expect(await liveSessionIds(), who).toContain(victim.sessionId);
      expect(await terminationLogs(victim.sessionId), who).toEqual([]);
    }
    // The victim still reads data: the session really is alive.
    expect((await victim.client.from('profiles').select('id').eq('id', victim.id)).data).toHaveLength(1);
  });

  it('the server ending a session logs nothing (it has no actor)', async () => {
    const viewer = await member('viewer');
    expect((await service.rpc('terminate_session', { p_session_id: viewer.sessionId })).error).toBeNull();
    expect(await liveSessionIds()).not.toContain(viewer.sessionId);
    expect(await terminationLogs(viewer.sessionId)).toEqual([]);
  });
});

/** Gives the session the user agent a browser would have announced at sign-in. */
const setUserAgent = (sessionId: string, userAgent: string) =>
  withDatabase((db) => db.query('update auth.sessions set user_agent = $2 where id = $1', [sessionId, userAgent]));

describe('terminate_browser_sessions', () => {
  const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
  const SAFARI = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

  /** A viewer signed in three times in one browser and once on a phone. */
  async function viewerWithBrowsers() {
    const viewer = await member('viewer');
    const again = [await signedInClient(viewer.email), await signedInClient(viewer.email)];
    const chrome = [viewer.sessionId, ...(await Promise.all(again.map(sessionIdOf)))];
    const phoneClient = await signedInClient(viewer.email);
    const phone = await sessionIdOf(phoneClient);
    for (const id of chrome) await setUserAgent(id, CHROME);
    await setUserAgent(phone, SAFARI);
    return { viewer, chrome, phone, phoneClient };
  }

  it("an admin ends a member's sessions in one browser, in one logged entry; their phone stays signed in", async () => {
    const { viewer, chrome, phone, phoneClient } = await viewerWithBrowsers();
    const admin = await signedInClient(seed.users.admin.email);
    const { data, error } = await admin.rpc('terminate_browser_sessions', { p_session_id: chrome[1] });
    expect(error).toBeNull();
    expect(data).toBe(3);
    const live = await liveSessionIds();
    for (const id of chrome) expect(live).not.toContain(id);
    expect(live).toContain(phone);
    expect((await phoneClient.from('profiles').select('id').eq('id', viewer.id)).data).toHaveLength(1);
    expect(await terminationLogs(chrome[1]!)).toEqual([expect.objectContaining({
      user_id: seed.users.admin.id, details: expect.objectContaining({ user_id: viewer.id, sessions: 3, user_agent: CHROME }),
    })]);
    for (const id of [chrome[0]!, chrome[2]!]) expect(await terminationLogs(id)).toEqual([]);
  });

  it("leaves other people's sessions in the same browser alone", async () => {
    const { chrome } = await viewerWithBrowsers();
    const editor = await member('editor');
    await setUserAgent(editor.sessionId, CHROME);
    expect((await editor.client.rpc('terminate_browser_sessions', { p_session_id: editor.sessionId })).data).toBe(1);
    const live = await liveSessionIds();
    expect(live).not.toContain(editor.sessionId);
    for (const id of chrome) expect(live).toContain(id);
  });

  it('refuses callers who may not end the sessions, ending none and logging nothing', async () => {
    const { chrome, phone } = await viewerWithBrowsers();
    for (const [who, attacker] of ATTACKERS) {
      const { error } = await (await attacker()).rpc('terminate_browser_sessions', { p_session_id: chrome[0] });
      expect(error, who).not.toBeNull();
      const live = await liveSessionIds();
      for (const id of [...chrome, phone]) expect(live, who).toContain(id);
      expect(await terminationLogs(chrome[0]!), who).toEqual([]);
    }
  });
});
