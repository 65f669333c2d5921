import { describe, expect, it } from 'vitest';
import { anon, anonKey, restUrl, service } from './support/rest-clients.ts';

/** Plain fetch for what supabase-js hides: status, headers and raw query strings. */
async function raw(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${restUrl}${path}`, { headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, ...headers } });
  return { status: response.status, headers: response.headers, body: await response.json().catch(() => null) };
}

describe('REST select: columns and embeds', () => {
  it('selects columns, aliases, casts and JSON paths', async () => {
    const { data, error } = await anon.from('posts')
      .select('id, headline:title, views_text:views::text, score:metadata->seo->>score, seo:metadata->seo')
      .eq('id', 2).single();
    expect(error).toBeNull();
    expect(data).toEqual({ id: 2, headline: 'Paid ads, plainly', views_text: '120', score: '70', seo: { score: 70 } });
  });

  it('serializes jsonb, arrays, bigint, numeric and timestamps as PostgREST does', async () => {
    const { data } = await anon.from('posts').select('tags, metadata, views, rating, published_at').eq('id', 1).single();
    expect(data).toEqual({
      tags: ['seo', 'local'],
      metadata: { seo: { score: 91, keywords: ['atlanta', 'seo'] }, featured: true, ratio: 0.5, note: null },
      views: 9007199254740,
      rating: 4.5,
      published_at: '2026-11-21T10:00:00+00:00',
    });
  });

  it('embeds many-to-one as an object, one-to-many as an array, one-to-one as an object', async () => {
    const { data, error } = await anon.from('posts')
      .select('id, author:profiles!author_id(full_name), editor:profiles!posts_editor_id_fkey(full_name), comments(body), post_stats(likes)')
      .in('id', [1, 2]).order('id');
    expect(error).toBeNull();
    expect(data).toEqual([
      { id: 1, author: { full_name: 'Ada Author' }, editor: { full_name: 'Eddie Editor' }, comments: [{ body: 'Great read' }, { body: 'Agreed' }], post_stats: { likes: 10 } },
      { id: 2, author: { full_name: 'Ada Author' }, editor: null, comments: [{ body: 'Useful' }], post_stats: { likes: 3 } },
    ]);
  });

  it('nests embeds and counts embedded rows', async () => {
    const { data } = await anon.from('profiles')
      .select('full_name, posts!author_id(slug, comments(count), author:profiles!author_id(full_name))')
      .eq('id', '00000000-0000-4000-8000-000000000002').single();
    expect(data).toEqual({ full_name: 'Eddie Editor', posts: [{ slug: 'editing', comments: [{ count: 0 }], author: { full_name: 'Eddie Editor' } }] });
  });

  it('filters, orders and limits inside an embed', async () => {
    const { data } = await anon.from('posts').select('id, comments(body)')
      .eq('id', 1).order('created_at', { referencedTable: 'comments', ascending: false })
      .limit(1, { referencedTable: 'comments' }).single();
    expect(data).toEqual({ id: 1, comments: [{ body: 'Agreed' }] });
    const filtered = await anon.from('posts').select('id, author:profiles!author_id(full_name)').eq('author.full_name', 'Nobody').eq('id', 1);
    expect(filtered.data).toEqual([{ id: 1, author: null }]);
  });

  it('drops parent rows with !inner when the embed matches nothing', async () => {
    const byAuthor = await anon.from('posts').select('slug, author:profiles!author_id!inner(full_name)')
      .eq('author.full_name', 'Eddie Editor');
    expect(byAuthor.data).toEqual([{ slug: 'editing', author: { full_name: 'Eddie Editor' } }]);
    const withComments = await anon.from('posts').select('id, comments!inner(id)').order('id');
    expect(withComments.data?.map((row) => row.id)).toEqual([1, 2]);
  });

  it('answers PGRST201 (300) for an ambiguous embed and PGRST200 (400) for a missing one', async () => {
    const ambiguous = await anon.from('posts').select('id, profiles(full_name)');
    expect(ambiguous.status).toBe(300);
    expect(ambiguous.error).toMatchObject({
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'posts' and 'profiles'",
      hint: "Try changing 'profiles' to one of the following: 'profiles!posts_author_id_fkey', 'profiles!posts_editor_id_fkey'. Find the desired relationship in the 'details' key.",
    });
    expect(ambiguous.error?.details).toContainEqual({
      cardinality: 'many-to-one', embedding: 'posts with profiles', relationship: 'posts_author_id_fkey using posts(author_id) and profiles(id)',
    });
    const selfReference = await anon.from('categories').select('name, categories(name)');
    expect(selfReference.error?.code).toBe('PGRST201');
    const missing = await anon.from('posts').select('id, notes(body)');
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ code: 'PGRST200', message: "Could not find a relationship between 'posts' and 'notes' in the schema cache" });
    const parent = await anon.from('categories').select('name, parent:categories!parent_id(name)').eq('id', 2).single();
    expect(parent.data).toEqual({ name: 'SEO', parent: { name: 'Marketing' } });
  });
});

describe('REST select: filters', () => {
  const slugs = async (build: (q: ReturnType<typeof anon.from>) => PromiseLike<{ data: unknown; error: unknown }>) => {
    const { data, error } = await build(anon.from('posts'));
    expect(error).toBeNull();
    return (data as { slug: string }[]).map((row) => row.slug).sort();
  };
  const cases: [string, (q: ReturnType<typeof anon.from>) => PromiseLike<{ data: unknown; error: unknown }>, string[]][] = [
    ['eq', (q) => q.select('slug').eq('slug', 'paid-ads'), ['paid-ads']],
    ['neq', (q) => q.select('slug').neq('slug', 'paid-ads'), ['editing', 'local-seo']],
    ['gt/lte', (q) => q.select('slug').gt('views', 7).lte('views', 120), ['paid-ads']],
    ['gte/lt', (q) => q.select('slug').gte('views', 7).lt('views', 120), ['editing']],
    ['like with *', (q) => q.select('slug').like('title', '*SEO*'), ['local-seo']],
    ['ilike', (q) => q.select('slug').ilike('title', '%seo%'), ['local-seo']],
    ['is null', (q) => q.select('slug').is('rating', null), ['editing']],
    ['not is null', (q) => q.select('slug').not('editor_id', 'is', null), ['editing', 'local-seo']],
    ['in with quoted values', (q) => q.select('slug').in('title', ['Editing, "quoted", with commas', 'Paid ads, plainly']), ['editing', 'paid-ads']],
    ['array contains', (q) => q.select('slug').contains('tags', ['seo']), ['editing', 'local-seo']],
    ['array contained by', (q) => q.select('slug').containedBy('tags', ['ads', 'seo', 'local']), ['local-seo', 'paid-ads']],
    ['array overlaps', (q) => q.select('slug').overlaps('tags', ['ads', 'editing']), ['editing', 'paid-ads']],
    ['jsonb contains', (q) => q.select('slug').contains('metadata', { seo: { score: 70 } }), ['paid-ads']],
    ['jsonb path', (q) => q.select('slug').eq('metadata->seo->>score', '55'), ['editing']],
    ['or', (q) => q.select('slug').or('views.gt.1000,slug.eq.editing'), ['editing', 'local-seo']],
    ['or with nested and', (q) => q.select('slug').or('slug.eq.editing,and(views.gt.100,views.lt.1000)'), ['editing', 'paid-ads']],
    ['text search', (q) => q.select('slug').textSearch('title', 'atlanta', { type: 'plain', config: 'english' }), ['local-seo']],
  ];
  it.each(cases)('%s', async (_name, build, expected) => {
    expect(await slugs(build)).toEqual(expected);
  });

  it('negates a whole logic tree with not.or', async () => {
    const response = await raw('/posts?select=slug&not.or=(slug.eq.editing,slug.eq.paid-ads)');
    expect(response.body).toEqual([{ slug: 'local-seo' }]);
  });

  it('rejects a malformed filter with PGRST100 (400)', async () => {
    const response = await raw('/posts?views=gte');
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('PGRST100');
    const badSelect = await raw('/posts?select=id,author(');
    expect(badSelect.body.code).toBe('PGRST100');
  });

  it('reports unknown columns and tables with Postgres codes', async () => {
    const column = await anon.from('posts').select('nope');
    expect(column.status).toBe(400);
    expect(column.error).toMatchObject({ code: '42703', message: 'column posts.nope does not exist' });
    const table = await anon.from('no_such_table').select();
    expect(table.status).toBe(404);
    expect(table.error?.code).toBe('42P01');
  });
});

describe('REST select: order, paging, counts and single objects', () => {
  it('orders by several columns with nulls placement', async () => {
    const { data } = await anon.from('posts').select('slug').order('rating', { ascending: false, nullsFirst: true }).order('id');
    expect(data?.map((row) => row.slug)).toEqual(['editing', 'local-seo', 'paid-ads']);
  });

  it('pages with range and reports exact counts in Content-Range with 206 for partial pages', async () => {
    const page = await anon.from('posts').select('id', { count: 'exact' }).order('id').range(1, 1);
    expect(page.status).toBe(206);
    expect(page.count).toBe(3);
    expect(page.data).toEqual([{ id: 2 }]);
    const all = await raw('/posts?select=id&order=id', { prefer: 'count=exact' });
    expect(all.status).toBe(200);
    expect(all.headers.get('content-range')).toBe('0-2/3');
    const empty = await raw('/posts?select=id&id=eq.999', { prefer: 'count=exact' });
    expect(empty.headers.get('content-range')).toBe('*/0');
    const uncounted = await raw('/posts?select=id&limit=2');
    expect(uncounted.headers.get('content-range')).toBe('0-1/*');
    const rangeHeader = await raw('/posts?select=id&order=id', { range: '1-2', 'range-unit': 'items' });
    expect(rangeHeader.body).toEqual([{ id: 2 }, { id: 4 }]);
    const head = await anon.from('posts').select('*', { count: 'exact', head: true });
    expect(head.count).toBe(3);
    expect(head.data).toBeNull();
  });

  it('answers .single() with one object, and PGRST116 (406) for zero or many rows', async () => {
    const one = await anon.from('posts').select('slug').eq('id', 1).single();
    expect(one.data).toEqual({ slug: 'local-seo' });
    const many = await anon.from('posts').select('slug').single();
    expect(many.status).toBe(406);
    expect(many.error).toEqual({ code: 'PGRST116', details: 'The result contains 3 rows', hint: null, message: 'JSON object requested, multiple (or no) rows returned' });
    const none = await anon.from('posts').select('slug').eq('id', 999).single();
    expect(none.error?.details).toBe('The result contains 0 rows');
    const maybe = await anon.from('posts').select('slug').eq('id', 999).maybeSingle();
    expect(maybe).toMatchObject({ data: null, error: null });
  });

  it('lets the service role read every row and anon only published ones', async () => {
    const everything = await service.from('posts').select('id').order('id');
    expect(everything.data?.map((row) => row.id)).toEqual([1, 2, 3, 4]);
    const published = await anon.from('posts').select('id').order('id');
    expect(published.data?.map((row) => row.id)).toEqual([1, 2, 4]);
  });
});
