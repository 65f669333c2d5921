/**
 * The request guard (private.check_request, PostgREST's pre-request function): a signed-in request whose
 * session ended, whose account was switched off, or whose every membership was deactivated is refused
 * outright (never answered with empty data), and writes nothing; anonymous and service-role requests and
 * members with access left are untouched. Through supabase-js against the local backend, as the browser.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { accessEndedReason } from '../../src/lib/back-office/supabase-browser.ts';
import { removeMember, type Member } from './support/auth-users.ts';
import { anonClient, createMember, directTokenClient, seed, serviceClient, sessionIdOf, signedInClient } from './support/db-fixtures.ts';

const service = serviceClient();
const members: Member[] = [];

afterAll(async () => {
  await Promise.all(members.map(removeMember));
  await service.from('blog_categories').delete().like('slug', 'guard-%');
});

async function member(role: 'admin' | 'editor' | 'viewer') {
  const made = await createMember(role);
  members.push(made);
  return { ...made, client: await signedInClient(made.email) };
}

/** Tries to create a category as `client`; answers the error and whether a row was written. */
async function tryWrite(client: SupabaseClient) {
  const slug = `guard-${crypto.randomUUID().slice(0, 8)}`;
  const { error, status } = await client.from('blog_categories').insert({ organization_id: seed.scalePro, name: slug, slug });
  const { data } = await service.from('blog_categories').select('id').eq('slug', slug);
  return { status, message: error?.message, written: (data ?? []).length > 0 };
}

describe('the request guard', () => {
  it('lets a member with a live session through', async () => {
    const editor = await member('editor');
    const { data, error } = await editor.client.from('blog_posts').select('id').eq('organization_id', seed.scalePro).limit(1);
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    expect((await tryWrite(editor.client)).written).toBe(true);
  });

  it('refuses every request of a terminated session with 401 session_ended, public rows included', async () => {
    const editor = await member('editor');
    const { error: ended } = await service.rpc('terminate_session', { p_session_id: await sessionIdOf(editor.client) });
    expect(ended).toBeNull();

    const read = await editor.client.from('organizations').select('id');
    expect(read.status).toBe(401);
    expect(read.error?.message).toBe('session_ended');
    expect(read.data).toBeNull();
    expect(await tryWrite(editor.client)).toEqual({ status: 401, message: 'session_ended', written: false });
  });

  it('refuses a session taken straight from Auth (not vouched for by the sign-in) the same way', async () => {
    const direct = await directTokenClient(seed.users.editor.email);
    expect((await direct.from('blog_posts').select('id')).error?.message).toBe('session_ended');
    expect((await direct.rpc('org_role', { org: seed.scalePro })).status).toBe(401);
    expect((await tryWrite(direct)).written).toBe(false);
  });

  it('refuses a deactivated account with 403 account_inactive', async () => {
    const editor = await member('editor');
    await service.from('profiles').update({ is_active: false }).eq('id', editor.id);
    const read = await editor.client.from('blog_posts').select('id');
    expect(read.status).toBe(403);
    expect(read.error?.message).toBe('account_inactive');
    expect(await tryWrite(editor.client)).toEqual({ status: 403, message: 'account_inactive', written: false });
  });

  it('refuses a member whose every membership was deactivated with 403 membership_ended', async () => {
    const editor = await member('editor');
    await service.from('organization_memberships').update({ is_active: false }).eq('user_id', editor.id);
    const read = await editor.client.from('blog_posts').select('id');
    expect(read.status).toBe(403);
    expect(read.error?.message).toBe('membership_ended');
    expect(await tryWrite(editor.client)).toEqual({ status: 403, message: 'membership_ended', written: false });
  });

  it('lets a member deactivated in one organization keep working in another, with nothing of the first', async () => {
    const editor = await member('editor');
    await service.from('organization_memberships').insert({ user_id: editor.id, organization_id: seed.evergreen, role: 'viewer' });
    await service.from('organization_memberships').update({ is_active: false }).eq('user_id', editor.id).eq('organization_id', seed.scalePro);
    const { data, error } = await editor.client.from('blog_posts').select('id, organization_id').neq('status', 'published');
    expect(error).toBeNull();
    expect(data?.every((row) => row.organization_id === seed.evergreen)).toBe(true);
    expect((await tryWrite(editor.client)).written).toBe(false);
  });

  it('leaves anonymous and service-role requests alone', async () => {
    expect((await anonClient().from('organizations').select('id')).data?.length).toBeGreaterThan(0);
    expect((await service.from('organizations').select('id')).data?.length).toBeGreaterThan(0);
  });

  it('gives the browser a reason it can act on, and none for other refusals', async () => {
    const editor = await member('editor');
    await service.rpc('terminate_session', { p_session_id: await sessionIdOf(editor.client) });
    const { backend } = await import('./support/db-fixtures.ts');
    const { data: session } = await editor.client.auth.getSession();
    const refused = await fetch(`${backend.url}/rest/v1/organizations?select=id`, {
      headers: { apikey: backend.anonKey, authorization: `Bearer ${session.session!.access_token}` },
    });
    expect(await accessEndedReason(refused)).toBe('session_ended');

    const viewer = await member('viewer');
    const { data: live } = await viewer.client.auth.getSession();
    const forbidden = await fetch(`${backend.url}/rest/v1/rpc/rotate_webhook_token`, {
      method: 'POST',
      headers: { apikey: backend.anonKey, authorization: `Bearer ${live.session!.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ p_organization_id: seed.scalePro }),
    });
    expect(forbidden.status).toBe(403);
    expect(await accessEndedReason(forbidden)).toBeNull();
  });
});
