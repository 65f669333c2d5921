/**
 * The Media Library against the real backend (Storage API and REST), through src/lib/back-office/media.ts where a person
 * acts and through the raw API where someone attacks:
 * - an editor uploads (the row's size and type come from the stored object), the same image is reused, and
 *   the upload and the deletion are logged;
 * - a viewer cannot upload, add rows or delete; another organization's admin cannot list, read, add rows for,
 *   delete or remove our files, nor make our file their post's featured image; anonymous callers list nothing;
 * - a row whose file was never uploaded is refused, but for the seed's (a login acting as postgres);
 * - deleting a file clears the featured image of the posts that used it; media_usage lists them;
 * - new alt text on a published post's featured image requests a rebuild.
 * Every file and row made here is removed afterwards.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { savePost, type PostDraft } from '../../src/lib/back-office/posts.ts';
import { deleteMedia, describeMedia, listMedia, MediaError, mediaUsage, uploadMedia } from '../../src/lib/back-office/media.ts';
import { MEDIA_BUCKET, type MediaItem } from '../../src/lib/media-library.ts';
import { anonClient, backend, seed, serviceClient, signedInClient } from './support/db-fixtures.ts';
import { sha256Hex } from '../../src/lib/image-file.ts';
import adminMedia from '../../netlify/functions/admin-media.mts';

/** The back office's fetch of POST /api/admin/media, answered by the function itself as Netlify runs it. */
const viaFunction: typeof fetch = async (input, init) => adminMedia(new Request(new URL(String(input), 'http://localhost'), init));
const uploadVia = (client: SupabaseClient, file: File) => uploadMedia(client, seed.scalePro, file, undefined, viaFunction);

/** Calls the function with a bearer token (or none) and any body, as an attacker would. */
async function registerRaw(client: SupabaseClient | null, body: unknown): Promise<Response> {
  const token = client ? (await client.auth.getSession()).data.session?.access_token : undefined;
  return adminMedia(new Request('http://localhost/api/admin/media', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  }));
}

/** Runs a callback with a direct Postgres connection as the URL's login. */
async function withConnection<T>(url: URL, run: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: url.href });
  await db.connect();
  try {
    return await run(db);
  } finally {
    await db.end();
  }
}

const service = serviceClient();
const run = `media-it-${crypto.randomUUID().slice(0, 8)}`;
const since = new Date().toISOString();
const paths = new Set<string>();
const slugs: string[] = [];
let admin: SupabaseClient;
let editor: SupabaseClient;
let viewer: SupabaseClient;
let otherAdmin: SupabaseClient;
let anon: SupabaseClient;

/** A real image whose pixels (so SHA-256) are unique to this run and `n`. */
async function uniqueImage(n: number, format: 'png' | 'jpeg' | 'webp' = 'png'): Promise<Uint8Array<ArrayBuffer>> {
  const shade = (Number.parseInt(run.slice(-4), 16) + n * 37) % 250;
  return new Uint8Array(await sharp({ create: { width: 48 + n, height: 32, channels: 3, background: { r: shade, g: n % 250, b: 90 } } })[format]().toBuffer());
}

const fileOf = (bytes: Uint8Array<ArrayBuffer>, name: string, type = 'image/png') => new File([bytes], name, { type });

async function upload(client: SupabaseClient, n: number, name = `${run}-${n}.png`): Promise<MediaItem> {
  const { media } = await uploadVia(client, fileOf(await uniqueImage(n), name));
  paths.add(media.storage_path);
  return media;
}

async function objectExists(path: string): Promise<boolean> {
  const [folder, name] = path.split('/');
  const { data, error } = await service.storage.from(MEDIA_BUCKET).list(folder, { search: name });
  if (error) throw new Error(error.message);
  return (data ?? []).some((object) => object.name === name);
}

async function mediaRows(filter: { id?: string; path?: string }): Promise<number> {
  let query = service.from('media').select('id', { count: 'exact', head: true });
  if (filter.id) query = query.eq('id', filter.id);
  if (filter.path) query = query.eq('storage_path', filter.path);
  const { count, error } = await query;
  if (error) throw new Error(error.message);
  return count ?? 0;
}

const draft = (over: Partial<PostDraft> = {}): PostDraft => {
  const slug = `${run}-${slugs.length}`;
  slugs.push(slug);
  return {
    title: `Post ${slug}`, slug, excerpt: '', content_source: 'Body', content_format: 'markdown', status: 'draft', category_id: '',
    tags: [], featured_image_url: '', meta_title: '', meta_description: '', published_at: null, ...over,
  };
};
const asEditor = { organizationId: seed.scalePro, authorId: seed.users.editor.id };

beforeAll(async () => {
  [admin, editor, viewer, otherAdmin] = await Promise.all([
    signedInClient(seed.users.admin.email),
    signedInClient(seed.users.editor.email),
    signedInClient(seed.users.viewer.email),
    signedInClient(seed.users.otherAdmin.email),
  ]);
  anon = anonClient();
});

afterAll(async () => {
  await service.from('blog_posts').delete().in('slug', slugs);
  await service.from('media').delete().in('storage_path', [...paths]);
  if (paths.size > 0) await service.storage.from(MEDIA_BUCKET).remove([...paths]);
  await service.from('user_activity_logs').delete().eq('resource_type', 'media').like('details->>file_name', `${run}%`);
  await service.from('user_activity_logs').delete().eq('resource_type', 'blog_post').like('details->>slug', `${run}%`);
  await service.from('site_rebuild_requests').delete().gte('requested_at', since).or(`reason.like.*${run}*`);
});

describe('uploading', () => {
  it('an editor uploads: the file is stored under the organization, the row takes size and type from the object', async () => {
    const bytes = await uniqueImage(1, 'webp');
    // The name and the declared type say JPEG; the content is WebP, and that is what is stored.
    const { media, reused } = await uploadVia(editor, fileOf(bytes, `${run}-photo.jpg`, 'image/jpeg'));
    paths.add(media.storage_path);
    expect(reused).toBe(false);
    expect(media.storage_path).toMatch(new RegExp(`^${seed.scalePro}/[0-9a-f-]{36}\\.webp$`));
    expect(media).toMatchObject({ organization_id: seed.scalePro, file_name: `${run}-photo.jpg`, mime_type: 'image/webp', size_bytes: bytes.length, width: 49, height: 32, alt_text: '' });
    expect(await objectExists(media.storage_path)).toBe(true);
    const { data: row } = await service.from('media').select('created_by, sha256, source').eq('id', media.id).single();
    expect(row).toEqual({ created_by: seed.users.editor.id, sha256: await sha256Hex(bytes), source: 'upload' });
    const { data: log } = await service.from('user_activity_logs').select('user_id, organization_id, action').eq('resource_id', media.id);
    expect(log).toEqual([{ user_id: seed.users.editor.id, organization_id: seed.scalePro, action: 'media_uploaded' }]);
  });

  it('the same image again is reused: no second file, no second row', async () => {
    const bytes = await uniqueImage(2);
    const first = await uploadVia(editor, fileOf(bytes, `${run}-a.png`));
    paths.add(first.media.storage_path);
    const again = await uploadVia(admin, fileOf(bytes, `${run}-copy-of-a.png`));
    expect(again).toMatchObject({ reused: true, media: { id: first.media.id, file_name: `${run}-a.png` } });
    const { count } = await service.from('media').select('id', { count: 'exact', head: true }).eq('organization_id', seed.scalePro).like('file_name', `${run}-%a.png`);
    expect(count).toBe(1);
  });

  it('refuses a file that is not an image before anything is stored', async () => {
    await expect(uploadVia(editor, new File(['not a picture'], `${run}.png`, { type: 'image/png' }))).rejects.toThrow(MediaError);
    const { data } = await service.from('media').select('id').eq('file_name', `${run}.png`);
    expect(data).toEqual([]);
  });

  it('members add no rows over REST; the function refuses a path where nothing was uploaded', async () => {
    const path = `${seed.scalePro}/${crypto.randomUUID()}.png`;
    const { error } = await editor.from('media').insert({ organization_id: seed.scalePro, storage_path: path, file_name: `${run}-ghost.png` });
    expect(error?.code).toBe('42501');
    const answer = await registerRaw(editor, { organization_id: seed.scalePro, storage_path: path, file_name: `${run}-ghost.png` });
    expect(answer.status).toBe(404);
    expect(await mediaRows({ path })).toBe(0);
  });

  it("the seed's rows, for files bucket seeding uploads next, come from any login acting as postgres (the Supabase CLI's); the API's do not", async () => {
    const path = `${seed.scalePro}/${crypto.randomUUID()}.png`;
    const row = { organization_id: seed.scalePro, storage_path: path, file_name: `${run}-seeded.png`, mime_type: 'image/png', size_bytes: 1024 };
    const { error } = await service.from('media').insert(row);
    expect(error?.code).toBe('23503');
    expect(await mediaRows({ path })).toBe(0);
    // The CLI logs in with a temporary role of its own, made a member of postgres by the platform.
    const login = `seed_login_${crypto.randomUUID().slice(0, 8)}`;
    const superuser = new URL(backend.dbUrl);
    superuser.username = 'supabase_admin';
    await withConnection(superuser, (db) => db.query(`create role ${login} login password 'postgres'; grant postgres to ${login}`));
    try {
      const asLogin = new URL(backend.dbUrl);
      asLogin.username = login;
      paths.add(path);
      await withConnection(asLogin, async (db) => {
        await db.query('set role postgres');
        await db.query('insert into public.media (organization_id, storage_path, file_name, mime_type, size_bytes) values ($1, $2, $3, $4, $5)', [
          row.organization_id, path, row.file_name, row.mime_type, row.size_bytes,
        ]);
      });
      expect(await mediaRows({ path })).toBe(1);
    } finally {
      await withConnection(superuser, (db) => db.query(`drop role ${login}`));
    }
  });

  it('a viewer cannot upload: the Storage API refuses, no file and no row are written', async () => {
    const path = `${seed.scalePro}/${crypto.randomUUID()}.png`;
    const { error } = await viewer.storage.from(MEDIA_BUCKET).upload(path, await uniqueImage(3), { contentType: 'image/png' });
    expect(error).not.toBeNull();
    expect(await objectExists(path)).toBe(false);
    await expect(uploadVia(viewer, fileOf(await uniqueImage(4), `${run}-viewer.png`))).rejects.toThrow(MediaError);
    const { data } = await service.from('media').select('id').eq('file_name', `${run}-viewer.png`);
    expect(data).toEqual([]);
  });
});

describe('who sees and touches the files', () => {
  let ours: MediaItem;
  beforeAll(async () => {
    ours = await upload(editor, 10);
  });

  it('members list and read them; viewers too', async () => {
    expect((await listMedia(viewer, seed.scalePro, `${run}-10`)).map((m) => m.id)).toEqual([ours.id]);
    const { data } = await viewer.storage.from(MEDIA_BUCKET).list(seed.scalePro);
    expect(data?.map((object) => `${seed.scalePro}/${object.name}`)).toContain(ours.storage_path);
  });

  it('a viewer cannot describe, delete or remove them', async () => {
    await expect(describeMedia(viewer, ours, { altText: 'Viewer was here', caption: '' })).rejects.toThrow(MediaError);
    await expect(deleteMedia(viewer, ours)).rejects.toThrow(MediaError);
    await viewer.storage.from(MEDIA_BUCKET).remove([ours.storage_path]);
    expect(await objectExists(ours.storage_path)).toBe(true);
    const { data } = await service.from('media').select('alt_text').eq('id', ours.id).single();
    expect(data?.alt_text).toBe('');
  });

  it('another organization cannot list them or read the rows, and sees only public usage', async () => {
    const { data: objects } = await otherAdmin.storage.from(MEDIA_BUCKET).list(seed.scalePro);
    expect(objects ?? []).toEqual([]);
    const { data: rows } = await otherAdmin.from('media').select('id').eq('id', ours.id);
    expect(rows).toEqual([]);
    // Only what anyone can see: published posts' featured images (the public site shows them).
    expect((await mediaUsage(otherAdmin, seed.scalePro)).every((use) => use.post_status === 'published')).toBe(true);
  });

  it('another organization cannot add a row for our file, delete our row or remove our file', async () => {
    for (const organization_id of [seed.scalePro, seed.evergreen]) {
      const { error } = await otherAdmin.from('media').insert({ organization_id, storage_path: ours.storage_path, file_name: `${run}-stolen.png` });
      expect(error).not.toBeNull();
    }
    const { data: deleted } = await otherAdmin.from('media').delete().eq('id', ours.id).select('id');
    expect(deleted ?? []).toEqual([]);
    await otherAdmin.storage.from(MEDIA_BUCKET).remove([ours.storage_path]);
    const { error: overwrite } = await otherAdmin.storage.from(MEDIA_BUCKET).upload(ours.storage_path, await uniqueImage(11), { contentType: 'image/png', upsert: true });
    expect(overwrite).not.toBeNull();
    expect(await mediaRows({ id: ours.id })).toBe(1);
    expect(await objectExists(ours.storage_path)).toBe(true);
    const { data } = await service.from('media').select('id').eq('file_name', `${run}-stolen.png`);
    expect(data).toEqual([]);
  });

  it('another organization cannot upload into our folder', async () => {
    const path = `${seed.scalePro}/${crypto.randomUUID()}.png`;
    const { error } = await otherAdmin.storage.from(MEDIA_BUCKET).upload(path, await uniqueImage(12), { contentType: 'image/png' });
    expect(error).not.toBeNull();
    expect(await objectExists(path)).toBe(false);
  });

  it("another organization cannot make our file their post's featured image", async () => {
    const slug = `${run}-theirs`;
    slugs.push(slug);
    const { error } = await otherAdmin.from('blog_posts').insert({ organization_id: seed.evergreen, title: 'Theirs', slug, content: '<p>x</p>', featured_media_id: ours.id });
    expect(error?.code).toBe('23503');
    const { data } = await service.from('blog_posts').select('id').eq('slug', slug);
    expect(data).toEqual([]);
  });

  it('anonymous callers list nothing and read no rows of unpublished images', async () => {
    const { data: objects } = await anon.storage.from(MEDIA_BUCKET).list(seed.scalePro);
    expect(objects ?? []).toEqual([]);
    const { data: rows } = await anon.from('media').select('id').eq('id', ours.id);
    expect(rows).toEqual([]);
    const { error } = await anon.from('media').insert({ organization_id: seed.scalePro, storage_path: ours.storage_path, file_name: 'anon.png' });
    expect(error).not.toBeNull();
  });
});

describe('featured images, usage and deletion', () => {
  it('a post saves a library image; media_usage lists the post; deleting the file clears it and logs it', async () => {
    const media = await upload(editor, 20);
    const post = await savePost(editor, asEditor, draft({ featured_media_id: media.id, featured_image_url: 'https://cdn.example.com/old.jpg' }));
    expect(post).toMatchObject({ featured_media_id: media.id, featured_image_url: null, featured_media: { id: media.id, storage_path: media.storage_path } });
    expect(await mediaUsage(editor, seed.scalePro, media.id)).toEqual([
      { media_id: media.id, post_id: post.id, post_title: post.title, post_status: 'draft', in_content: false },
    ]);
    expect(await mediaUsage(otherAdmin, seed.scalePro, media.id)).toEqual([]);

    await deleteMedia(editor, media);
    expect(await mediaRows({ id: media.id })).toBe(0);
    expect(await objectExists(media.storage_path)).toBe(false);
    const { data: after } = await service.from('blog_posts').select('featured_media_id').eq('id', post.id).single();
    expect(after?.featured_media_id).toBeNull();
    const { data: log } = await service.from('user_activity_logs').select('user_id, action, details').eq('resource_id', media.id).eq('action', 'media_deleted');
    expect(log).toEqual([{ user_id: seed.users.editor.id, action: 'media_deleted', details: { file_name: media.file_name } }]);
  });

  it("new alt text on a published post's featured image requests a rebuild", async () => {
    const media = await upload(editor, 30);
    await savePost(editor, asEditor, draft({ status: 'published', published_at: new Date().toISOString(), featured_media_id: media.id }));
    const described = await describeMedia(editor, media, { altText: '  A chart of the results  ', caption: ' Q3, all regions ' });
    expect(described).toMatchObject({ alt_text: 'A chart of the results', caption: 'Q3, all regions' });
    await expect(describeMedia(editor, media, { altText: 'ok', caption: 'x'.repeat(501) })).rejects.toThrow('A caption can be at most 500 characters');
    const { data } = await service.from('site_rebuild_requests').select('reason').eq('organization_id', seed.scalePro).eq('reason', `Image described: ${media.file_name}`);
    expect(data).toHaveLength(1);
  });
});

describe('the rows are the system\'s, and a library file changes only with its row', () => {
  let ours: MediaItem;
  let original: { [column: string]: unknown };
  const forged: Record<string, unknown> = {
    created_by: seed.users.admin.id,
    source: 'webhook',
    sha256: 'a'.repeat(64),
    size_bytes: 1,
    mime_type: 'image/gif',
    storage_path: `${seed.scalePro}/${crypto.randomUUID()}.png`,
    created_at: '2020-01-01T00:00:00Z',
    organization_id: seed.evergreen,
  };
  beforeAll(async () => {
    ours = await upload(editor, 40);
    original = (await service.from('media').select('*').eq('id', ours.id).single()).data!;
  });

  async function bytesOf(path: string): Promise<string> {
    const { data, error } = await service.storage.from(MEDIA_BUCKET).download(path);
    if (error || !data) throw new Error(`download of ${path} failed`);
    return sha256Hex(new Uint8Array(await data.arrayBuffer()));
  }

  it.each(Object.keys(forged))('an editor cannot rewrite %s of a row (42501), and the row stays as it was', async (column) => {
    const { data, error } = await editor.from('media').update({ [column]: forged[column] }).eq('id', ours.id).select('id');
    expect(error?.code).toBe('42501');
    expect(data).toBeNull();
    const { data: now } = await service.from('media').select('*').eq('id', ours.id).single();
    expect(now).toEqual(original);
  });

  it('control: the editor changes the name and the alt text', async () => {
    const { data, error } = await editor.from('media').update({ file_name: `${run}-40-renamed.png`, alt_text: 'Renamed' }).eq('id', ours.id).select('file_name, alt_text');
    expect(error).toBeNull();
    expect(data).toEqual([{ file_name: `${run}-40-renamed.png`, alt_text: 'Renamed' }]);
    await service.from('media').update({ file_name: original.file_name, alt_text: original.alt_text, updated_at: original.updated_at }).eq('id', ours.id);
  });

  it('no caller but the system inserts a row, with a planted hash or not', async () => {
    for (const client of [editor, admin, anon]) {
      const { error } = await client.from('media').insert({ organization_id: seed.scalePro, storage_path: `${seed.scalePro}/${crypto.randomUUID()}.png`, file_name: `${run}-planted.png`, sha256: 'b'.repeat(64) });
      expect(error).not.toBeNull();
    }
    // The function takes no hash from the caller at all.
    const answer = await registerRaw(editor, { organization_id: seed.scalePro, storage_path: ours.storage_path, file_name: `${run}-planted.png`, sha256: 'b'.repeat(64) });
    expect(answer.status).toBe(400);
    const { data } = await service.from('media').select('id').eq('file_name', `${run}-planted.png`);
    expect(data).toEqual([]);
  });

  it("Storage refuses to remove a library file directly: the file, the row and the log stay", async () => {
    for (const client of [editor, admin]) await client.storage.from(MEDIA_BUCKET).remove([ours.storage_path]);
    expect(await objectExists(ours.storage_path)).toBe(true);
    expect(await mediaRows({ id: ours.id })).toBe(1);
    const { data: log } = await service.from('user_activity_logs').select('id').eq('resource_id', ours.id).eq('action', 'media_deleted');
    expect(log).toEqual([]);
  });

  it('Storage refuses to replace (upsert) or move a library file: its bytes stay those the row describes', async () => {
    const before = await bytesOf(ours.storage_path);
    const { error: upsert } = await editor.storage.from(MEDIA_BUCKET).upload(ours.storage_path, await uniqueImage(41), { contentType: 'image/png', upsert: true });
    expect(upsert).not.toBeNull();
    const moved = `${seed.scalePro}/${crypto.randomUUID()}.png`;
    const { error: move } = await editor.storage.from(MEDIA_BUCKET).move(ours.storage_path, moved);
    expect(move).not.toBeNull();
    expect(await bytesOf(ours.storage_path)).toBe(before);
    expect(before).toBe(original.sha256);
    expect(await objectExists(moved)).toBe(false);
  });

  it('control: an editor removes an upload that no row describes', async () => {
    const path = `${seed.scalePro}/${crypto.randomUUID()}.png`;
    const { error } = await editor.storage.from(MEDIA_BUCKET).upload(path, await uniqueImage(42), { contentType: 'image/png' });
    expect(error).toBeNull();
    await editor.storage.from(MEDIA_BUCKET).remove([path]);
    expect(await objectExists(path)).toBe(false);
  });

  it('the function admits only editors and admins of the organization whose folder holds the file', async () => {
    const path = `${seed.scalePro}/${crypto.randomUUID()}.png`;
    const { error } = await editor.storage.from(MEDIA_BUCKET).upload(path, await uniqueImage(43), { contentType: 'image/png' });
    expect(error).toBeNull();
    paths.add(path);
    const body = { organization_id: seed.scalePro, storage_path: path, file_name: `${run}-43.png` };
    expect((await registerRaw(null, body)).status).toBe(401);
    expect((await registerRaw(viewer, body)).status).toBe(403);
    expect((await registerRaw(otherAdmin, body)).status).toBe(403);
    // Their own organization named, our folder's file: the path must be in the named organization's folder.
    expect((await registerRaw(otherAdmin, { ...body, organization_id: seed.evergreen })).status).toBe(400);
    expect(await mediaRows({ path })).toBe(0);
    const answer = await registerRaw(editor, body);
    expect(answer.status).toBe(201);
    expect(await mediaRows({ path })).toBe(1);
    expect((await registerRaw(editor, body)).status).toBe(409);
  });

  it('the function refuses a stored file that is not an image, and removes it', async () => {
    const path = `${seed.scalePro}/${crypto.randomUUID()}.png`;
    const { error } = await editor.storage.from(MEDIA_BUCKET).upload(path, new Blob(['<svg onload=alert(1)>'], { type: 'image/png' }), { contentType: 'image/png' });
    expect(error).toBeNull();
    const answer = await registerRaw(editor, { organization_id: seed.scalePro, storage_path: path, file_name: `${run}-fake.png` });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toEqual({ message: `${run}-fake.png is not an image (JPEG, PNG, WebP, AVIF or GIF)` });
    expect(await objectExists(path)).toBe(false);
    expect(await mediaRows({ path })).toBe(0);
  });
});
