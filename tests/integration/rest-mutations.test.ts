import { afterAll, describe, expect, it } from 'vitest';
import { anon, anonKey, asUser, restUrl, service, USERS } from './support/rest-clients.ts';

const ada = asUser(USERS.ada);
const rita = asUser(USERS.rita);
const created: number[] = [];

afterAll(async () => {
  if (created.length) await service.from('posts').delete().in('id', created);
  await service.from('posts').delete().like('slug', 'mutation-%');
});

async function raw(method: string, path: string, body: string | undefined, headers: Record<string, string> = {}) {
  const response = await fetch(`${restUrl}${path}`, {
    method, body, headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json', ...headers },
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

describe('REST insert', () => {
  it('inserts one object and returns it with embeds (201)', async () => {
    const { data, error, status } = await ada.from('posts')
      .insert({ author_id: USERS.ada, title: 'Mutation one', slug: 'mutation-one', metadata: { nested: { list: [1, 'two', null, false] } } })
      .select('id, slug, status, metadata, author:profiles!author_id(full_name)').single();
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toMatchObject({ slug: 'mutation-one', status: 'draft', metadata: { nested: { list: [1, 'two', null, false] } }, author: { full_name: 'Ada Author' } });
    created.push(data!.id);
  });

  it('inserts arrays with minimal return (201, no body); a key missing from one row is null there', async () => {
    const { data, error, status } = await ada.from('posts').insert([
      { author_id: USERS.ada, title: 'Mutation two', slug: 'mutation-two', status: 'draft', rating: 1.5 },
      { author_id: USERS.ada, title: 'Mutation three', slug: 'mutation-three', status: 'published' },
    ]);
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toBeNull();
    const rows = await service.from('posts').select('slug, rating, status').like('slug', 'mutation-t%').order('slug');
    expect(rows.data).toEqual([
      { slug: 'mutation-three', rating: null, status: 'published' },
      { slug: 'mutation-two', rating: 1.5, status: 'draft' },
    ]);
  });

  it('uses column defaults for missing keys with defaultToNull: false (missing=default)', async () => {
    const { data, error } = await ada.from('posts').insert([
      { author_id: USERS.ada, title: 'Mutation four', slug: 'mutation-four', status: 'published' },
      { author_id: USERS.ada, title: 'Mutation five', slug: 'mutation-five' },
    ], { defaultToNull: false }).select('slug, status').order('slug');
    expect(error).toBeNull();
    expect(data).toEqual([{ slug: 'mutation-five', status: 'draft' }, { slug: 'mutation-four', status: 'published' }]);
  });

  it('upserts on the primary key or on_conflict, merging or ignoring duplicates', async () => {
    const merged = await service.from('post_stats').upsert({ post_id: 4, likes: 5 }).select().single();
    expect(merged.data).toEqual({ post_id: 4, likes: 5 });
    const again = await service.from('post_stats').upsert({ post_id: 4, likes: 6 }).select().single();
    expect(again.data).toEqual({ post_id: 4, likes: 6 });
    const ignored = await service.from('post_stats').upsert({ post_id: 4, likes: 99 }, { ignoreDuplicates: true }).select();
    expect(ignored.data).toEqual([]);
    const bySlug = await service.from('posts')
      .upsert({ author_id: USERS.ada, title: 'Mutation upserted', slug: 'mutation-one' }, { onConflict: 'slug' })
      .select('title').single();
    expect(bySlug.data).toEqual({ title: 'Mutation upserted' });
    await service.from('post_stats').delete().eq('post_id', 4);
  });

  it('maps constraint violations to PostgREST statuses', async () => {
    const duplicate = await service.from('posts').insert({ author_id: USERS.ada, title: 'Dup', slug: 'local-seo' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.error).toMatchObject({ code: '23505', details: 'Key (slug)=(local-seo) already exists.' });
    const foreign = await service.from('posts').insert({ author_id: '00000000-0000-4000-8000-00000000dead', title: 'FK', slug: 'mutation-fk' });
    expect(foreign.status).toBe(409);
    expect(foreign.error?.code).toBe('23503');
    const notNull = await service.from('posts').insert({ author_id: USERS.ada, slug: 'mutation-null' });
    expect(notNull.status).toBe(400);
    expect(notNull.error?.code).toBe('23502');
    const badValue = await service.from('posts').insert({ author_id: 'not-a-uuid', title: 'x', slug: 'mutation-bad' });
    expect(badValue.status).toBe(400);
    expect(badValue.error?.code).toBe('22P02');
  });

  it('rejects unknown columns (PGRST204) and bad JSON (PGRST102)', async () => {
    const unknown = await service.from('posts').insert({ author_id: USERS.ada, title: 'x', slug: 'mutation-x', nope: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.error).toMatchObject({ code: 'PGRST204', message: "Could not find the 'nope' column of 'posts' in the schema cache" });
    const badJson = await raw('POST', '/posts', '{"title":');
    expect(badJson.status).toBe(400);
    expect(badJson.body.code).toBe('PGRST102');
  });

  it('applies RLS to inserts: 401 for anon, 403 for another user, headers-only gives a Location', async () => {
    const asAnon = await anon.from('comments').insert({ post_id: 1, author_id: USERS.rita, body: 'sneaky' });
    expect(asAnon.status).toBe(401);
    expect(asAnon.error).toMatchObject({ code: '42501', message: 'new row violates row-level security policy for table "comments"' });
    const spoofed = await rita.from('posts').insert({ author_id: USERS.ada, title: 'Spoof', slug: 'mutation-spoof' });
    expect(spoofed.status).toBe(403);
    expect(spoofed.error?.code).toBe('42501');
    const located = await raw('POST', '/posts', JSON.stringify({ author_id: USERS.ada, title: 'Loc', slug: 'mutation-location' }), {
      authorization: `Bearer ${(await import('./support/rest-clients.ts')).userToken(USERS.ada)}`, prefer: 'return=headers-only',
    });
    expect(located.status).toBe(201);
    expect(located.headers.get('location')).toMatch(/^\/posts\?id=eq\.\d+$/);
  });

  it('inserts 1,000 rows in one request and returns them in input order with their values', async () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      author_id: USERS.ada, title: `Bulk ${i}`, slug: `mutation-bulk-${i}`, tags: [`t${i % 7}`], metadata: { i, text: 'é "quoted", ✓' }, rating: i % 10,
    }));
    const { data, error, status } = await service.from('posts').insert(rows).select('id, slug, title, tags, metadata, rating, status');
    expect(error).toBeNull();
    expect(status).toBe(201);
    expect(data).toHaveLength(1000);
    expect(data!.map((row) => row.slug)).toEqual(rows.map((row) => row.slug));
    data!.forEach((row, i) => expect(row).toMatchObject({ title: `Bulk ${i}`, tags: [`t${i % 7}`], metadata: { i, text: 'é "quoted", ✓' }, rating: i % 10, status: 'draft' }));
    const ids = data!.map((row) => row.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const { count } = await service.from('posts').select('id', { count: 'exact', head: true }).like('slug', 'mutation-bulk-%');
    expect(count).toBe(1000);
  });

  it('upserts many rows in one request: existing rows merged (same ids), new ones inserted, input order kept', async () => {
    const before = await service.from('posts').select('id, slug').like('slug', 'mutation-bulk-%').order('id');
    expect(before.data).toHaveLength(1000);
    const idOf = new Map(before.data!.map((row) => [row.slug as string, row.id as number]));
    // Every other existing row, interleaved with as many new ones.
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      author_id: USERS.ada, title: `Upserted ${i}`, slug: i % 2 ? `mutation-bulk-new-${i}` : `mutation-bulk-${i}`,
    }));
    const { data, error } = await service.from('posts').upsert(rows, { onConflict: 'slug' }).select('id, slug, title, tags');
    expect(error).toBeNull();
    expect(data!.map((row) => row.slug)).toEqual(rows.map((row) => row.slug));
    data!.forEach((row, i) => {
      expect(row.title).toBe(`Upserted ${i}`);
      if (i % 2 === 0) expect(row).toMatchObject({ id: idOf.get(row.slug), tags: [`t${i % 7}`] });
      else expect(idOf.has(row.slug)).toBe(false);
    });
    const { count } = await service.from('posts').select('id', { count: 'exact', head: true }).like('slug', 'mutation-bulk-%');
    expect(count).toBe(1500);
  });

  it('missing=default in a bulk insert gives each row the defaults of the keys it lacks, identity included', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => {
      const base = { author_id: USERS.ada, title: `Ragged ${i}`, slug: `mutation-ragged-${i}` };
      if (i % 3 === 0) return { ...base, status: 'published', views: i };
      if (i % 3 === 1) return { ...base, tags: ['given'] };
      return { ...base, id: 90_000 + i, metadata: { i } };
    });
    const { data, error } = await ada.from('posts').insert(rows, { defaultToNull: false }).select('id, slug, status, tags, metadata, views, editor_id');
    expect(error).toBeNull();
    expect(data!.map((row) => row.slug)).toEqual(rows.map((row) => row.slug));
    data!.forEach((row, i) => {
      expect(row).toMatchObject({
        status: i % 3 === 0 ? 'published' : 'draft',
        views: i % 3 === 0 ? i : 0,
        tags: i % 3 === 1 ? ['given'] : [],
        metadata: i % 3 === 2 ? { i } : {},
        editor_id: null,
      });
      if (i % 3 === 2) expect(row.id).toBe(90_000 + i);
      else expect(row.id).toBeLessThan(90_000);
    });
    // A key given as null stays null: only a missing key takes the default (status is not null).
    const explicitNull = await ada.from('posts').insert([
      { author_id: USERS.ada, title: 'Ragged default', slug: 'mutation-ragged-default' },
      { author_id: USERS.ada, title: 'Ragged null', slug: 'mutation-ragged-null', status: null },
    ], { defaultToNull: false });
    expect(explicitNull.status).toBe(400);
    expect(explicitNull.error?.code).toBe('23502');
  });

  it('rolls back with Prefer: tx=rollback', async () => {
    const response = await raw('POST', '/posts?select=slug', JSON.stringify({ author_id: USERS.ada, title: 'Gone', slug: 'mutation-rolled-back' }), {
      authorization: `Bearer ${(await import('./support/rest-clients.ts')).userToken(USERS.ada)}`, prefer: 'return=representation, tx=rollback',
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual([{ slug: 'mutation-rolled-back' }]);
    const check = await service.from('posts').select('id').eq('slug', 'mutation-rolled-back');
    expect(check.data).toEqual([]);
  });
});

describe('REST update and delete', () => {
  it('updates filtered rows (204 minimal, 200 with representation) only where RLS allows', async () => {
    const minimal = await ada.from('posts').update({ title: 'Mutation two, edited' }).eq('slug', 'mutation-two');
    expect(minimal.status).toBe(204);
    const full = await ada.from('posts').update({ tags: ['a', 'b'], metadata: { v: 2 } }).eq('slug', 'mutation-two').select('title, tags, metadata');
    expect(full.status).toBe(200);
    expect(full.data).toEqual([{ title: 'Mutation two, edited', tags: ['a', 'b'], metadata: { v: 2 } }]);
    const foreign = await rita.from('posts').update({ title: 'Hijacked' }).eq('slug', 'mutation-two').select();
    expect(foreign.data).toEqual([]);
    const unknown = await ada.from('posts').update({ nope: true }).eq('slug', 'mutation-two');
    expect(unknown.error?.code).toBe('PGRST204');
  });

  it('deletes filtered rows and returns them on request', async () => {
    const notMine = await rita.from('posts').delete().eq('slug', 'mutation-three').select('slug');
    expect(notMine.data).toEqual([]);
    const mine = await ada.from('posts').delete().eq('slug', 'mutation-three').select('slug');
    expect(mine.status).toBe(200);
    expect(mine.data).toEqual([{ slug: 'mutation-three' }]);
    const minimal = await ada.from('posts').delete().eq('slug', 'mutation-four');
    expect(minimal.status).toBe(204);
    const left = await service.from('posts').select('slug').in('slug', ['mutation-three', 'mutation-four']);
    expect(left.data).toEqual([]);
  });
});
