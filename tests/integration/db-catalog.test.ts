import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POST_LIMITS } from '../../src/schemas/post.ts';
import { withDatabase } from './support/db-fixtures.ts';

// Structural guarantees, read from pg_catalog: they fail as soon as a migration forgets one.
describe('database catalog', () => {
  it('every table in public has row level security enabled', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relrowsecurity order by 1`)).rows);
    expect(rows.map((r) => r.relname)).toEqual([]);
  });

  it('every SECURITY DEFINER function pins its search_path', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private') and p.prosecdef
         and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) as c where c like 'search_path=%')
       order by 1`)).rows);
    expect(rows.map((r) => r.proname)).toEqual([]);
  });

  // Supabase's database linter (splinter) rules 0028/0029 and 0006, as queries of our own: the API exposes
  // `public` (supabase/config.toml), so nothing there may run with its owner's rights for the API roles.
  it('no SECURITY DEFINER function in the exposed schema is executable by anon or authenticated', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select p.proname, r.role from pg_proc p
       join pg_namespace n on n.oid = p.pronamespace
       cross join (values ('anon'), ('authenticated')) as r (role)
       where n.nspname = 'public' and p.prosecdef and has_function_privilege(r.role, p.oid, 'execute')
       order by 1, 2`)).rows);
    expect(rows).toEqual([]);
  });

  it('each table has at most one permissive policy per role and action', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select tablename, role, cmd, count(*)::int as policies
       from pg_policies, unnest(roles) as role,
            unnest(case cmd when 'ALL' then array['SELECT', 'INSERT', 'UPDATE', 'DELETE'] else array[cmd] end) as action (cmd_each)
       where schemaname = 'public' and permissive = 'PERMISSIVE'
       group by tablename, role, cmd_each, cmd having count(*) > 1`)).rows);
    expect(rows).toEqual([]);
  });

  it('the helpers that policies call live in the private schema, which the API does not expose', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select n.nspname, p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where p.proname in ('current_active_user_id', 'is_org_member', 'is_org_admin', 'is_org_editor',
         'shares_organization_with', 'assert_admins_remain', 'is_member_email_of_admin_org')
       order by 2`)).rows);
    expect(rows.every((row) => row.nspname === 'private')).toBe(true);
    expect(rows).toHaveLength(7);
    const config = readFileSync(join(import.meta.dirname, '../../supabase/config.toml'), 'utf8');
    expect(/^schemas = \[(.*)\]$/m.exec(config)?.[1]).toBe('"public", "graphql_public"');
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

  // Every surface that writes a post validates with POST_LIMITS, so that nothing reaches the database for it to
  // refuse (a 500 and a failed delivery): the numbers are read back from the constraints themselves.
  it.each([
    ['blog_posts_title_check', `<= ${POST_LIMITS.title})`],
    ['blog_posts_excerpt_check', `<= ${POST_LIMITS.excerpt})`],
    ['blog_posts_content_check', `<= ${POST_LIMITS.content})`],
    ['blog_posts_content_source_check', `<= ${POST_LIMITS.content})`],
    ['blog_posts_meta_title_check', `<= ${POST_LIMITS.metaTitle})`],
    ['blog_posts_meta_description_check', `<= ${POST_LIMITS.metaDescription})`],
    ['blog_categories_name_check', `<= ${POST_LIMITS.categoryName})`],
    ['blog_tags_name_check', `<= ${POST_LIMITS.tagName})`],
  ])('POST_LIMITS holds %s', async (name, bound) => {
    const definition = await withDatabase(async (db) => (await db.query('select pg_get_constraintdef(oid) as def from pg_constraint where conname = $1', [name])).rows[0]?.def as string | undefined);
    expect(definition).toContain(bound);
  });

  it('POST_LIMITS holds the tag list check and the slug length', async () => {
    const [tagList, slug] = await withDatabase(async (db) =>
      (await db.query(`select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'public' and p.proname in ('is_valid_tag_list', 'is_valid_slug') order by p.proname desc`)).rows.map((row) => row.def as string));
    expect(tagList).toContain(`<= ${POST_LIMITS.tags}`);
    expect(tagList).toContain(`between 1 and ${POST_LIMITS.tagName}`);
    expect(slug).toContain(`<= ${POST_LIMITS.slug}`);
  });

  it('anon cannot read private profile columns', async () => {
    const rows = await withDatabase(async (db) => (await db.query(
      `select column_name, has_column_privilege('anon', 'public.profiles', column_name, 'select') as readable
       from information_schema.columns where table_schema = 'public' and table_name = 'profiles' order by 1`)).rows);
    const readable = rows.filter((r) => r.readable).map((r) => r.column_name).sort();
    expect(readable).toEqual(['author_title', 'author_website', 'avatar_url', 'bio', 'full_name', 'id', 'wp_id']);
  });
});
