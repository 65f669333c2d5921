/**
 * Categories and tags, held by the database and attacked through the raw API: every organization has one
 * default "Uncategorized" category that posts without a category land in and that cannot be deleted (except
 * with its organization); deleting a category moves its posts there; renaming leaves a redirect; merging
 * moves posts and slugs; tags are one per organization whatever their case (REST and webhook alike), and
 * rename_tag renames or merges. Each change writes one audit entry. Anonymous callers, viewers and the other
 * organization's admin are refused, and nothing is written when they are.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCategory as createWithLib,
  deleteCategory,
  listCategories,
  listTags,
  mergeCategories,
  renameCategory,
  renameTag,
  TAXONOMY_MESSAGES,
} from '../../src/lib/back-office/blog-taxonomy.ts';
import { anonClient, seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';

const service = serviceClient();
const run = Date.now().toString(36);
const startedAt = new Date().toISOString();
const SP = seed.scalePro;

let editor: SupabaseClient;
let viewer: SupabaseClient;
let otherAdmin: SupabaseClient;
const anon = anonClient();

beforeAll(async () => {
  [editor, viewer, otherAdmin] = await Promise.all([
    signedInClient(seed.users.editor.email),
    signedInClient(seed.users.viewer.email),
    signedInClient(seed.users.otherAdmin.email),
  ]);
});

afterAll(async () => {
  await service.from('blog_posts').delete().like('slug', `tax-${run}-%`);
  await service.from('blog_categories').delete().like('slug', `tax-${run}-%`);
  await service.from('blog_category_redirects').delete().like('old_slug', `tax-${run}-%`);
  await service.from('blog_tags').delete().like('name', `tax-${run}-%`);
  await service.from('blog_tags').delete().like('name', `Tax-${run}-%`);
  await service.from('user_activity_logs').delete().eq('resource_type', 'blog_category').gte('created_at', startedAt);
  await service.from('user_activity_logs').delete().eq('resource_type', 'blog_tag').gte('created_at', startedAt);
  await service.from('webhook_deliveries').delete().like('slug', `tax-${run}-%`);
  await service.from('site_rebuild_requests').delete().eq('organization_id', SP).gte('requested_at', startedAt);
});

const slugFor = (name: string) => `tax-${run}-${name}`;

function must<T>(result: { data: T; error: { message: string } | null }, what: string): NonNullable<T> {
  if (result.error || result.data == null) throw new Error(`${what}: ${result.error?.message ?? 'no data'}`);
  return result.data as NonNullable<T>;
}

async function defaultCategoryOf(organizationId: string): Promise<{ id: string; name: string; slug: string }> {
  return must(
    await service.from('blog_categories').select('id, name, slug').eq('organization_id', organizationId).eq('is_default', true).single(),
    'default category',
  );
}

async function createCategory(client: SupabaseClient, name: string, organizationId = SP): Promise<string> {
  const row = must(await client.from('blog_categories').insert({ organization_id: organizationId, name, slug: slugFor(name.toLowerCase()) }).select('id').single(), `category ${name}`);
  return row.id;
}

async function createPost(name: string, fields: Record<string, unknown> = {}, client: SupabaseClient = editor) {
  return must(
    await client
      .from('blog_posts')
      .insert({ organization_id: SP, title: name, slug: slugFor(name), content: '<p>x</p>', author_id: seed.users.editor.id, ...fields })
      .select('id, category_id, tags')
      .single(),
    `post ${name}`,
  );
}

async function postOf(id: string) {
  return must(await service.from('blog_posts').select('category_id, tags').eq('id', id).single(), 'post');
}

async function auditEntries(action: string, resourceId: string) {
  return must(
    await service.from('user_activity_logs').select('user_id, organization_id, resource_type, details').eq('action', action).eq('resource_id', resourceId).gte('created_at', startedAt),
    'audit entries',
  );
}

describe('the default category', () => {
  it('exists once for each seeded organization, named Uncategorized', async () => {
    for (const organization of [seed.scalePro, seed.evergreen]) {
      expect(await defaultCategoryOf(organization)).toMatchObject({ name: 'Uncategorized', slug: 'uncategorized' });
    }
  });

  it('is created for a new organization, and goes with it when the organization is deleted', async () => {
    const id = crypto.randomUUID();
    must(await service.from('organizations').insert({ id, name: 'Taxonomy Org', slug: slugFor('org') }).select('id').single(), 'organization');
    const fallback = await defaultCategoryOf(id);
    expect(fallback).toMatchObject({ name: 'Uncategorized', slug: 'uncategorized' });
    must(await service.from('blog_categories').insert({ organization_id: id, name: 'Other', slug: 'other' }).select('id').single(), 'category');
    must(await service.from('blog_posts').insert({ organization_id: id, title: 'T', slug: 't', content: '<p>x</p>', tags: ['A'] }).select('id').single(), 'post');
    // Only the category made by a person or the webhook is logged, never the default.
    expect(await auditEntries('category_created', fallback.id)).toEqual([]);

    expect((await service.from('organizations').delete().eq('id', id)).error).toBeNull();
    expect(must(await service.from('blog_categories').select('id').eq('organization_id', id), 'categories')).toEqual([]);
    expect(must(await service.from('blog_tags').select('id').eq('organization_id', id), 'tags')).toEqual([]);
  });

  it('receives posts saved without a category, on insert and on update', async () => {
    const fallback = await defaultCategoryOf(SP);
    const post = await createPost('no-category');
    expect(post.category_id).toBe(fallback.id);
    must(await editor.from('blog_posts').update({ category_id: seed.category }).eq('id', post.id).select('id'), 'set category');
    must(await editor.from('blog_posts').update({ category_id: null }).eq('id', post.id).select('id'), 'clear category');
    expect((await postOf(post.id)).category_id).toBe(fallback.id);
  });

  it('cannot be deleted, by an editor or by the service role, and cannot be chosen or moved by a client', async () => {
    const fallback = await defaultCategoryOf(SP);
    const refused = await editor.from('blog_categories').delete().eq('id', fallback.id);
    expect(refused.error?.message).toMatch(/^default_category: the default category "Uncategorized" cannot be deleted/);
    expect((await service.from('blog_categories').delete().eq('id', fallback.id)).error?.message).toMatch(/^default_category:/);
    const stolen = await editor.from('blog_categories').insert({ organization_id: SP, name: 'Fake', slug: slugFor('fake'), is_default: true });
    expect(stolen.error?.code).toBe('42501');
    const unset = await editor.from('blog_categories').update({ is_default: false }).eq('id', fallback.id);
    expect(unset.error?.code).toBe('42501');
    expect((await defaultCategoryOf(SP)).id).toBe(fallback.id);
  });
});

describe('managing categories', () => {
  it('a new category is logged as created by its editor', async () => {
    const id = await createCategory(editor, 'Fresh');
    const [entry, ...more] = await auditEntries('category_created', id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ user_id: seed.users.editor.id, organization_id: SP, resource_type: 'blog_category', details: { name: 'Fresh', slug: slugFor('fresh') } });
  });

  it('deleting a category moves its posts to Uncategorized and logs one entry', async () => {
    const id = await createCategory(editor, 'Doomed');
    const post = await createPost('doomed-post', { category_id: id });
    must(await editor.from('blog_categories').delete().eq('id', id).select('id'), 'delete');
    expect((await postOf(post.id)).category_id).toBe((await defaultCategoryOf(SP)).id);
    const entries = await auditEntries('category_deleted', id);
    expect(entries).toEqual([
      { user_id: seed.users.editor.id, organization_id: SP, resource_type: 'blog_category', details: { name: 'Doomed', slug: slugFor('doomed'), post_count: 1, moved_to: 'Uncategorized' } },
    ]);
  });

  it('renaming leaves the old slug as a redirect that anyone reads, until a live category takes the slug', async () => {
    const id = await createCategory(editor, 'Before');
    await createPost('renamed-post', { category_id: id });
    must(await editor.from('blog_categories').update({ name: 'After', slug: slugFor('after') }).eq('id', id).select('id'), 'rename');
    const redirects = must(await anon.from('blog_category_redirects').select('old_slug, category_id').eq('organization_id', SP).eq('old_slug', slugFor('before')), 'redirects');
    expect(redirects).toEqual([{ old_slug: slugFor('before'), category_id: id }]);
    expect(await auditEntries('category_renamed', id)).toEqual([
      {
        user_id: seed.users.editor.id, organization_id: SP, resource_type: 'blog_category',
        details: { old_name: 'Before', new_name: 'After', old_slug: slugFor('before'), new_slug: slugFor('after'), post_count: 1 },
      },
    ]);

    await createCategory(editor, 'Before');
    expect(must(await anon.from('blog_category_redirects').select('old_slug').eq('old_slug', slugFor('before')), 'redirects')).toEqual([]);
  });

  it('merging moves posts, slug and redirects to the target, deletes the source and logs one entry', async () => {
    const source = await createCategory(editor, 'Typo');
    const target = await createCategory(editor, 'Proper');
    const post = await createPost('merged-post', { category_id: source });
    must(await editor.from('blog_categories').update({ name: 'Typo2', slug: slugFor('typo2') }).eq('id', source).select('id'), 'rename source');

    expect(must(await editor.rpc('merge_categories', { p_source_id: source, p_target_id: target }), 'merge')).toBe(1);
    expect((await postOf(post.id)).category_id).toBe(target);
    expect(must(await service.from('blog_categories').select('id').eq('id', source), 'source')).toEqual([]);
    const redirects = must(await anon.from('blog_category_redirects').select('old_slug, category_id').in('old_slug', [slugFor('typo'), slugFor('typo2')]).order('old_slug'), 'redirects');
    expect(redirects).toEqual([
      { old_slug: slugFor('typo'), category_id: target },
      { old_slug: slugFor('typo2'), category_id: target },
    ]);
    expect(await auditEntries('category_deleted', source)).toEqual([]);
    expect(await auditEntries('categories_merged', target)).toEqual([
      {
        user_id: seed.users.editor.id, organization_id: SP, resource_type: 'blog_category',
        details: { from_name: 'Typo2', from_slug: slugFor('typo2'), to_name: 'Proper', to_slug: slugFor('proper'), post_count: 1 },
      },
    ]);
  });

  it('refuses to merge a category into itself, the default into another, or across organizations', async () => {
    const own = await createCategory(editor, 'Alone');
    const fallback = await defaultCategoryOf(SP);
    const evergreenCategory = (await defaultCategoryOf(seed.evergreen)).id;
    const cases = [
      { source: own, target: own, message: /cannot be merged into itself/ },
      { source: fallback.id, target: own, message: /^default_category: the default category "Uncategorized" cannot be merged into another/ },
      { source: own, target: evergreenCategory, message: /only an editor or admin/ },
    ];
    for (const { source, target, message } of cases) {
      const { error } = await editor.rpc('merge_categories', { p_source_id: source, p_target_id: target });
      expect(error?.message).toMatch(message);
    }
    expect(must(await service.from('blog_categories').select('id').in('id', [own, fallback.id]), 'still there')).toHaveLength(2);
  });
});

describe('tags are case-insensitive per organization', () => {
  const tag = `Tax-${run}-Seo`;

  it('keeps the first spelling through REST and drops case duplicates within a post', async () => {
    const first = await createPost('tags-first', { tags: [tag, tag.toLowerCase(), 'Other'] });
    expect(first.tags).toEqual([tag, 'Other']);
    const second = await createPost('tags-second', { tags: [tag.toUpperCase()] });
    expect(second.tags).toEqual([tag]);
    const updated = must(await editor.from('blog_posts').update({ tags: [tag.toLowerCase(), 'other'] }).eq('id', second.id).select('tags').single(), 'update');
    expect(updated.tags).toEqual([tag, 'Other']);
    expect(must(await editor.from('blog_tags').select('name').eq('organization_id', SP).ilike('name', tag), 'registry')).toEqual([{ name: tag }]);
  });

  it('keeps the first spelling through the webhook, which logs the category it creates with no actor', async () => {
    const result = must(
      await service.rpc('receive_arrival', {
        p_arrival: {
          token: seed.webhookToken,
          post: { slug: slugFor('webhook'), title: 'Webhook', content: '<p>x</p>', category_name: `Tax ${run} Hook`, category_slug: slugFor('hook'), tags: [tag.toUpperCase(), 'OTHER'] },
        },
      }),
      'delivery',
    ) as { post?: { id: string } };
    const post = await postOf(result.post!.id);
    expect(post.tags).toEqual([tag, 'Other']);
    const [entry] = await auditEntries('category_created', post.category_id);
    expect(entry).toMatchObject({ user_id: null, organization_id: SP, details: { name: `Tax ${run} Hook`, by_server: true } });
  });

  it('files the writing tool\'s old category name under the category it was renamed to, instead of creating it again', async () => {
    const id = await createCategory(editor, 'OldHook');
    must(await editor.from('blog_categories').update({ name: 'NewHook', slug: slugFor('newhook') }).eq('id', id).select('id'), 'rename');
    const result = must(
      await service.rpc('receive_arrival', {
        p_arrival: {
          token: seed.webhookToken,
          post: { slug: slugFor('webhook-renamed'), title: 'Webhook', content: '<p>x</p>', category_name: 'OldHook', category_slug: slugFor('oldhook') },
        },
      }),
      'delivery',
    ) as { post?: { id: string } };
    expect((await postOf(result.post!.id)).category_id).toBe(id);
    const { count } = await service.from('blog_categories').select('id', { count: 'exact', head: true }).eq('organization_id', SP).eq('slug', slugFor('oldhook'));
    expect(count).toBe(0);
  });

  it('the migration merges existing duplicates, keeping the earliest post\'s spelling', async () => {
    await withDatabase(async (db) => {
      await db.query('begin');
      try {
        await db.query('alter table public.blog_posts disable trigger blog_posts_apply_taxonomy');
        const insert = `insert into public.blog_posts (organization_id, title, slug, content, tags, created_at)
          values ($1, 'm', $2, '<p>x</p>', $3, $4) returning id`;
        const early = (await db.query(insert, [SP, slugFor('m1'), [`tax-${run}-walk`, 'x'], '2020-01-01'])).rows[0].id;
        const late = (await db.query(insert, [SP, slugFor('m2'), [`TAX-${run}-WALK`, `Tax-${run}-Walk`], '2021-01-01'])).rows[0].id;
        await db.query('alter table public.blog_posts enable trigger blog_posts_apply_taxonomy');
        const changed = (await db.query('select private.normalize_organization_tags($1) as n', [SP])).rows[0].n;
        expect(changed).toBe(1); // the early post is already spelled right
        const tags = await db.query('select id, tags from public.blog_posts where id = any($1)', [[early, late]]);
        const byId = Object.fromEntries(tags.rows.map((row) => [row.id, row.tags]));
        expect(byId[early]).toEqual([`tax-${run}-walk`, 'x']);
        expect(byId[late]).toEqual([`tax-${run}-walk`]);
      } finally {
        await db.query('rollback');
      }
    });
  });

  it('rename_tag renames across posts, changes case, and merges into an existing tag (one per post)', async () => {
    const a = `tax-${run}-alpha`;
    const b = `tax-${run}-beta`;
    const one = await createPost('rename-1', { tags: [a] });
    const both = await createPost('rename-2', { tags: [a, b] });

    expect(must(await editor.rpc('rename_tag', { p_organization_id: SP, p_from: a, p_to: `${a}-x` }), 'rename')).toBe(2);
    expect((await postOf(one.id)).tags).toEqual([`${a}-x`]);
    expect(must(await editor.rpc('rename_tag', { p_organization_id: SP, p_from: `${a}-x`, p_to: `${a}-X` }), 'respell')).toBe(2);
    expect((await postOf(one.id)).tags).toEqual([`${a}-X`]);

    expect(must(await editor.rpc('rename_tag', { p_organization_id: SP, p_from: `${a}-X`, p_to: b.toUpperCase() }), 'merge')).toBe(2);
    expect((await postOf(one.id)).tags).toEqual([b]);
    expect((await postOf(both.id)).tags).toEqual([b]);
    expect(must(await service.from('blog_tags').select('name').eq('organization_id', SP).ilike('name', `${a}%`), 'registry')).toEqual([]);

    expect(await auditEntries('tag_renamed', `${a}-x`)).toEqual([
      { user_id: seed.users.editor.id, organization_id: SP, resource_type: 'blog_tag', details: { from: a, to: `${a}-x`, post_count: 2 } },
    ]);
    expect(await auditEntries('tags_merged', b)).toEqual([
      { user_id: seed.users.editor.id, organization_id: SP, resource_type: 'blog_tag', details: { from: `${a}-X`, to: b, post_count: 2 } },
    ]);
  });

  it('rename_tag validates the new name and the old one', async () => {
    const cases = [
      { from: `tax-${run}-none`, to: 'fine', message: /^tag_not_found:/ },
      { from: `Tax-${run}-Seo`, to: ' padded ', message: /^invalid_tag:/ },
      { from: `Tax-${run}-Seo`, to: 'x'.repeat(51), message: /^invalid_tag:/ },
      { from: `Tax-${run}-Seo`, to: '', message: /^invalid_tag:/ },
    ];
    for (const { from, to, message } of cases) {
      expect((await editor.rpc('rename_tag', { p_organization_id: SP, p_from: from, p_to: to })).error?.message).toMatch(message);
    }
  });
});

describe('attacks through the raw API are refused and write nothing', () => {
  let category = '';
  const tag = `tax-${run}-guarded`;
  let post = '';

  beforeAll(async () => {
    category = await createCategory(editor, 'Guarded');
    post = (await createPost('guarded-post', { category_id: category, tags: [tag] })).id;
  });

  const attackers = () => [
    { who: 'anon', client: anon },
    { who: 'a viewer', client: viewer },
    { who: "the other organization's admin", client: otherAdmin },
  ];

  async function unchanged() {
    const row = must(await service.from('blog_categories').select('name, slug').eq('id', category).single(), 'category');
    expect(row).toEqual({ name: 'Guarded', slug: slugFor('guarded') });
    expect((await postOf(post)).tags).toEqual([tag]);
    expect(must(await service.from('blog_category_redirects').select('id').eq('category_id', category), 'redirects')).toEqual([]);
    expect(must(await service.from('user_activity_logs').select('action').in('resource_type', ['blog_category', 'blog_tag']).in('resource_id', [category, tag, `${tag}-x`]).neq('action', 'category_created'), 'audit')).toEqual([]);
  }

  it('merge_categories and rename_tag', async () => {
    const target = await createCategory(editor, 'Target');
    for (const { who, client } of attackers()) {
      const merge = await client.rpc('merge_categories', { p_source_id: category, p_target_id: target });
      expect(merge.error, who).not.toBeNull();
      const rename = await client.rpc('rename_tag', { p_organization_id: SP, p_from: tag, p_to: `${tag}-x` });
      expect(rename.error, who).not.toBeNull();
      expect(rename.error?.code, who).toBe('42501');
    }
    await unchanged();
  });

  it('writing categories, tags and redirects directly', async () => {
    for (const { who, client } of attackers()) {
      const inserted = await client.from('blog_categories').insert({ organization_id: SP, name: 'Intruder', slug: slugFor('intruder') });
      expect(inserted.error, who).not.toBeNull();
      const renamed = await client.from('blog_categories').update({ name: 'Hijacked', slug: slugFor('hijacked') }).eq('id', category).select('id');
      expect(renamed.data ?? [], who).toEqual([]);
      const deleted = await client.from('blog_categories').delete().eq('id', category).select('id');
      expect(deleted.data ?? [], who).toEqual([]);
    }
    // Tags and redirects are written by the database only: not even an editor writes them directly.
    for (const { who, client } of [...attackers(), { who: 'an editor', client: editor }]) {
      expect((await client.from('blog_tags').insert({ organization_id: SP, name: `${tag}-direct` })).error, who).not.toBeNull();
      expect((await client.from('blog_tags').update({ name: 'x' }).eq('organization_id', SP).eq('name', tag)).error, who).not.toBeNull();
      expect((await client.from('blog_tags').delete().eq('organization_id', SP).eq('name', tag)).error, who).not.toBeNull();
      expect((await client.from('blog_category_redirects').insert({ organization_id: SP, old_slug: slugFor('forged'), category_id: category })).error, who).not.toBeNull();
    }
    expect(must(await service.from('blog_categories').select('id').in('slug', [slugFor('intruder'), slugFor('hijacked')]), 'categories')).toEqual([]);
    expect(must(await service.from('blog_tags').select('name').eq('organization_id', SP).ilike('name', `${tag}%`), 'tags')).toEqual([{ name: tag }]);
    await unchanged();
  });

  it('the other organization reads neither these tags nor the counts', async () => {
    expect(must(await otherAdmin.from('blog_tags').select('name').eq('organization_id', SP), 'tags')).toEqual([]);
    expect((await anon.from('blog_tags').select('name').eq('organization_id', SP)).data ?? []).toEqual([]);
    expect(must(await otherAdmin.from('blog_tag_counts').select('name').eq('organization_id', SP), 'tag counts')).toEqual([]);
    const counts = must(await viewer.from('blog_category_counts').select('post_count').eq('id', category).single(), 'viewer counts');
    expect(counts.post_count).toBe(1);
  });
});

describe('the back office module (src/lib/back-office/blog-taxonomy.ts) under real sessions', () => {
  it('lists categories with counts (default first) and tags in use, for a viewer too', async () => {
    const categories = await listCategories(viewer, SP);
    expect(categories[0]).toMatchObject({ name: 'Uncategorized', is_default: true });
    expect(categories.find((category) => category.id === seed.category)?.post_count).toBeGreaterThan(0);
    const tags = await listTags(viewer, SP);
    expect(tags.find((tag) => tag.name === 'SEO')?.post_count).toBeGreaterThan(0);
    expect(tags.every((tag) => tag.post_count > 0)).toBe(true);
  });

  it('creates, renames, merges and deletes with the exact refusals a person reads', async () => {
    const fallback = await defaultCategoryOf(SP);
    const made = await createWithLib(editor, SP, `Tax ${run} Lib`);
    await expect(createWithLib(editor, SP, `tax ${run} lib!`)).rejects.toThrow(TAXONOMY_MESSAGES.categorySlugTaken);
    expect(await renameCategory(editor, made.id, `Tax ${run} Lib Two`)).toEqual({ name: `Tax ${run} Lib Two`, slug: slugFor('lib-two') });
    await expect(deleteCategory(editor, fallback.id)).rejects.toThrow(TAXONOMY_MESSAGES.defaultUndeletable);
    await expect(mergeCategories(editor, fallback.id, made.id)).rejects.toThrow(TAXONOMY_MESSAGES.defaultUnmergeable);
    await expect(renameCategory(viewer, made.id, 'Nope')).rejects.toThrow(TAXONOMY_MESSAGES.categoryGone);
    await expect(deleteCategory(viewer, made.id)).rejects.toThrow(TAXONOMY_MESSAGES.notAllowed);
    await expect(renameTag(viewer, SP, 'SEO', 'seo')).rejects.toThrow(TAXONOMY_MESSAGES.notAllowed);
    await expect(renameTag(editor, SP, `tax-${run}-missing`, 'x')).rejects.toThrow(TAXONOMY_MESSAGES.tagNotFound);
    expect(await mergeCategories(editor, made.id, fallback.id)).toBe(0);
  });
});
