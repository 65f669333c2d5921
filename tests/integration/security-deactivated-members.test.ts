/**
 * Admins reach only the active members of their organization (migration
 * 20261125000300_admins_reach_active_members.sql). A person active at Evergreen whom Scale Pro's admin
 * deactivated: that admin, through the raw API and the function as an attacker would, can no longer list the
 * person's sessions, end them, read their sign-in attempts or send them a reset mail, and nothing is written.
 * Each refusal has its control: once the membership is active again, the same request succeeds.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import passwordReset from '../../netlify/functions/admin-password-reset.mts';
import { removeMember, type Member } from './support/auth-users.ts';
import { backend, createMember, seed, serviceClient, sessionIdOf, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const startedAt = new Date().toISOString();
let person: Member;
let personClient: SupabaseClient;
let personSession: string;
let scaleAdmin: SupabaseClient;

async function setScaleMembership(active: boolean) {
  const { error } = await service.from('organization_memberships').update({ is_active: active }).eq('user_id', person.id).eq('organization_id', seed.scalePro);
  if (error) throw new Error(error.message);
}

async function outboxCount(to: string): Promise<number> {
  const response = await fetch(`${backend.url}/__local/outbox?to=${encodeURIComponent(to)}`, {
    headers: { apikey: backend.serviceRoleKey, authorization: `Bearer ${backend.serviceRoleKey}` },
  });
  if (!response.ok) throw new Error(`the outbox answered ${response.status}`);
  return ((await response.json()) as unknown[]).length;
}

async function resetAsScaleAdmin(): Promise<Response> {
  const token = (await scaleAdmin.auth.getSession()).data.session?.access_token;
  return passwordReset(new Request('http://localhost:8888/api/admin/password-reset', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ organization_id: seed.scalePro, user_id: person.id }),
  }));
}

/** Whether the person's session still reads (the request guard refuses an ended one with 401). */
const sessionAlive = async () => (await personClient.from('organizations').select('id').limit(1)).status === 200;

beforeAll(async () => {
  person = await createMember('editor', seed.evergreen);
  const joined = await service.from('organization_memberships').insert({ user_id: person.id, organization_id: seed.scalePro, role: 'editor', is_active: false });
  if (joined.error) throw new Error(joined.error.message);
  personClient = await signedInClient(person.email);
  personSession = await sessionIdOf(personClient);
  scaleAdmin = await signedInClient(seed.users.admin.email);
});

afterAll(async () => {
  await removeMember(person);
  await service.from('login_attempts').delete().eq('email', person.email);
  await service.from('user_activity_logs').delete().eq('user_id', seed.users.admin.id).gte('created_at', startedAt);
});

describe('a member deactivated here, active elsewhere, is out of this admin\'s reach', () => {
  it('their sessions are not listed', async () => {
    const { data, error } = await scaleAdmin.rpc('list_organization_sessions', { p_organization_id: seed.scalePro });
    expect(error).toBeNull();
    expect((data as { user_id: string }[]).map((row) => row.user_id)).not.toContain(person.id);
  });

  it('their session cannot be ended (42501); it stays alive and nothing is logged', async () => {
    const { error } = await scaleAdmin.rpc('terminate_session', { p_session_id: personSession });
    expect(error?.code).toBe('42501');
    expect(await sessionAlive()).toBe(true);
    const { data } = await service.from('user_activity_logs').select('id').eq('action', 'session_terminated').eq('resource_id', personSession);
    expect(data).toEqual([]);
  });

  it('their sign-in attempts are not readable', async () => {
    const { data: stored } = await service.from('login_attempts').select('id').eq('email', person.email);
    expect(stored!.length).toBeGreaterThan(0);
    const { data } = await scaleAdmin.from('login_attempts').select('id').eq('email', person.email);
    expect(data).toEqual([]);
  });

  it('no reset mail is sent (404) and nothing is logged', async () => {
    const before = await outboxCount(person.email);
    const answer = await resetAsScaleAdmin();
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: 'This person is not an active member of the organization.' });
    expect(await outboxCount(person.email)).toBe(before);
    const { data } = await service.from('user_activity_logs').select('id').eq('action', 'password_reset_by_admin').eq('resource_id', person.id);
    expect(data).toEqual([]);
  });
});

describe('control: active again, the same requests succeed', () => {
  beforeAll(() => setScaleMembership(true));

  it('lists their session, reads their attempts, mails them, and ends their session', async () => {
    const { data: sessions } = await scaleAdmin.rpc('list_organization_sessions', { p_organization_id: seed.scalePro });
    expect((sessions as { session_id: string }[]).map((row) => row.session_id)).toContain(personSession);
    const { data: attempts } = await scaleAdmin.from('login_attempts').select('id').eq('email', person.email);
    expect(attempts!.length).toBeGreaterThan(0);
    const before = await outboxCount(person.email);
    expect((await resetAsScaleAdmin()).status).toBe(200);
    expect(await outboxCount(person.email)).toBe(before + 1);
    const { error } = await scaleAdmin.rpc('terminate_session', { p_session_id: personSession });
    expect(error).toBeNull();
    expect(await sessionAlive()).toBe(false);
  });
});
