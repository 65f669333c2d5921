/**
 * The migration that gave posts their source (20261123006000) on rows written before it: a test instance
 * runs every migration before it, gets posts of the old shape, then runs the migration itself. Each post's
 * HTML must become its HTML source, unchanged, and its updated_at (which drives rebuilds and the sitemap)
 * must not move; that version becomes the post's first revision.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from './support/local-backend-instance.ts';

const MIGRATIONS = resolve(import.meta.dirname, '../../supabase/migrations');
const MIGRATION = '20261123006000_post_source_revisions_audit.sql';

let backend: TestBackend;
let before: string;

beforeAll(() => {
  before = mkdtempSync(join(tmpdir(), 'migrations-before-'));
  for (const file of readdirSync(MIGRATIONS).filter((name) => name < MIGRATION)) cpSync(join(MIGRATIONS, file), join(before, file));
  backend = startTestBackend({ migrations: before });
}, 120_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(before, { recursive: true, force: true });
});

describe(`migration ${MIGRATION}`, () => {
  it('keeps every existing post\'s HTML as its HTML source and its first revision, and its updated_at', async () => {
    const html = ['<h2>Kept</h2><p>One &amp; two</p>', '<p>Second <a href="https://example.com">post</a></p>'];
    await backend.sql(`insert into public.organizations (id, slug, name) values ('10000000-0000-4000-8000-00000000aaaa', 'old-org', 'Old Org')`);
    await backend.sql(
      `insert into public.blog_posts (organization_id, title, slug, content, status, updated_at)
       select '10000000-0000-4000-8000-00000000aaaa', 'Post ' || n, 'post-' || n, ($1::text[])[n], 'draft',
         ('2026-01-0' || n || ' 10:00:00+00')::timestamptz
       from generate_series(1, 2) as n`,
      [html],
    );
    const old = await backend.sql<{ slug: string; updated_at: Date }>('select slug, updated_at from public.blog_posts order by slug');

    await backend.sql(readFileSync(join(MIGRATIONS, MIGRATION), 'utf8'));

    const rows = await backend.sql<{ slug: string; content: string; content_source: string; content_format: string; updated_at: Date }>(
      'select slug, content, content_source, content_format, updated_at from public.blog_posts order by slug',
    );
    expect(rows.map(({ slug, content, content_source, content_format }) => ({ slug, content, content_source, content_format }))).toEqual([
      { slug: 'post-1', content: html[0], content_source: html[0], content_format: 'html' },
      { slug: 'post-2', content: html[1], content_source: html[1], content_format: 'html' },
    ]);
    expect(rows.map((row) => row.updated_at.toISOString())).toEqual(old.map((row) => row.updated_at.toISOString()));
    // Each post's current version is its first revision, so its first edit can be undone.
    const revisions = await backend.sql<{ title: string; content_source: string; source: string; changed_fields: string[]; created_at: Date }>(
      'select r.title, r.content_source, r.source, r.changed_fields, r.created_at from public.blog_post_revisions r order by r.title',
    );
    expect(revisions.map(({ title, content_source, source, changed_fields }) => ({ title, content_source, source, changed_fields }))).toEqual([
      { title: 'Post 1', content_source: html[0], source: 'system', changed_fields: [] },
      { title: 'Post 2', content_source: html[1], source: 'system', changed_fields: [] },
    ]);
    expect(revisions.map((row) => row.created_at.toISOString())).toEqual(old.map((row) => row.updated_at.toISOString()));
  });
});
