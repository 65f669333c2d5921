import { describe, expect, it } from 'vitest';
import { withDatabase } from './support/db-fixtures.ts';

// Structural guarantees, read from pg_catalog: they fail as soon as a migration forgets one.
describe('database catalog', () => {
  it('every table in public has row level security enabled', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity order by 1`)).rows);
    expect(rows.map((r) => r.relname)).toEqual([]);
  });

  it('every SECURITY DEFINER function in public pins its search_path', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.prosecdef
         and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) as c where c like 'search_path=%')
       order by 1`)).rows);
    expect(rows.map((r) => r.proname)).toEqual([]);
  });

  it('the membership helpers are not executable by anon', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select p.proname, has_function_privilege('anon', p.oid, 'execute') as anon_can
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname in ('is_org_member', 'org_role', 'is_org_admin', 'is_org_editor')
       order by 1`)).rows);
    expect(rows).toEqual([
      { proname: 'is_org_admin', anon_can: false },
      { proname: 'is_org_editor', anon_can: false },
      { proname: 'is_org_member', anon_can: false },
      { proname: 'org_role', anon_can: false },
    ]);
  });

  it('every foreign key in public is covered by an index', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select c.conrelid::regclass::text as tbl, c.conname from pg_constraint c
       join pg_namespace n on n.oid = c.connamespace
       where c.contype = 'f' and n.nspname = 'public'
         and not exists (
           select 1 from pg_index i
           where i.indrelid = c.conrelid
             and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] @> c.conkey
             and (i.indkey::int2[])[0:cardinality(c.conkey) - 1] <@ c.conkey)
       order by 1, 2`)).rows);
    expect(rows).toEqual([]);
  });

  it('organization domains are lower case only, so their unique constraint holds regardless of case (the build compares hosts exactly)', async () => {
    const refusal = async (domain: string) =>
      withDatabase(async (db) => {
        await db.query('begin');
        try {
          await db.query(`insert into public.organizations (name, slug, domain) values ('Probe', 'domain-probe', $1)`, [domain]);
          return null;
        } catch (error) {
          return (error as { code?: string }).code;
        } finally {
          await db.query('rollback');
        }
      });
    expect(await refusal('ScaleProMarketing.com')).toBe('23514'); // check: lower case only
    expect(await refusal('scalepromarketing.com')).toBe('23505'); // unique: the seed's scale-pro has it
    expect(await refusal('scalepromarketing.com.')).toBe('23514'); // no trailing dot, ports or schemes
    expect(await refusal('probe.scalepromarketing.com')).toBeNull();
  });

  it('anon cannot read private profile columns', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select column_name, has_column_privilege('anon', 'public.profiles', column_name, 'select') as readable
       from information_schema.columns where table_schema = 'public' and table_name = 'profiles' order by 1`)).rows);
    const readable = rows.filter((r) => r.readable).map((r) => r.column_name).sort();
    expect(readable).toEqual(['author_title', 'author_website', 'avatar_url', 'bio', 'full_name', 'id']);
  });
});
