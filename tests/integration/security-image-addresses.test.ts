/**
 * Image addresses the build may download (migration 20261125000400_image_addresses.sql): an editor writing a
 * featured image or an author photo over the raw REST API cannot save an address of the cloud metadata
 * service, an internal host, an IP address or plain http; the database says why (22023) and nothing is
 * written. Controls: a public https address and a Media Library file are saved. The database's rule answers
 * every case as src/schemas/image-url.ts does.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageUrlProblem } from '../../src/schemas/image-url.ts';
import { IMAGE_URL_CASES } from '../fixtures/image-urls.ts';
import { seed, serviceClient, signedInClient, withDatabase } from './support/db-fixtures.ts';

const service = serviceClient();
const slug = `image-address-${crypto.randomUUID().slice(0, 8)}`;
const LIBRARY_FILE = `http://127.0.0.1:54321/storage/v1/object/public/media/${seed.scalePro}/seo-strategies.jpg`;
let editor: SupabaseClient;
let postId: string;
let originalAvatar: string | null;

beforeAll(async () => {
  editor = await signedInClient(seed.users.editor.email);
  const { data, error } = await editor.from('blog_posts')
    .insert({ organization_id: seed.scalePro, title: 'Image address test', slug, content: '<p>x</p>', content_source: 'x', content_format: 'markdown', author_id: seed.users.editor.id })
    .select('id').single();
  if (error) throw new Error(error.message);
  postId = data.id;
  originalAvatar = (await service.from('profiles').select('avatar_url').eq('id', seed.users.editor.id).single()).data!.avatar_url;
});

afterAll(async () => {
  await service.from('blog_posts').delete().eq('slug', slug);
  await service.from('profiles').update({ avatar_url: originalAvatar }).eq('id', seed.users.editor.id);
});

it('the database answers every case as the browser does', async () => {
  await withDatabase(async (db) => {
    for (const [url, problem] of IMAGE_URL_CASES) {
      const { rows } = await db.query('select private.image_url_problem($1) as problem', [url]);
      expect({ url, problem: rows[0].problem }).toEqual({ url, problem });
      expect(imageUrlProblem(url)).toBe(problem);
    }
  });
});

describe.each([
  ['http://169.254.169.254/latest/meta-data/iam/security-credentials/', 'An image address must start with https:// (or be a file of the Media Library)'],
  ['https://10.0.0.5/internal.png', 'An image address must name a public host, not an IP address'],
  ['https://metadata.google.internal/computeMetadata/v1/', 'An image address must name a public host'],
])('an editor writing %s over REST', (url, problem) => {
  it('as a featured image: refused with the reason, the post unchanged', async () => {
    const { error } = await editor.from('blog_posts').update({ featured_image_url: url }).eq('id', postId);
    expect(error).toMatchObject({ code: '22023', message: `featured_image_url: ${problem}` });
    const { data } = await service.from('blog_posts').select('featured_image_url').eq('id', postId).single();
    expect(data?.featured_image_url).toBeNull();
  });

  it('in a new post: refused, no post written', async () => {
    const other = `${slug}-new`;
    const { error } = await editor.from('blog_posts').insert({ organization_id: seed.scalePro, title: 'Sneaky', slug: other, content: '<p>x</p>', content_source: 'x', content_format: 'markdown', author_id: seed.users.editor.id, featured_image_url: url });
    expect(error?.code).toBe('22023');
    expect((await service.from('blog_posts').select('id').eq('slug', other)).data).toEqual([]);
  });

  it('as an author photo: refused, the profile unchanged', async () => {
    const { error } = await editor.from('profiles').update({ avatar_url: url }).eq('id', seed.users.editor.id);
    expect(error).toMatchObject({ code: '22023', message: `avatar_url: ${problem}` });
    const { data } = await service.from('profiles').select('avatar_url').eq('id', seed.users.editor.id).single();
    expect(data?.avatar_url).toBe(originalAvatar);
  });
});

describe('controls', () => {
  it('a public https address and a Media Library file are saved', async () => {
    const featured = await editor.from('blog_posts').update({ featured_image_url: 'https://images.example.com/cover.jpg' }).eq('id', postId).select('featured_image_url');
    expect(featured.error).toBeNull();
    expect(featured.data).toEqual([{ featured_image_url: 'https://images.example.com/cover.jpg' }]);
    const avatar = await editor.from('profiles').update({ avatar_url: LIBRARY_FILE }).eq('id', seed.users.editor.id).select('avatar_url');
    expect(avatar.error).toBeNull();
    expect(avatar.data).toEqual([{ avatar_url: LIBRARY_FILE }]);
  });

  it('a post saved before the rule, with an address it now refuses, can still be edited (the address is not re-judged until changed)', async () => {
    await withDatabase(async (db) => {
      await db.query('alter table public.blog_posts disable trigger blog_posts_guard_image_address');
      try {
        await db.query('update public.blog_posts set featured_image_url = $1 where id = $2', ['http://old-cdn.example.com/a.jpg', postId]);
      } finally {
        await db.query('alter table public.blog_posts enable trigger blog_posts_guard_image_address');
      }
    });
    const { error } = await editor.from('blog_posts').update({ title: 'Edited later', featured_image_url: 'http://old-cdn.example.com/a.jpg' }).eq('id', postId);
    expect(error).toBeNull();
    const { data } = await service.from('blog_posts').select('title').eq('id', postId).single();
    expect(data?.title).toBe('Edited later');
  });
});
