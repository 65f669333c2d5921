/**
 * One REST request inserting 1,000 blog posts, as bench/site-build.ts seeds them, against the project's own
 * migrations and seed (the posts' triggers, policies and defaults). A separate instance: a thousand published
 * posts, their rebuild requests and activity rows must never reach the shared backend other suites read.
 * The insert used to re-read the whole body for every row and column and ran out of time (and memory).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonClient, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';
import { startTestBackend, type TestBackend } from './support/local-backend-instance.ts';

let backend: TestBackend;
beforeAll(() => {
  backend = startTestBackend();
});
afterAll(async () => {
  await backend?.stop();
});

const PARAGRAPH =
  '<p>Local search visibility grows when a business keeps its listings accurate, earns reviews and publishes ' +
  'pages that answer what nearby customers ask. Measure calls, direction requests and form fills, not rankings alone.</p>';

describe('bulk insert of blog posts over REST', () => {
  it('inserts 1,000 posts in one request', async () => {
    const service = backend.service();
    const { data: categories } = await service.from('blog_categories').select('id').eq('organization_id', seed.scalePro);
    expect(categories!.length).toBeGreaterThan(0);
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      organization_id: seed.scalePro,
      title: `Bulk article ${i + 1}: growing a local business online`,
      slug: `bulk-article-${i + 1}`,
      excerpt: 'How local businesses turn search visibility into calls and booked jobs.',
      content: PARAGRAPH.repeat(12),
      status: 'published',
      published_at: new Date(Date.now() - (i + 1) * 3_600_000).toISOString(),
      category_id: categories![i % categories!.length]!.id,
      tags: ['benchmark', `topic-${i % 20}`],
    }));

    const { error, status } = await service.from('blog_posts').insert(rows);
    expect(error).toBeNull();
    expect(status).toBe(201);
    const inserted = await service.from('blog_posts').select('id', { count: 'exact', head: true }).like('slug', 'bulk-article-%');
    expect(inserted.count).toBe(1000);
    const last = await service.from('blog_posts').select('title, content, tags').eq('slug', 'bulk-article-1000').single();
    expect(last.data).toMatchObject({ title: rows[999]!.title, content: rows[999]!.content });
    expect(last.data!.tags).toEqual(expect.arrayContaining(['benchmark', 'topic-19']));

    const removed = await service.from('blog_posts').delete().like('slug', 'bulk-article-%');
    expect(removed.error).toBeNull();
    const left = await service.from('blog_posts').select('id', { count: 'exact', head: true }).like('slug', 'bulk-article-%');
    expect(left.count).toBe(0);
  });
});

// Refusals write nothing, so these run against the shared backend, with sessions from the app's sign-in path.
describe('bulk inserts under row-level security', () => {
  const row = (n: number, organization_id: string) => ({
    organization_id, author_id: seed.users.editor.id, title: `Bulk attack ${n}`, slug: `bulk-attack-${n}`, content: '<p>x</p>', status: 'draft',
  });
  // Ninety-nine rows of the editor's own organization and one of another organization.
  const mixed = [...Array.from({ length: 99 }, (_, i) => row(i, seed.scalePro)), row(99, seed.evergreen)];

  it('refuses a bulk insert with one row the caller may not write, and anon\'s, and writes none of their rows', async () => {
    const editor = await signedInClient(seed.users.editor.email);
    expect((await editor.from('blog_posts').insert(mixed)).error?.code).toBe('42501');
    expect((await anonClient().from('blog_posts').insert(mixed.slice(0, 99))).error?.code).toBe('42501');
    const written = await serviceClient().from('blog_posts').select('id', { count: 'exact', head: true }).like('slug', 'bulk-attack-%');
    expect(written.count).toBe(0);
  });
});
