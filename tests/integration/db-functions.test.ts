import { afterAll, describe, expect, it } from 'vitest';
import { anonClient, createMember, seed, serviceClient, sessionIdOf, signedInClient } from './support/db-fixtures.ts';

// SQL functions and triggers, exercised through supabase-js as the app calls them.
const service = serviceClient();
const cleanups: Array<() => PromiseLike<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('public reads', () => {
  it('anon reads published posts only, never drafts or future scheduled posts', async () => {
    const anon = anonClient();
    const { data } = await anon.from('blog_posts').select('id, status').in('id', [seed.publishedPost, seed.draftPost, seed.scheduledPost]);
    expect(data).toEqual([{ id: seed.publishedPost, status: 'published' }]);
  });

  it('anon reads the author card of a published author but never the email', async () => {
    const anon = anonClient();
    const card = await anon.from('profiles').select('id, full_name, author_title').eq('id', seed.users.admin.id);
    expect(card.data).toEqual([{ id: seed.users.admin.id, full_name: 'Alex Morgan', author_title: 'Founder & SEO Strategist' }]);
    const email = await anon.from('profiles').select('email').eq('id', seed.users.admin.id);
    expect(email.error?.code).toBe('42501');
  });

  it('anon can no longer bump a view counter: increment_post_view is gone', async () => {
    const anon = anonClient();
    const before = await service.from('blog_posts').select('view_count').eq('id', seed.publishedPost).single();
    const old = await anon.rpc('increment_post_view', { p_post_id: seed.publishedPost });
    expect(old.error).not.toBeNull();
    const after = await service.from('blog_posts').select('view_count').eq('id', seed.publishedPost).single();
    expect(after.data!.view_count).toBe(before.data!.view_count);
  });
});

describe('profile trigger', () => {
  it('creates a viewer profile without organization from a plain sign-up', async () => {
    const email = `signup-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { data, error } = await service.auth.admin.createUser({
      email, password: seed.password, email_confirm: true,
      user_metadata: { full_name: 'Plain Signup', organization_id: seed.scalePro },
    });
    expect(error).toBeNull();
    cleanups.push(() => service.auth.admin.deleteUser(data.user!.id));
    const profile = await service.from('profiles').select('email, full_name, role, organization_id').eq('id', data.user!.id).single();
    // organization_id in user metadata is anyone's to set: it only counts with an invitation.
    expect(profile.data).toEqual({ email, full_name: 'Plain Signup', role: 'viewer', organization_id: null });
  });

  it('ignores an organization claimed in user metadata and leaves a pending invitation for that address alone', async () => {
    const email = `invited-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const invitationId = crypto.randomUUID();
    await service.from('user_invitations').insert({
      id: invitationId, organization_id: seed.scalePro, email, role: 'admin', token_hash: 'a'.repeat(64 - 8) + invitationId.slice(0, 8),
    });
    const { data } = await service.auth.admin.createUser({
      email, password: seed.password, email_confirm: true,
      user_metadata: { full_name: 'Claimed Admin', organization_id: seed.scalePro, role: 'admin' },
    });
    cleanups.push(() => service.auth.admin.deleteUser(data.user!.id));
    cleanups.push(() => service.from('user_invitations').delete().eq('id', invitationId));
    const profile = await service.from('profiles').select('role, organization_id').eq('id', data.user!.id).single();
    expect(profile.data).toEqual({ role: 'viewer', organization_id: null });
    const membership = await service.from('organization_memberships').select('role').eq('user_id', data.user!.id);
    expect(membership.data).toEqual([]);
    const invitation = await service.from('user_invitations').select('used_at').eq('id', invitationId).single();
    expect(invitation.data!.used_at).toBeNull();
  });

  it('takes organization and role from app metadata, which only the service role writes', async () => {
    const email = `placed-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { data } = await service.auth.admin.createUser({
      email, password: seed.password, email_confirm: true, app_metadata: { organization_id: seed.scalePro, role: 'editor' },
    });
    cleanups.push(() => service.auth.admin.deleteUser(data.user!.id));
    const membership = await service.from('organization_memberships').select('organization_id, role').eq('user_id', data.user!.id);
    expect(membership.data).toEqual([{ organization_id: seed.scalePro, role: 'editor' }]);
  });
});

describe('role guards', () => {
  it('a viewer cannot raise their own role', async () => {
    const viewer = await signedInClient(seed.users.viewer.email);
    const { error } = await viewer.from('profiles').update({ role: 'admin' }).eq('id', seed.users.viewer.id);
    expect(error?.code).toBe('42501');
    const after = await service.from('profiles').select('role').eq('id', seed.users.viewer.id).single();
    expect(after.data!.role).toBe('viewer');
  });

  it('an admin changes roles in their organization, and the membership follows', async () => {
    const member = await createMember('viewer');
    cleanups.push(member.remove);
    const admin = await signedInClient(seed.users.admin.email);
    const { data, error } = await admin.from('profiles').update({ role: 'editor' }).eq('id', member.id).select('role');
    expect(error).toBeNull();
    expect(data).toEqual([{ role: 'editor' }]);
    const membership = await service.from('organization_memberships').select('role').eq('user_id', member.id).single();
    expect(membership.data!.role).toBe('editor');
  });

  it('the last active admin cannot be demoted or deactivated', async () => {
    const admin = await signedInClient(seed.users.otherAdmin.email);
    const demote = await admin.from('profiles').update({ role: 'editor' }).eq('id', seed.users.otherAdmin.id);
    expect(demote.error?.message).toContain('last_admin');
    const deactivate = await service.from('profiles').update({ is_active: false }).eq('id', seed.users.otherAdmin.id);
    expect(deactivate.error?.message).toContain('last_admin');
  });

  it('an editor may delete their own posts only', async () => {
    const editor = await signedInClient(seed.users.editor.email);
    const id = crypto.randomUUID();
    const created = await editor.from('blog_posts').insert({
      id, organization_id: seed.scalePro, title: 'Own post', slug: `own-${id.slice(0, 8)}`, content: '<p>x</p>', author_id: seed.users.editor.id,
    });
    expect(created.error).toBeNull();
    const deleted = await editor.from('blog_posts').delete().eq('id', id).select('id');
    expect(deleted.data).toEqual([{ id }]);
  });
});

describe('audit and sessions', () => {
  it('log_user_activity records the caller as the actor, and only the actions the app logs', async () => {
    const viewer = await signedInClient(seed.users.viewer.email);
    const own = await viewer.rpc('log_user_activity', { p_action: 'password_changed' });
    expect(own.error).toBeNull();
    const { data: entry } = await service.from('user_activity_logs').select('user_id, organization_id, action, details').eq('id', own.data).single();
    expect(entry).toEqual({ user_id: seed.users.viewer.id, organization_id: seed.scalePro, action: 'password_changed', details: { timestamp: expect.any(String), method: 'admin_dashboard' } });

    // The old way to write as someone else is gone; a server-only action and an unknown one are refused.
    const forOther = await viewer.rpc('log_user_activity', { p_user_id: seed.users.editor.id, p_action: 'role_changed' });
    expect(forOther.error).not.toBeNull();
    // Opening the dashboard is not an audit event any more, and the database logs role, status, profile,
    // session and post changes itself: nobody may forge those entries.
    for (const action of ['admin_login_success', 'invitation_accepted', 'admin_dashboard_access', 'role_changed', 'user_deactivated', 'session_terminated', 'post_deleted', 'x_probe']) {
      expect((await viewer.rpc('log_user_activity', { p_action: action })).error?.code).toBe('22023');
    }
    // The details are the database's: a member's own details, or a resource, never get into the log.
    expect((await viewer.rpc('log_user_activity', { p_action: 'password_changed', p_details: { blob: 'x'.repeat(5000) } })).error).not.toBeNull();
    const aboutSomeone = await viewer.from('user_activity_logs').insert({ user_id: seed.users.viewer.id, organization_id: seed.scalePro, action: 'admin_logout', resource_type: 'user', resource_id: seed.users.admin.id });
    expect(aboutSomeone.error?.code).toBe('42501');
    const withDetails = await viewer.from('user_activity_logs').insert({ user_id: seed.users.viewer.id, organization_id: seed.scalePro, action: 'admin_logout', details: { note: 'the admin was hacked', ip_address: '203.0.113.66' } }).select('id').single();
    expect(withDetails.error).toBeNull();
    const { data: written } = await service.from('user_activity_logs').select('details').eq('id', withDetails.data!.id).single();
    expect(written!.details).toEqual({ timestamp: expect.any(String) });
    await service.from('user_activity_logs').delete().eq('id', withDetails.data!.id);
    const otherOrg = await viewer.rpc('log_user_activity', { p_action: 'admin_logout', p_organization_id: seed.evergreen });
    expect(otherOrg.error?.code).toBe('42501');
    const forged = await viewer.from('user_activity_logs').insert({ user_id: seed.users.admin.id, organization_id: seed.scalePro, action: 'role_changed' });
    expect(forged.error?.code).toBe('42501');
    const anon = await anonClient().rpc('log_user_activity', { p_action: 'password_changed' });
    expect(anon.error).not.toBeNull();
    await service.from('user_activity_logs').delete().eq('id', own.data);
  });

  it('a terminated session loses access at once', async () => {
    const editor = await signedInClient(seed.users.editor.email);
    const before = await editor.from('blog_posts').select('id').eq('id', seed.draftPost);
    expect(before.data).toHaveLength(1);
    const admin = await signedInClient(seed.users.admin.email);
    const sessions = await admin.rpc('list_organization_sessions', { p_organization_id: seed.scalePro });
    const sessionId = await sessionIdOf(editor);
    expect(sessions.data.map((s: { session_id: string }) => s.session_id)).toContain(sessionId);
    const other = await signedInClient(seed.users.otherAdmin.email);
    expect((await other.rpc('terminate_session', { p_session_id: sessionId })).error?.code).toBe('42501');
    expect((await service.from('user_activity_logs').select('id').eq('resource_id', sessionId)).data).toEqual([]);
    expect((await admin.rpc('terminate_session', { p_session_id: sessionId })).error).toBeNull();
    const after = await editor.from('blog_posts').select('id').eq('id', seed.draftPost);
    expect(after.data ?? []).toHaveLength(0);
    // Logged by the database in the same transaction: who ended whose session, in the admin's organization.
    const { data: logged } = await service
      .from('user_activity_logs').select('user_id, organization_id, action, resource_type, details').eq('resource_id', sessionId);
    expect(logged).toEqual([{
      user_id: seed.users.admin.id, organization_id: seed.scalePro, action: 'session_terminated', resource_type: 'session',
      details: expect.objectContaining({ user_id: seed.users.editor.id, email: seed.users.editor.email, own_session: false }),
    }]);
  });

  it('only the service role may receive webhook deliveries or request rebuilds (nothing is written otherwise)', async () => {
    const admin = await signedInClient(seed.users.admin.email);
    const count = async () => (await service.from('webhook_deliveries').select('id', { count: 'exact', head: true }).eq('organization_id', seed.scalePro)).count;
    const before = await count();
    for (const client of [anonClient(), admin]) {
      const delivery = await client.rpc('receive_arrival', { p_arrival: { token: seed.webhookToken, refused: { status: 400, error: 'probe' } } });
      expect(delivery.error?.code).toBe('42501');
      const rebuild = await client.rpc('request_site_rebuild', { p_organization_id: seed.scalePro, p_reason: 'probe', p_quiet_window_ms: 60000 });
      expect(rebuild.error?.code).toBe('42501');
    }
    expect(await count()).toBe(before);
    // Either the token or the organization names whose delivery it is, never both.
    const both = await service.rpc('receive_arrival', { p_arrival: { token: seed.webhookToken, organization_id: seed.scalePro, refused: { status: 400 } } });
    expect(both.error?.message).toMatch(/either token or organization_id/);
  });

  it('webhook tokens resolve by hash, rotation keeps the old token for the grace period', async () => {
    expect((await service.rpc('organization_for_webhook_token', { p_token: seed.webhookToken })).data).toBe(seed.scalePro);
    expect((await service.rpc('organization_for_webhook_token', { p_token: 'wrong' })).data).toBeNull();
    const admin = await signedInClient(seed.users.otherAdmin.email);
    cleanups.push(() => service.from('webhook_integrations').delete().eq('organization_id', seed.evergreen));
    const first = await admin.rpc('rotate_webhook_token', { p_organization_id: seed.evergreen });
    const second = await admin.rpc('rotate_webhook_token', { p_organization_id: seed.evergreen });
    expect(second.data).toMatch(/^whk_[0-9a-f]{64}$/);
    for (const token of [first.data, second.data]) {
      expect((await service.rpc('organization_for_webhook_token', { p_token: token })).data).toBe(seed.evergreen);
    }
    expect((await admin.rpc('rotate_webhook_token', { p_organization_id: seed.scalePro })).error?.code).toBe('42501');
  });
});

describe('removing a client site', () => {
  it('deletes an organization whole: its published posts, members, team, sends and builds go with it; its members keep their accounts', async () => {
    const id = crypto.randomUUID();
    const slug = `removed-${id.slice(0, 8)}`;
    const must = <T extends { error: { message: string } | null }>(result: T) => {
      expect(result.error).toBeNull();
      return result;
    };
    must(await service.from('organizations').insert({ id, name: 'Removed site', slug }));
    const admin = await createMember('admin', id);
    cleanups.push(admin.remove);
    must(await service.from('blog_posts').insert({ organization_id: id, slug: 'live', title: 'Live', content: '<p>Live.</p>', status: 'published', published_at: new Date(Date.now() - 60_000).toISOString() }));
    const { data: send } = must(await service.from('site_rebuild_sends').insert({ organization_id: id, state: 'hook_called' }).select('id').single());
    must(await service.rpc('record_site_deploy', { p_organization_id: id, p_source: 'netlify', p_external_id: `removed-${id}`, p_state: 'succeeded' }));
    const { data: team } = must(await service.from('hosting_team_sites').select('team_id').eq('organization_id', id).single());

    must(await service.from('organizations').delete().eq('id', id));
    const left = async (table: string, column = 'organization_id', value: string = id) =>
      (await service.from(table).select('*', { count: 'exact', head: true }).eq(column, value)).count;
    for (const table of ['blog_posts', 'organization_memberships', 'site_rebuild_requests', 'site_rebuild_sends', 'site_deploys', 'hosting_team_sites']) {
      expect(await left(table), table).toBe(0);
    }
    expect(await left('site_rebuild_sends', 'id', send!.id)).toBe(0);
    expect(await left('hosting_teams', 'id', team!.team_id)).toBe(0);
    const { data: profile } = await service.from('profiles').select('organization_id').eq('id', admin.id).single();
    expect(profile).toEqual({ organization_id: null });
  });
});
