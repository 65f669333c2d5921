import { describe, expect, it } from 'vitest';
import { anon, asUser, service, USERS } from './support/rest-clients.ts';

describe('REST identity and row-level security', () => {
  it('shows each identity only its own private rows', async () => {
    expect((await anon.from('notes').select('body')).data).toEqual([]);
    expect((await asUser(USERS.ada).from('notes').select('body')).data).toEqual([{ body: 'Ada private note' }]);
    expect((await asUser(USERS.rita).from('notes').select('body')).data).toEqual([{ body: 'Rita private note' }]);
    expect((await service.from('notes').select('body').order('body')).data).toEqual([{ body: 'Ada private note' }, { body: 'Rita private note' }]);
  });

  it('fills auth.uid() defaults from the caller and keeps drafts visible only to their author', async () => {
    const rita = asUser(USERS.rita);
    const inserted = await rita.from('notes').insert({ body: 'Rita second note' }).select('owner_id, body').single();
    expect(inserted.data).toEqual({ owner_id: USERS.rita, body: 'Rita second note' });
    expect((await asUser(USERS.ada).from('notes').select('body').eq('body', 'Rita second note')).data).toEqual([]);
    await rita.from('notes').delete().eq('body', 'Rita second note');
    expect((await asUser(USERS.ada).from('posts').select('slug').eq('status', 'draft')).data).toEqual([{ slug: 'email-funnels' }]);
    expect((await asUser(USERS.rita).from('posts').select('slug').eq('status', 'draft')).data).toEqual([]);
  });

  it('answers 401 to anon and 403 to a user without the privilege', async () => {
    const anonCall = await anon.rpc('create_runtime_table', { table_name: 'runtime_items_denied' });
    expect(anonCall.status).toBe(401);
    expect(anonCall.error?.code).toBe('42501');
    const userCall = await asUser(USERS.ada).rpc('create_runtime_table', { table_name: 'runtime_items_denied' });
    expect(userCall.status).toBe(403);
  });

  it('serves 100 concurrent requests of mixed identities, each seeing only what it may', async () => {
    const identities = [
      { client: anon, notes: [] as string[], drafts: [] as string[] },
      { client: asUser(USERS.ada), notes: ['Ada private note'], drafts: ['email-funnels'] },
      { client: asUser(USERS.rita), notes: ['Rita private note'], drafts: [] },
      { client: service, notes: ['Ada private note', 'Rita private note'], drafts: ['email-funnels'] },
    ];
    const results = await Promise.all(Array.from({ length: 100 }, async (_, i) => {
      const identity = identities[i % identities.length]!;
      const [notes, drafts] = await Promise.all([
        identity.client.from('notes').select('body').order('body'),
        identity.client.from('posts').select('slug').eq('status', 'draft'),
      ]);
      return {
        expected: { notes: identity.notes, drafts: identity.drafts },
        actual: { notes: notes.data?.map((row) => row.body), drafts: drafts.data?.map((row) => row.slug) },
      };
    }));
    for (const result of results) expect(result.actual).toEqual(result.expected);
  });
});

describe('REST schema cache', () => {
  it('picks up tables created at run time (NOTIFY pgrst reload)', async () => {
    const table = `runtime_items_${Date.now()}`;
    expect((await anon.from(table).select()).error?.code).toBe('42P01');
    expect((await service.rpc('create_runtime_table', { table_name: table })).status).toBe(204);
    let result = await anon.from(table).select('label');
    for (let attempt = 0; attempt < 50 && result.error; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      result = await anon.from(table).select('label');
    }
    expect(result.data).toEqual([{ label: 'created at run time' }]);
  });
});
