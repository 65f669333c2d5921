/**
 * The back office's post module (src/lib/back-office/posts.ts) against the real backend, as the seeded admin,
 * editor and viewer (RLS decides), plus the rebuild function's permission checks. Every post created here
 * is removed afterwards; the seed stays as it was.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import rebuild from '../../netlify/functions/admin-rebuild.mts';
import {
  deletePost,
  getPost,
  listPosts,
  PostChangedError,
  POSTS_PAGE_SIZE,
  savePost,
  SLUG_TAKEN_MESSAGE,
  type PostDraft,
} from '../../src/lib/back-office/posts.ts';
import { seed, serviceClient, signedInClient } from './support/db-fixtures.ts';
import { setBuildHook, settleBuilds, startHookReceiver } from './support/webhook-backend.ts';

const service = serviceClient();
const marker = `it-${crypto.randomUUID().slice(0, 8)}`;
let admin: SupabaseClient;
let editor: SupabaseClient;
let viewer: SupabaseClient;
let otherAdmin: SupabaseClient;

function draft(overrides: Partial<PostDraft> = {}): PostDraft {
  return {
    title: `Test post ${marker}`,
    slug: `${marker}-${crypto.randomUUID().slice(0, 6)}`,
    excerpt: '',
    content_source: `# Heading\n\nBody text for ${marker}.`,
    content_format: 'markdown',
    status: 'draft',
    category_id: '',
    tags: [],
    featured_image_url: '',
    meta_title: '',
    meta_description: '',
    published_at: null,
    ...overrides,
  };
}

const asEditor = { organizationId: seed.scalePro, authorId: seed.users.editor.id };

beforeAll(async () => {
  [admin, editor, viewer, otherAdmin] = await Promise.all([
    signedInClient(seed.users.admin.email),
    signedInClient(seed.users.editor.email),
    signedInClient(seed.users.viewer.email),
    signedInClient(seed.users.otherAdmin.email),
  ]);
});

afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `${marker}%`);
  await service.from('user_activity_logs').delete().eq('resource_type', 'blog_post').like('details->>slug', `${marker}%`);
  await service.from('site_rebuild_requests').delete().like('reason', `${marker}%`);
});

describe('saving posts', () => {
  it('creates a draft with empty optional fields stored as null', async () => {
    const post = await savePost(editor, asEditor, draft());
    expect(post).toMatchObject({ status: 'draft', excerpt: null, tags: null, featured_image_url: null, meta_title: null, meta_description: null, published_at: null, author_id: seed.users.editor.id });
    expect(post.author?.full_name).toBe('Jordan Lee');
    expect(post.category?.name).toBe('Uncategorized'); // the database's default category
    expect(post.content).toContain('<h1>Heading</h1>');
    expect(post).toMatchObject({ content_source: `# Heading\n\nBody text for ${marker}.`, content_format: 'markdown', reading_time: 1 });
  });

  it('publishes and updates a post; changing the slug records a redirect from the old one', async () => {
    const post = await savePost(editor, asEditor, draft({ status: 'published', published_at: new Date().toISOString(), tags: ['SEO', 'seo', 'Local'], category_id: seed.category }));
    expect(post.tags).toEqual(['SEO', 'Local']);
    expect(post.category?.name).toBe('SEO Strategies');
    const newSlug = `${marker}-renamed`;
    const updated = await savePost(admin, { ...asEditor, id: post.id }, { ...draft(), title: 'Renamed', slug: newSlug, status: 'published', published_at: post.published_at });
    expect(updated).toMatchObject({ id: post.id, slug: newSlug, title: 'Renamed' });
    const { data } = await service.from('blog_post_redirects').select('old_slug, post_id').eq('post_id', post.id);
    expect(data).toEqual([{ old_slug: post.slug, post_id: post.id }]);
  });

  it('answers a clear message when the slug is taken in the organization', async () => {
    const first = await savePost(editor, asEditor, draft());
    await expect(savePost(editor, asEditor, draft({ slug: first.slug }))).rejects.toThrow(SLUG_TAKEN_MESSAGE);
  });

  it('schedules a post for a future time', async () => {
    const when = new Date(Date.now() + 86_400_000).toISOString();
    const post = await savePost(editor, asEditor, draft({ status: 'scheduled', published_at: when }));
    expect(post.status).toBe('scheduled');
    expect(new Date(post.published_at ?? '').toISOString()).toBe(when);
    const { data: visible } = await serviceClient().from('blog_posts').select('id').eq('id', post.id);
    expect(visible).toHaveLength(1);
  });

  it('refuses a viewer and a member of another organization', async () => {
    await expect(savePost(viewer, { organizationId: seed.scalePro, authorId: seed.users.viewer.id }, draft())).rejects.toThrow(/row-level security|permission/i);
    await expect(savePost(otherAdmin, { organizationId: seed.scalePro, authorId: seed.users.otherAdmin.id }, draft())).rejects.toThrow(/row-level security|permission/i);
    const mine = await savePost(editor, asEditor, draft());
    await expect(savePost(viewer, { ...asEditor, id: mine.id }, draft({ title: 'hijack' }))).rejects.toThrow(/permission/);
    expect((await getPost(editor, seed.scalePro, mine.id))?.title).toBe(`Test post ${marker}`);
  });

  it('writes only over the version the editor opened: a change made elsewhere is not overwritten', async () => {
    const opened = await savePost(editor, asEditor, draft({ status: 'scheduled', published_at: new Date(Date.now() + 3_600_000).toISOString() }));
    // The scheduler (the server) publishes it meanwhile.
    const live = await service.from('blog_posts').update({ status: 'published', published_at: new Date().toISOString() }).eq('id', opened.id).select('updated_at').single();
    expect(live.error).toBeNull();
    const stale = savePost(editor, { ...asEditor, id: opened.id, updatedAt: opened.updated_at }, draft({ title: 'Stale edit', status: 'scheduled', published_at: opened.published_at }));
    await expect(stale).rejects.toBeInstanceOf(PostChangedError);
    const refused = (await stale.catch((error: PostChangedError) => error)) as PostChangedError;
    expect(refused.current).toMatchObject({ id: opened.id, status: 'published', updated_at: live.data!.updated_at });
    const now = await getPost(editor, seed.scalePro, opened.id);
    expect(now).toMatchObject({ status: 'published', title: `Test post ${marker}` });
    // Saved over the version it now knows, the edit goes through.
    const saved = await savePost(editor, { ...asEditor, id: opened.id, updatedAt: now!.updated_at }, draft({ title: 'Fresh edit', status: 'published', published_at: now!.published_at }));
    expect(saved.title).toBe('Fresh edit');
    // Dismissing a duplicate mark is not an edit: the version stays.
    expect((await service.from('blog_posts').update({ duplicate_of: null }).eq('id', opened.id).select('updated_at').single()).data!.updated_at).toBe(saved.updated_at);
  });
});

describe('opening a post by id', () => {
  it('finds a post of the organization only: another organization\'s, even published, is not found', async () => {
    const published = await savePost(editor, asEditor, draft({ status: 'published', published_at: new Date().toISOString() }));
    expect((await getPost(editor, seed.scalePro, published.id))?.id).toBe(published.id);
    expect(await getPost(otherAdmin, seed.evergreen, published.id)).toBeNull();
  });
});

describe('listing posts', () => {
  it('searches title and content case-insensitively on the server, filters by status and counts', async () => {
    await savePost(editor, asEditor, draft({ title: `Zebra ${marker}` }));
    await savePost(editor, asEditor, draft({ title: 'Other', content_source: `<p>about ZEBRA ${marker.toUpperCase()}, commas (and) "quotes"</p>`, content_format: 'html' }));
    const found = await listPosts(viewer, { organizationId: seed.scalePro, search: `zebra ${marker}` });
    expect(found.total).toBe(2);
    const drafts = await listPosts(viewer, { organizationId: seed.scalePro, search: marker, status: 'published' });
    expect(drafts.posts.every((post) => post.status === 'published')).toBe(true);
    const odd = await listPosts(viewer, { organizationId: seed.scalePro, search: '(and) "quotes"' });
    expect(odd.posts.map((p) => p.title)).toContain('Other');
    const wildcard = await listPosts(viewer, { organizationId: seed.scalePro, search: '%' });
    expect(wildcard.total).toBe(0);
  });

  it('pages through the organization with an exact count', async () => {
    const first = await listPosts(admin, { organizationId: seed.scalePro, page: 1 });
    expect(first.posts).toHaveLength(Math.min(POSTS_PAGE_SIZE, first.total));
    expect(first.total).toBeGreaterThan(POSTS_PAGE_SIZE);
    const second = await listPosts(admin, { organizationId: seed.scalePro, page: 2 });
    expect(second.posts[0]?.id).not.toBe(first.posts[0]?.id);
    expect(first.posts.every((post) => post.organization_id === seed.scalePro)).toBe(true);
  });
});

describe('deleting posts', () => {
  it('lets an editor delete their own post (the database logs it), but not a post of someone else', async () => {
    const own = await savePost(editor, asEditor, draft());
    await deletePost(editor, own);
    expect(await getPost(admin, seed.scalePro, own.id)).toBeNull();
    const { data: logs } = await service.from('user_activity_logs').select('user_id, organization_id').eq('action', 'post_deleted').eq('resource_id', own.id);
    expect(logs).toEqual([{ user_id: seed.users.editor.id, organization_id: seed.scalePro }]);

    const adminsPost = await savePost(admin, { organizationId: seed.scalePro, authorId: seed.users.admin.id }, draft());
    await expect(deletePost(editor, adminsPost)).rejects.toThrow(/not deleted/);
    await expect(deletePost(viewer, adminsPost)).rejects.toThrow(/not deleted/);
    await expect(deletePost(otherAdmin, adminsPost)).rejects.toThrow(/not deleted/);
    expect(await getPost(admin, seed.scalePro, adminsPost.id)).not.toBeNull();
  });

  it('lets an admin delete any post of the organization', async () => {
    const editors = await savePost(editor, asEditor, draft());
    await deletePost(admin, editors);
    expect(await getPost(admin, seed.scalePro, editors.id)).toBeNull();
  });
});

describe('POST /api/admin/rebuild (the Retry of a failed build)', () => {
  async function call(client: SupabaseClient | null, body: unknown): Promise<Response> {
    const token = client ? (await client.auth.getSession()).data.session?.access_token : undefined;
    return rebuild(new Request('http://localhost/api/admin/rebuild', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }));
  }
  const retries = async () => {
    const { count } = await service.from('site_rebuild_requests').select('id', { count: 'exact', head: true })
      .eq('organization_id', seed.scalePro).eq('reason', 'Rebuild requested by an admin');
    return count ?? 0;
  };

  it('records the request of an admin and sends it at once, to the build hook', async () => {
    const receiver = await startHookReceiver();
    await setBuildHook(seed.scalePro, receiver.url);
    await settleBuilds([seed.scalePro]);
    try {
      const response = await call(admin, { organization_id: seed.scalePro });
      expect(response.status).toBe(202);
      const { request_id, started } = (await response.json()) as { request_id: string; started: boolean };
      expect(started).toBe(true);
      const { data } = await service.from('site_rebuild_requests').select('organization_id, reason, batch_id').eq('id', request_id).single();
      expect(data).toMatchObject({ organization_id: seed.scalePro, reason: 'Rebuild requested by an admin' });
      const { data: send } = await service.from('site_rebuild_sends').select('state, manual').eq('id', data!.batch_id).single();
      expect(send).toEqual({ state: 'hook_called', manual: true });
      expect(receiver.calls).toHaveLength(1);
    } finally {
      await setBuildHook(seed.scalePro, null);
      await receiver.close();
    }
  });

  it('refuses editors, viewers, other organizations, missing tokens and invalid bodies, and records nothing', async () => {
    const before = await retries();
    expect((await call(editor, { organization_id: seed.scalePro })).status).toBe(403);
    expect((await call(viewer, { organization_id: seed.scalePro })).status).toBe(403);
    expect((await call(otherAdmin, { organization_id: seed.scalePro })).status).toBe(403);
    expect((await call(null, { organization_id: seed.scalePro })).status).toBe(401);
    const invalid = await call(admin, { organization_id: 'nope' });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { message: string }).message).toMatch(/organization_id/);
    expect((await call(admin, { organization_id: seed.scalePro, reason: 'anything' })).status).toBe(400);
    expect(await retries()).toBe(before);
  });
});

