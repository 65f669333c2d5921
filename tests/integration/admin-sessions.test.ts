import { afterAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { anonClient, createMember, directTokenClient, seed, serviceClient, sessionIdOf, signedInClient } from './support/db-fixtures.ts';

// The Sessions tab's RPCs: what list_organization_sessions returns for the list (device, address, times), and
// terminate_session ending a session and logging `session_terminated` (migration 20261123001100) with what
// the audit sentence needs; refused callers end nothing and log nothing.
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
    const attackers: Array<[string, () => Promise<SupabaseClient>]> = [
      ['anon', async () => anonClient()],
      ['the admin of another organization', () => signedInClient(seed.users.otherAdmin.email)],
      ['an editor of the same organization', async () => (await member('editor')).client],
      ["an admin's session the server never vouched for", () => directTokenClient(seed.users.admin.email)],
    ];
    for (const [who, attacker] of attackers) {
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
