/**
 * The Sessions and Profile tabs' lib modules against the real backend, as a user created for the test
 * (made admin through the service client) so the seed's users and sessions stay as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import { backend, createMember, seed, sessionIdOf, signedInClient } from './support/db-fixtures.ts';
import { removeMember, type Member } from './support/auth-users.ts';
import { listMemberSessions, terminateBrowserSessions } from '../../src/lib/back-office/sessions.ts';
import { changeOwnPassword, PasswordChangeError } from '../../src/lib/back-office/password.ts';

const config = { url: backend.url, anonKey: backend.anonKey };
let admin: Member;
let viewer: Member;

beforeAll(async () => {
  admin = await createMember('admin');
  viewer = await createMember('viewer');
});
afterAll(async () => {
  await removeMember(admin);
  await removeMember(viewer);
});

describe('sessions', () => {
  it('lists a member session for an admin and ends it at once', async () => {
    const adminClient = await signedInClient(admin.email);
    const viewerClient = await signedInClient(viewer.email);
    const viewerSession = await sessionIdOf(viewerClient);
    const listed = await listMemberSessions(adminClient, seed.scalePro);
    const row = listed.find((s) => s.session_id === viewerSession);
    expect(row).toMatchObject({ user_id: viewer.id, email: viewer.email, full_name: 'Test viewer' });
    expect(await terminateBrowserSessions(adminClient, viewerSession)).toBeGreaterThanOrEqual(1);
    expect((await listMemberSessions(adminClient, seed.scalePro)).some((s) => s.session_id === viewerSession)).toBe(false);
    const { error } = await viewerClient.auth.getUser();
    expect(error?.status).toBeGreaterThanOrEqual(400);
  });

  it('refuses the list to a non-admin', async () => {
    const viewerClient = await signedInClient(viewer.email);
    await expect(listMemberSessions(viewerClient, seed.scalePro)).rejects.toThrow(/only an admin/);
  });
});

describe('changeOwnPassword', () => {
  it('refuses a wrong current password and changes nothing', async () => {
    const client = await signedInClient(admin.email);
    const form = { currentPassword: 'wrong-password-1A', newPassword: 'Brand-new-Pass1', confirmPassword: 'Brand-new-Pass1' };
    await expect(changeOwnPassword(client, admin, form, config)).rejects.toBeInstanceOf(PasswordChangeError);
    await expect(signedInClient(admin.email, seed.password)).resolves.toBeDefined();
  });

  it('changes the password, ends the other sessions and logs password_changed', async () => {
    const other = await signedInClient(admin.email);
    const client = await signedInClient(admin.email);
    const newPassword = 'Changed-Pass-2026';
    await changeOwnPassword(client, admin, { currentPassword: seed.password, newPassword, confirmPassword: newPassword }, config);
    expect((await other.auth.getUser()).error).not.toBeNull();
    expect((await client.auth.getUser()).data.user?.id).toBe(admin.id);
    const fresh = createClient(backend.url, backend.anonKey, { auth: { persistSession: false } });
    expect((await fresh.auth.signInWithPassword({ email: admin.email, password: seed.password })).error).not.toBeNull();
    expect((await fresh.auth.signInWithPassword({ email: admin.email, password: newPassword })).error).toBeNull();
    const { data } = await client.from('user_activity_logs').select('action, details').eq('user_id', admin.id).eq('action', 'password_changed');
    expect(data).toHaveLength(1);
    expect(data?.[0]?.details).toMatchObject({ method: 'admin_dashboard' });
    expect(typeof data?.[0]?.details.timestamp).toBe('string');
  });
});
