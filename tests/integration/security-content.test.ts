/**
 * Attacks by signed-in people on what they may not touch: an editor taking over another author's post or
 * moving it to another organization, a viewer writing, an editor administering, an inactive user or an
 * ended session still reading, a build hook pointed elsewhere, and hostile HTML written through REST, which
 * every renderer must sanitize. Each asserts the refusal and that nothing was written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBlogRows } from '../../src/lib/site/posts.ts';
import { toBlog } from '../../src/lib/site/blog-model.ts';
import { anonClient, createMember, seed, serviceClient, sessionIdOf, signedInClient } from './support/db-fixtures.ts';
import { removeMember, type Member } from './support/auth-users.ts';

const service = serviceClient();
const postIds: string[] = [];

/** A post of Scale Pro by the seed admin, written with the service role. */
async function adminsPost(fields: Record<string, unknown> = {}) {
  const id = crypto.randomUUID();
  const { error } = await service.from('blog_posts').insert({
    id, organization_id: seed.scalePro, title: 'Admin’s post', slug: `admins-${id.slice(0, 8)}`, content: '<p>Mine.</p>',
    author_id: seed.users.admin.id, ...fields,
  });
  if (error) throw new Error(`creating the post failed: ${error.message}`);
  postIds.push(id);
  return id;
}

const postRow = async (id: string) =>
  (await service.from('blog_posts').select('author_id, organization_id, title, content').eq('id', id).single()).data;

afterAll(async () => {
  await service.from('blog_posts').delete().in('id', postIds);
});

describe('an editor and another author’s post', () => {
  it('cannot make it theirs (author_id), hand it to someone else, or move it to another organization', async () => {
    const id = await adminsPost();
    const editor = await signedInClient(seed.users.editor.email);
    for (const patch of [{ author_id: seed.users.editor.id }, { author_id: null }, { organization_id: seed.evergreen }]) {
      const { error } = await editor.from('blog_posts').update(patch).eq('id', id);
      expect(error?.code).toBe('42501');
    }
    expect(await postRow(id)).toMatchObject({ author_id: seed.users.admin.id, organization_id: seed.scalePro });
    // So they still cannot delete it.
    await editor.from('blog_posts').delete().eq('id', id);
    expect(await postRow(id)).not.toBeNull();
  });

  it('can still edit its text, and an admin can reassign the author', async () => {
    const id = await adminsPost();
    const editor = await signedInClient(seed.users.editor.email);
    expect((await editor.from('blog_posts').update({ title: 'Edited by the editor' }).eq('id', id).select('id')).data).toHaveLength(1);
    const admin = await signedInClient(seed.users.admin.email);
    expect((await admin.from('blog_posts').update({ author_id: seed.users.editor.id }).eq('id', id).select('id')).data).toHaveLength(1);
    expect(await postRow(id)).toMatchObject({ title: 'Edited by the editor', author_id: seed.users.editor.id });
  });
});

describe('roles beyond their reach', () => {
  it('a viewer writes nothing: posts, categories, settings, invitations', async () => {
    const viewer = await signedInClient(seed.users.viewer.email);
    const slug = `viewer-${crypto.randomUUID().slice(0, 8)}`;
    const post = await viewer.from('blog_posts').insert({ organization_id: seed.scalePro, title: 'Nope', slug, content: '<p>x</p>', author_id: seed.users.viewer.id });
    expect(post.error?.code).toBe('42501');
    expect((await viewer.from('blog_posts').update({ title: 'Nope' }).eq('id', seed.publishedPost).select('id')).data).toEqual([]);
    expect((await viewer.from('blog_categories').insert({ organization_id: seed.scalePro, name: 'Nope', slug })).error?.code).toBe('42501');
    expect((await viewer.from('organizations').update({ name: 'Nope' }).eq('id', seed.scalePro).select('id')).data).toEqual([]);
    expect((await service.from('blog_posts').select('id').eq('slug', slug)).data).toEqual([]);
  });

  it('an editor administers nothing: invitations, roles, memberships, rebuild hooks, the webhook token, sessions', async () => {
    const editor = await signedInClient(seed.users.editor.email);
    const invited = await editor.from('user_invitations').insert({
      organization_id: seed.scalePro, email: 'editor-accomplice@example.com', role: 'admin', token_hash: 'e'.repeat(64), invited_by: seed.users.editor.id,
    });
    expect(invited.error?.code).toBe('42501');
    expect((await editor.from('profiles').update({ role: 'admin' }).eq('id', seed.users.editor.id)).error?.code).toBe('42501');
    expect((await editor.from('organization_memberships').update({ role: 'admin' }).eq('user_id', seed.users.editor.id).select('id')).data).toEqual([]);
    expect((await editor.from('organization_memberships').delete().eq('user_id', seed.users.viewer.id).select('id')).data).toEqual([]);
    const hook = await editor.from('site_rebuild_settings').upsert({ organization_id: seed.scalePro, build_hook_url: 'https://api.netlify.com/build_hooks/editor' });
    expect(hook.error?.code).toBe('42501');
    expect((await editor.rpc('rotate_webhook_token', { p_organization_id: seed.scalePro })).error?.code).toBe('42501');
    expect((await editor.rpc('list_organization_sessions', { p_organization_id: seed.scalePro })).error?.code).toBe('42501');

    expect((await service.from('user_invitations').select('id').eq('email', 'editor-accomplice@example.com')).data).toEqual([]);
    const { data: memberships } = await service.from('organization_memberships').select('role').eq('user_id', seed.users.editor.id);
    expect(memberships).toEqual([{ role: 'editor' }]);
  });

  it('a build hook can only be Netlify’s (or a loopback address for local development)', async () => {
    const admin = await signedInClient(seed.users.admin.email);
    for (const url of ['https://evil.test/build_hooks/x', 'https://api.netlify.com.evil.test/build_hooks/x', 'http://api.netlify.com/build_hooks/x', 'https://api.netlify.com/build_hooks/x?y=1']) {
      const { error } = await admin.from('site_rebuild_settings').upsert({ organization_id: seed.scalePro, build_hook_url: url });
      expect(error?.code, url).toBe('23514');
    }
    const { data } = await service.from('site_rebuild_settings').select('build_hook_url').eq('organization_id', seed.scalePro);
    expect(data?.every((row) => row.build_hook_url?.startsWith('https://api.netlify.com/build_hooks/') ?? true)).toBe(true);
  });
});

describe('access that has ended', () => {
  let member: Member;
  beforeAll(async () => {
    member = await createMember('editor');
  });
  afterAll(async () => {
    await removeMember(member);
  });

  it('a deactivated member’s still-valid token reads and writes nothing', async () => {
    const client = await signedInClient(member.email);
    expect((await client.from('blog_posts').select('id').eq('id', seed.draftPost)).data).toHaveLength(1);
    await service.from('profiles').update({ is_active: false }).eq('id', member.id);
    try {
      expect((await client.from('blog_posts').select('id').eq('id', seed.draftPost)).data ?? []).toEqual([]);
      expect((await client.from('profiles').select('id')).data ?? []).toEqual([]);
      const written = await client.from('blog_posts').insert({ organization_id: seed.scalePro, title: 'Late', slug: `late-${member.id.slice(0, 8)}`, content: '<p>x</p>', author_id: member.id });
      expect(written.error?.message).toBe('account_inactive');
      expect((await service.from('blog_posts').select('id').eq('slug', `late-${member.id.slice(0, 8)}`)).data).toEqual([]);
    } finally {
      await service.from('profiles').update({ is_active: true }).eq('id', member.id);
    }
  });

  it('an ended session reads nothing, even with its access token still unexpired', async () => {
    const client = await signedInClient(member.email);
    const { data: before } = await client.from('blog_posts').select('id').eq('id', seed.draftPost);
    expect(before).toHaveLength(1);
    expect((await service.rpc('terminate_session', { p_session_id: await sessionIdOf(client) })).error).toBeNull();
    expect((await client.from('blog_posts').select('id').eq('id', seed.draftPost)).data ?? []).toEqual([]);
    expect((await client.rpc('org_role', { org: seed.scalePro })).data ?? null).toBeNull();
  });
});

describe('hostile HTML written through REST', () => {
  const hostile =
    '<p>Read on</p><img src=x onerror="window.__xss=1"><script>window.__xss=2</script>' +
    '<a href="javascript:window.__xss=3">x</a><iframe src="https://evil.test/"></iframe>' +
    '<svg><script>window.__xss=4</script></svg><a href="https://example.com" target="_blank">ok</a>';

  it('is stored as written (the database is not the sanitizer), and the build renders it harmless', async () => {
    const editor = await signedInClient(seed.users.editor.email);
    const id = await adminsPost({ status: 'published', published_at: new Date(Date.now() - 60_000).toISOString() });
    expect((await editor.from('blog_posts').update({ content: hostile }).eq('id', id).select('id')).data).toHaveLength(1);

    const { data: org } = await anonClient().from('organizations').select('id, name, slug, domain, settings').eq('id', seed.scalePro).single();
    const blog = toBlog(await readBlogRows(org as never));
    const html = blog.posts.find((post) => post.id === id)?.html ?? '';
    expect(html).toContain('<p>Read on</p>');
    expect(html).not.toMatch(/onerror|<script|javascript:|evil\.test|<svg/i);
    expect(html).toContain('rel="noopener noreferrer"');
  });
});
