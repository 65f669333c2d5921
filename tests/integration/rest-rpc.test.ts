import { describe, expect, it } from 'vitest';
import { anon, anonKey, asUser, restUrl, service, USERS } from './support/rest-clients.ts';

describe('REST rpc', () => {
  it('returns a scalar as JSON, by POST and by GET', async () => {
    expect(await anon.rpc('add_numbers', { a: 2, b: 3 })).toMatchObject({ data: 5, error: null, status: 200 });
    expect((await anon.rpc('add_numbers', { a: 2, b: 40 }, { get: true })).data).toBe(42);
  });

  it('chooses an overload by argument names and uses defaults', async () => {
    expect((await anon.rpc('greet')).data).toBe('hello');
    expect((await anon.rpc('greet', { name: 'Ada' })).data).toBe('hello Ada');
    expect((await anon.rpc('greet', { name: 'Ada', greeting: 'hi' })).data).toBe('hi Ada');
  });

  it('returns setof rows as an array, filterable, orderable and with embeds', async () => {
    const all = await anon.rpc('published_posts').select('slug');
    expect(all.data).toEqual([{ slug: 'local-seo' }, { slug: 'paid-ads' }, { slug: 'editing' }]);
    const filtered = await anon.rpc('published_posts').select('slug, author:profiles!author_id(full_name)')
      .gt('views', 100).order('id', { ascending: false }).limit(1);
    expect(filtered.data).toEqual([{ slug: 'paid-ads', author: { full_name: 'Ada Author' } }]);
    const single = await anon.rpc('published_posts').select('slug').eq('id', 4).single();
    expect(single.data).toEqual({ slug: 'editing' });
  });

  it('returns a single composite as an object and TABLE/scalar sets as arrays', async () => {
    const post = await anon.rpc('post_by_slug', { post_slug: 'paid-ads' }).select('id, title');
    expect(post.data).toEqual({ id: 2, title: 'Paid ads, plainly' });
    const titles = await anon.rpc('post_titles', { min_views: 100 });
    expect(titles.data).toEqual([{ id: 1, title: 'Local SEO in Atlanta' }, { id: 2, title: 'Paid ads, plainly' }]);
    const ids = await anon.rpc('post_ids');
    expect(ids.data).toEqual([1, 2, 4]);
  });

  it('round-trips jsonb arguments intact', async () => {
    const payload = { a: [1, 2.5, { b: null }], c: true, d: 'text', e: { f: { g: [] } } };
    expect((await anon.rpc('echo_json', { payload })).data).toEqual(payload);
  });

  it('answers 204 for void functions', async () => {
    const result = await anon.rpc('do_nothing');
    expect(result.status).toBe(204);
    expect(result.error).toBeNull();
  });

  it('runs as the caller with request settings', async () => {
    expect((await anon.rpc('whoami')).data).toEqual({ role: 'anon', sub: null, method: 'POST' });
    expect((await asUser(USERS.rita).rpc('whoami', {}, { get: true })).data).toEqual({ role: 'authenticated', sub: USERS.rita, method: 'GET' });
    expect((await service.rpc('whoami')).data).toMatchObject({ role: 'service_role' });
  });

  it('refuses writes in a GET call (405, read-only transaction)', async () => {
    const result = await service.rpc('bump_views', { post: 2 }, { get: true });
    expect(result.status).toBe(405);
    expect(result.error?.code).toBe('25006');
  });

  it('maps raised errors: P0001 to 400 and PT402 to 402', async () => {
    const failed = await anon.rpc('fail_with', { code: 'other' });
    expect(failed.status).toBe(400);
    expect(failed.error).toMatchObject({ code: 'P0001', message: 'Failed on purpose: other', hint: 'Call it with another code' });
    const payment = await anon.rpc('fail_with', { code: 'payment' });
    expect(payment.status).toBe(402);
    expect(payment.error).toMatchObject({ code: 'PT402', message: 'Payment required', details: 'Upgrade your plan' });
  });

  it('answers PGRST202 (404) for an unknown function or argument set', async () => {
    const unknown = await anon.rpc('no_such_function', { x: 1, a: 2 });
    expect(unknown.status).toBe(404);
    expect(unknown.error).toEqual({
      code: 'PGRST202',
      message: 'Could not find the function public.no_such_function(a, x) in the schema cache',
      details: 'Searched for the function public.no_such_function with parameters a, x or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
      hint: null,
    });
    const wrongArgs = await anon.rpc('add_numbers', { a: 1 });
    expect(wrongArgs.error?.code).toBe('PGRST202');
  });

  it('answers bad JSON with PGRST102', async () => {
    const response = await fetch(`${restUrl}/rpc/add_numbers`, {
      method: 'POST', body: '{"a": 1,', headers: { apikey: anonKey, authorization: `Bearer ${anonKey}`, 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe('PGRST102');
  });
});
