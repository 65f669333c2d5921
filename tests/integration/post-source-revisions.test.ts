/**
 * Post sources and revisions, the database's half, through the real backend: a post keeps the author's source next to the HTML
 * (editor, REST, webhook, existing rows), every save of the writing fields keeps a revision that follows the
 * post's row-level security, restoring one is a new revision, and the database writes the post audit trail
 * (no browser can skip or forge it). Attacks go through the raw API with the anon key and members' tokens of
 * other roles and organizations, and check that nothing was written.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webhook from '../../netlify/functions/zimmwriter-webhook.mts';
import { savePost, type PostDraft } from '../../src/lib/back-office/posts.ts';
import { listRevisions, restoreRevision } from '../../src/lib/back-office/post-revisions.ts';
import { readingTimeMinutes } from '../../src/lib/reading-time.ts';
import { anonClient, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';
import { webhookRequest, SCALE_PRO } from './support/webhook-backend.ts';

const service = serviceClient();
const marker = `psr-${crypto.randomUUID().slice(0, 8)}`;
const asEditor = { organizationId: seed.scalePro, authorId: seed.users.editor.id };
let admin: SupabaseClient;
let editor: SupabaseClient;
let viewer: SupabaseClient;
let otherAdmin: SupabaseClient;

const MARKDOWN = `## A heading\n\n- one\n- two\n\nSee [the guide](https://example.com/guide) and \`npm run build\`.\n\n\`\`\`\nconst x = 1;\n\`\`\`\n`;

function draft(overrides: Partial<PostDraft> = {}): PostDraft {
  return {
    title: `Source post ${marker}`,
    slug: `${marker}-${crypto.randomUUID().slice(0, 6)}`,
    excerpt: '',
    content_source: MARKDOWN,
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

async function auditOf(postId: string): Promise<{ action: string; user_id: string | null; details: Record<string, unknown> }[]> {
  const { data, error } = await service
    .from('user_activity_logs')
    .select('action, user_id, details, created_at')
    .eq('resource_type', 'blog_post')
    .eq('resource_id', postId)
    .order('created_at');
  if (error) throw new Error(error.message);
  return data as never;
}

async function revisionCount(postId: string): Promise<number> {
  const { count, error } = await service.from('blog_post_revisions').select('id', { count: 'exact', head: true }).eq('post_id', postId);
  if (error) throw new Error(error.message);
  return count ?? 0;
}

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
  await service.from('webhook_deliveries').delete().like('slug', `${marker}%`);
  await service.from('site_rebuild_requests').delete().eq('organization_id', seed.scalePro).like('reason', '%webhook%');
});

describe('the author\'s source and the HTML derived from it', () => {
  it('keeps the Markdown the editor saved, with its sanitized HTML and the one reading-time rule', async () => {
    const long = `${MARKDOWN}\n${'word '.repeat(201)}`;
    const post = await savePost(editor, asEditor, draft({ content_source: long }));
    expect(post.content_source).toBe(long);
    expect(post.content_format).toBe('markdown');
    expect(post.content).toContain('<h2>A heading</h2>');
    expect(post.content).toMatch(/<ul>\s*<li>one<\/li>/);
    expect(post.content).toContain('<a href="https://example.com/guide">the guide</a>');
    expect(post.content).toContain('<code>npm run build</code>');
    // 200 words make one minute: 201 and more make two (rounded up, as the webhook counts).
    expect(post.reading_time).toBe(readingTimeMinutes(post.content));
    expect(post.reading_time).toBe(2);
  });

  it('keeps HTML as HTML', async () => {
    const html = '<h2>Raw</h2><p>Written as <em>HTML</em>.</p><script>alert(1)</script>';
    const post = await savePost(editor, asEditor, draft({ content_source: html, content_format: 'html' }));
    expect(post.content_source).toBe(html);
    expect(post.content_format).toBe('html');
    expect(post.content).toBe('<h2>Raw</h2><p>Written as <em>HTML</em>.</p>');
  });

  it('refuses content with nothing left once unsafe markup is removed, and writes nothing', async () => {
    const slug = `${marker}-empty`;
    await expect(savePost(editor, asEditor, draft({ slug, content_source: '<script>alert(1)</script>', content_format: 'html' }))).rejects.toThrow(
      'The content has nothing left to show once unsafe markup is removed.',
    );
    const { count } = await service.from('blog_posts').select('id', { count: 'exact', head: true }).eq('slug', slug);
    expect(count).toBe(0);
  });

  it('gives a raw REST write that sends only HTML that HTML as its source, so the pair never disagrees', async () => {
    const slug = `${marker}-rest`;
    const { data: inserted, error } = await editor
      .from('blog_posts')
      .insert({ organization_id: seed.scalePro, author_id: seed.users.editor.id, title: 'REST', slug, content: '<p>first</p>' })
      .select('id, content_source, content_format')
      .single();
    expect(error).toBeNull();
    expect(inserted).toMatchObject({ content_source: '<p>first</p>', content_format: 'html' });
    const { data: updated } = await editor.from('blog_posts').update({ content: '<p>second</p>' }).eq('id', inserted!.id).select('content_source, content_format').single();
    expect(updated).toEqual({ content_source: '<p>second</p>', content_format: 'html' });
    const { error: badFormat } = await editor.from('blog_posts').update({ content_format: 'docx' }).eq('id', inserted!.id);
    expect(badFormat?.code).toBe('23514');
  });

  it('keeps a webhook delivery\'s Markdown, and an HTML-only delivery as HTML', async () => {
    const mdSlug = `${marker}-hook-md`;
    const htmlSlug = `${marker}-hook-html`;
    const md = await webhook(webhookRequest(SCALE_PRO.token, { title: 'Hook MD', markdown: MARKDOWN, html: '<p>ignored</p>', slug: mdSlug }));
    expect(md.status).toBe(201);
    const html = await webhook(webhookRequest(SCALE_PRO.token, { title: 'Hook HTML', html: '<h2>Only HTML</h2><p>x</p>', slug: htmlSlug }));
    expect(html.status).toBe(201);
    const { data } = await service.from('blog_posts').select('slug, content_source, content_format, content').in('slug', [mdSlug, htmlSlug]).order('slug');
    expect(data).toEqual([
      { slug: htmlSlug, content_source: '<h2>Only HTML</h2><p>x</p>', content_format: 'html', content: '<h2>Only HTML</h2><p>x</p>' },
      expect.objectContaining({ slug: mdSlug, content_source: MARKDOWN, content_format: 'markdown' }),
    ]);
    expect(data![1]!.content).toContain('<h2>A heading</h2>');
    expect(data![1]!.content).not.toContain('ignored');
  });
});

describe('revisions', () => {
  it('keeps one per save of title, content, excerpt or SEO fields, naming what changed; other edits keep none', async () => {
    const post = await savePost(editor, asEditor, draft());
    const target = { ...asEditor, id: post.id };
    const base = draft({ slug: post.slug });
    await savePost(editor, target, { ...base, title: 'Second title' });
    await savePost(admin, target, { ...base, title: 'Second title', tags: ['only', 'tags'] });
    await savePost(admin, target, { ...base, title: 'Second title', content_source: 'New body', meta_description: 'SEO text' });
    const revisions = await listRevisions(viewer, post.id);
    expect(revisions.map((r) => [r.changed_fields, r.editor?.email])).toEqual([
      [['content', 'meta_description'], seed.users.admin.email],
      [['title'], seed.users.editor.email],
      [[], seed.users.editor.email],
    ]);
    expect(revisions[0]).toMatchObject({ source: 'editor', title: 'Second title', content_format: 'markdown' });
  });

  it('restores one as a new revision, with the post\'s fields back and the restore logged', async () => {
    const post = await savePost(editor, asEditor, draft({ excerpt: 'first excerpt' }));
    const target = { ...asEditor, id: post.id };
    await savePost(editor, target, draft({ slug: post.slug, title: 'Changed', content_source: 'Changed body', excerpt: 'changed' }));
    const [, first] = await listRevisions(editor, post.id);
    await restoreRevision(editor, first!.id);
    const { data: restored } = await service.from('blog_posts').select('title, excerpt, content_source, content_format, content').eq('id', post.id).single();
    expect(restored).toMatchObject({ title: `Source post ${marker}`, excerpt: 'first excerpt', content_source: MARKDOWN, content_format: 'markdown' });
    expect(restored!.content).toContain('<h2>A heading</h2>');
    const [newest] = await listRevisions(editor, post.id);
    expect(newest).toMatchObject({ source: 'restore', restored_from: first!.id, title: `Source post ${marker}` });
    const audit = await auditOf(post.id);
    expect(audit.at(-1)).toMatchObject({ action: 'post_restored', user_id: seed.users.editor.id, details: { revision_id: first!.id, title: `Source post ${marker}` } });
  });

  it('cannot be read by another organization or the anon key, nor restored by a viewer or another organization', async () => {
    const post = await savePost(editor, asEditor, draft());
    await savePost(editor, { ...asEditor, id: post.id }, draft({ slug: post.slug, title: 'Later title' }));
    const [, first] = await listRevisions(editor, post.id);
    expect(await listRevisions(otherAdmin, post.id)).toEqual([]);
    const { data: anonRows } = await anonClient().from('blog_post_revisions').select('id').eq('post_id', post.id);
    expect(anonRows ?? []).toEqual([]);
    await expect(restoreRevision(viewer, first!.id)).rejects.toThrow('You do not have permission to change this post.');
    await expect(restoreRevision(otherAdmin, first!.id)).rejects.toThrow('This revision does not exist or you may not read it.');
    const { error: anonError } = await anonClient().rpc('restore_post_revision', { p_revision_id: first!.id });
    expect(anonError).not.toBeNull();
    const { data: still } = await service.from('blog_posts').select('title').eq('id', post.id).single();
    expect(still!.title).toBe('Later title');
    expect(await revisionCount(post.id)).toBe(2);
  });

  it('cannot be written, changed or deleted through the API by anyone but the database', async () => {
    const post = await savePost(editor, asEditor, draft());
    const [only] = await listRevisions(editor, post.id);
    for (const client of [admin, editor]) {
      const insert = await client.from('blog_post_revisions').insert({ post_id: post.id, organization_id: seed.scalePro, source: 'editor', title: 'forged', content_source: 'x', content_format: 'html', content: 'x' });
      expect(insert.error?.code).toBe('42501');
      const update = await client.from('blog_post_revisions').update({ title: 'forged' }).eq('id', only!.id).select('id');
      expect(update.error?.code ?? (update.data?.length === 0 ? 'none' : 'updated')).not.toBe('updated');
      const remove = await client.from('blog_post_revisions').delete().eq('id', only!.id).select('id');
      expect(remove.error?.code ?? (remove.data?.length === 0 ? 'none' : 'deleted')).not.toBe('deleted');
    }
    const { data } = await service.from('blog_post_revisions').select('title').eq('post_id', post.id);
    expect(data).toEqual([{ title: `Source post ${marker}` }]);
  });

  it('are deleted with their post, and a post keeps its newest 50', async () => {
    const post = await savePost(editor, asEditor, draft());
    await withDatabase(async (db) => {
      for (let i = 1; i <= 52; i += 1) await db.query('update public.blog_posts set title = $1 where id = $2', [`Title ${i}`, post.id]);
    });
    expect(await revisionCount(post.id)).toBe(50);
    const [newest] = await listRevisions(editor, post.id, 1);
    expect(newest!.title).toBe('Title 52');
    await service.from('blog_posts').delete().eq('id', post.id);
    expect(await revisionCount(post.id)).toBe(0);
  });
});

describe('the post audit trail, written by the database', () => {
  it('logs creating, updating, publishing, updating while published, unpublishing, scheduling, rescheduling, cancelling and deleting', async () => {
    const post = await savePost(editor, asEditor, draft());
    const target = { ...asEditor, id: post.id };
    const base = draft({ slug: post.slug });
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const laterStill = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await savePost(editor, target, { ...base, title: 'Edited' });
    const published = await savePost(editor, target, { ...base, title: 'Edited', status: 'published', published_at: new Date().toISOString() });
    await savePost(editor, target, { ...base, title: 'Edited again', status: 'published', published_at: published.published_at });
    await savePost(editor, target, { ...base, title: 'Edited again', status: 'draft', published_at: null });
    await savePost(editor, target, { ...base, title: 'Edited again', status: 'scheduled', published_at: later });
    await savePost(editor, target, { ...base, title: 'Edited again', status: 'scheduled', published_at: laterStill });
    await savePost(editor, target, { ...base, title: 'Edited again', status: 'draft', published_at: null });
    await admin.from('blog_posts').update({ view_count: 5 }).eq('id', post.id);
    await admin.from('blog_posts').delete().eq('id', post.id);
    const audit = await auditOf(post.id);
    expect(audit.map((entry) => [entry.action, entry.user_id])).toEqual([
      ['post_created', seed.users.editor.id],
      ['post_updated', seed.users.editor.id],
      ['post_published', seed.users.editor.id],
      ['post_updated', seed.users.editor.id],
      ['post_unpublished', seed.users.editor.id],
      ['post_scheduled', seed.users.editor.id],
      ['post_scheduled', seed.users.editor.id],
      ['post_schedule_cancelled', seed.users.editor.id],
      ['post_deleted', seed.users.admin.id],
    ]);
    expect(audit[1]!.details).toMatchObject({ title: 'Edited', slug: post.slug, status: 'draft', fields: ['title'] });
    expect(audit[6]!.details).toMatchObject({ status: 'scheduled', fields: ['publication_time'] });
    expect(audit.every((entry) => !('via' in entry.details))).toBe(true);
  });

  it('says when the writing tool and the scheduler did it', async () => {
    const slug = `${marker}-hook-audit`;
    const response = await webhook(webhookRequest(SCALE_PRO.token, { title: 'Hook audit', html: '<p>x</p>', slug }));
    const { post_id } = (await response.json()) as { post_id: string };
    const scheduled = await savePost(editor, asEditor, draft({ status: 'scheduled', published_at: new Date(Date.now() + 60_000).toISOString() }));
    await service.from('blog_posts').update({ published_at: new Date(Date.now() - 1000).toISOString() }).eq('id', scheduled.id);
    const { error } = await service.rpc('publish_due_posts');
    expect(error).toBeNull();
    expect((await auditOf(post_id)).map((e) => [e.action, e.user_id, e.details.via])).toEqual([['post_created', null, 'webhook']]);
    expect((await auditOf(scheduled.id)).at(-1)).toMatchObject({ action: 'post_published', user_id: null, details: { via: 'schedule' } });
    const [hookRevision] = await listRevisions(editor, post_id);
    expect(hookRevision).toMatchObject({ source: 'webhook', editor: null });
  });

  it('refuses post actions written by a member themselves, and a refused write logs nothing', async () => {
    const post = await savePost(editor, asEditor, draft());
    for (const action of ['post_deleted', 'post_published', 'post_created']) {
      const { error } = await editor.rpc('log_user_activity', { p_action: action });
      expect(error, action).not.toBeNull();
    }
    const denied = await viewer.from('blog_posts').update({ title: 'viewer edit' }).eq('id', post.id).select('id');
    expect(denied.data ?? []).toEqual([]);
    const foreign = await otherAdmin.from('blog_posts').delete().eq('id', post.id).select('id');
    expect(foreign.data ?? []).toEqual([]);
    expect((await auditOf(post.id)).map((e) => e.action)).toEqual(['post_created']);
  });
});
