/**
 * Storage conformance: the supabase-js storage calls the product makes, against a local instance loaded with
 * tests/fixtures/storage-migrations (bucket `org-files`: private, 64 KiB, image/* and text/plain; bucket
 * `public-files`: public, 5 MiB; members of an organization read and write under its folder). Every refusal
 * is checked at the source too: no row in storage.objects and no file on disk.
 */
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SUPABASE } from '../../src/lib/server/service-config.ts';
import { startTestBackend, type TestBackend } from './support/local-backend-instance.ts';

const ADA = '00000000-0000-4000-8000-000000000001'; // member of acme
const RITA = '00000000-0000-4000-8000-000000000003'; // member of globex

let backend: TestBackend;
let ada: SupabaseClient;
let rita: SupabaseClient;
let anon: SupabaseClient;
let service: SupabaseClient;

/** An access token for `sub` as Supabase Auth signs it; `expiresIn` may be negative for an expired one. */
function userToken(sub: string): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  const body = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub, role: 'authenticated', aud: 'authenticated', iat: now, exp: now + 3600 })}`;
  return `${body}.${createHmac('sha256', LOCAL_SUPABASE.jwtSecret).update(body).digest('base64url')}`;
}

const asUser = (sub: string) => {
  const token = userToken(sub);
  return createClient(backend.apiUrl, LOCAL_SUPABASE.anonKey, { auth: { persistSession: false }, accessToken: async () => token });
};

const text = (body: string) => new Blob([body], { type: 'text/plain' });
const fileOnDisk = (bucket: string, name: string) => existsSync(join(backend.dataDir, 'storage', bucket, ...name.split('/')));
const rowCount = async (bucket: string, name: string) =>
  Number((await backend.sql<{ n: string }>('select count(*) as n from storage.objects where bucket_id = $1 and name = $2', [bucket, name]))[0]!.n);

beforeAll(() => {
  backend = startTestBackend({ migrations: resolve(import.meta.dirname, '../fixtures/storage-migrations') });
  ada = asUser(ADA);
  rita = asUser(RITA);
  anon = backend.anon();
  service = backend.service();
}, 120_000);

afterAll(async () => {
  await backend?.stop();
});

describe('storage objects', () => {
  it('uploads, refuses a duplicate, upserts and downloads the new content', async () => {
    const files = ada.storage.from('org-files');
    const first = await files.upload('acme/notes/hello.txt', text('hello'));
    expect(first.error).toBeNull();
    expect(first.data).toMatchObject({ path: 'acme/notes/hello.txt', fullPath: 'org-files/acme/notes/hello.txt' });
    expect((await files.upload('acme/notes/hello.txt', text('again'))).error?.message).toBe('The resource already exists');
    expect(await (await files.download('acme/notes/hello.txt')).data?.text()).toBe('hello');
    expect((await files.upload('acme/notes/hello.txt', text('hello again'), { upsert: true })).error).toBeNull();
    expect(await (await files.download('acme/notes/hello.txt')).data?.text()).toBe('hello again');
    expect((await files.update('acme/notes/hello.txt', text('updated'))).error).toBeNull();
    expect(await (await files.download('acme/notes/hello.txt')).data?.text()).toBe('updated');
    const [row] = await backend.sql<{ owner: string; metadata: Record<string, unknown>; path_tokens: string[] }>(
      `select owner, metadata, path_tokens from storage.objects where name = 'acme/notes/hello.txt'`);
    expect(row).toMatchObject({ owner: ADA, path_tokens: ['acme', 'notes', 'hello.txt'] });
    expect(row!.metadata).toMatchObject({ size: 7, mimetype: 'text/plain', cacheControl: 'max-age=3600', httpStatusCode: 200 });
    expect((await files.download('acme/notes/missing.txt')).error?.message).toBeTruthy();
  });

  it('takes a raw body with its content type and cache control', async () => {
    const raw = await ada.storage.from('public-files').upload('acme/raw.txt', new TextEncoder().encode('raw body'), { contentType: 'text/plain; charset=utf-8', cacheControl: '60' });
    expect(raw.error).toBeNull();
    const response = await fetch(anon.storage.from('public-files').getPublicUrl('acme/raw.txt').data.publicUrl, { method: 'HEAD' });
    expect([response.status, response.headers.get('content-type'), response.headers.get('cache-control')]).toEqual([200, 'text/plain; charset=utf-8', 'max-age=60']);
    expect((await ada.storage.from('public-files').exists('acme/raw.txt')).data).toBe(true);
    expect((await ada.storage.from('public-files').exists('acme/none.txt')).data).toBe(false);
    expect((await service.storage.createBucket('.tmp')).error?.message).toBe('Bucket name invalid');
  });

  it('serves a public bucket to a plain fetch without a key, with safe headers, and refuses a private one', async () => {
    expect((await ada.storage.from('public-files').upload('acme/page.html', new Blob(['<script>alert(1)</script>'], { type: 'text/html' }))).error).toBeNull();
    const { publicUrl } = anon.storage.from('public-files').getPublicUrl('acme/page.html').data;
    const response = await fetch(publicUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(response.headers.get('cache-control')).toBe('max-age=3600');
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(response.headers.get('last-modified')).toBeTruthy();
    expect(response.headers.get('content-length')).toBe('25');
    expect(await response.text()).toBe('<script>alert(1)</script>');
    const download = await fetch(anon.storage.from('public-files').getPublicUrl('acme/page.html', { download: 'saved.html' }).data.publicUrl);
    expect(download.headers.get('content-disposition')).toContain('attachment; filename=saved.html');
    const ranged = await fetch(publicUrl, { headers: { range: 'bytes=0-7' } });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('<script>');

    await ada.storage.from('org-files').upload('acme/private.txt', text('secret'));
    const refused = await fetch(anon.storage.from('org-files').getPublicUrl('acme/private.txt').data.publicUrl);
    expect(refused.status).toBe(400);
    expect(await refused.text()).not.toContain('secret');
  });

  it('lists a folder with prefix, search, sort and paging; folders come back with id null', async () => {
    const files = ada.storage.from('org-files');
    for (const name of ['b.txt', 'a.txt', 'c.png', 'sub/inner.txt']) {
      const blob = name.endsWith('.png') ? new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }) : text(name);
      expect((await files.upload(`acme/list/${name}`, blob)).error).toBeNull();
    }
    const all = await files.list('acme/list');
    expect(all.data?.map((entry) => [entry.name, entry.id === null])).toEqual([['a.txt', false], ['b.txt', false], ['c.png', false], ['sub', true]]);
    expect((await files.list('acme/list', { search: 'b' })).data?.map((entry) => entry.name)).toEqual(['b.txt']);
    expect((await files.list('acme/list', { sortBy: { column: 'name', order: 'desc' } })).data?.map((entry) => entry.name)).toEqual(['sub', 'c.png', 'b.txt', 'a.txt']);
    expect((await files.list('acme/list', { limit: 2, offset: 1 })).data?.map((entry) => entry.name)).toEqual(['b.txt', 'c.png']);
    expect((await files.list('acme/list')).data?.[0]?.metadata).toMatchObject({ size: 5, mimetype: 'text/plain' });
  });

  it('moves, copies and removes files, row and file together', async () => {
    const files = ada.storage.from('org-files');
    await files.upload('acme/move/from.txt', text('moving'));
    expect((await files.move('acme/move/from.txt', 'acme/move/to.txt')).error).toBeNull();
    expect([await rowCount('org-files', 'acme/move/from.txt'), fileOnDisk('org-files', 'acme/move/from.txt')]).toEqual([0, false]);
    expect(await (await files.download('acme/move/to.txt')).data?.text()).toBe('moving');
    expect((await files.copy('acme/move/to.txt', 'acme/move/copy.txt')).data).toEqual({ path: 'org-files/acme/move/copy.txt' });
    expect(await (await files.download('acme/move/copy.txt')).data?.text()).toBe('moving');
    const removed = await files.remove(['acme/move/to.txt', 'acme/move/copy.txt']);
    expect(removed.data?.map((row) => row.name).sort()).toEqual(['acme/move/copy.txt', 'acme/move/to.txt']);
    expect([await rowCount('org-files', 'acme/move/to.txt'), fileOnDisk('org-files', 'acme/move/to.txt')]).toEqual([0, false]);
    expect((await files.move('acme/move/gone.txt', 'acme/move/x.txt')).error?.message).toBe('Object not found');
  });

  it('signs URLs that work without a key and refuses expired or tampered tokens', async () => {
    const files = ada.storage.from('org-files');
    await files.upload('acme/signed.txt', text('signed content'));
    const signed = await files.createSignedUrl('acme/signed.txt', 60);
    expect(signed.error).toBeNull();
    const ok = await fetch(signed.data!.signedUrl);
    expect([ok.status, await ok.text()]).toEqual([200, 'signed content']);
    expect(ok.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");

    const many = await files.createSignedUrls(['acme/signed.txt', 'acme/none.txt'], 60);
    expect(many.data?.map((entry) => [entry.path, entry.error === null])).toEqual([['acme/signed.txt', true], ['acme/none.txt', false]]);

    const url = new URL(signed.data!.signedUrl);
    const token = url.searchParams.get('token')!;
    const [header, payload] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, url: 'org-files/acme/private.txt' })).toString('base64url')}.${token.split('.')[2]}`;
    const tampered = await fetch(`${backend.apiUrl}/storage/v1/object/sign/org-files/acme/private.txt?token=${forged}`);
    expect(tampered.status).toBe(400);
    expect((await tampered.json()).message).toBe('invalid signature');
    const elsewhere = await fetch(`${backend.apiUrl}/storage/v1/object/sign/org-files/acme/private.txt?token=${token}`);
    expect(elsewhere.status).toBe(400);

    const shortLived = await files.createSignedUrl('acme/signed.txt', 1);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const expired = await fetch(shortLived.data!.signedUrl);
    expect(expired.status).toBe(400);
    expect((await expired.json()).message).toBe('jwt expired');
  });

  it("enforces the bucket's size and MIME limits, writing nothing", async () => {
    const files = ada.storage.from('org-files');
    const big = await files.upload('acme/big.txt', new Blob([new Uint8Array(65_537)], { type: 'text/plain' }));
    expect(big.error?.message).toBe('The object exceeded the maximum allowed size');
    const pdf = await files.upload('acme/doc.pdf', new Blob(['%PDF'], { type: 'application/pdf' }));
    expect(pdf.error?.message).toBe('mime type application/pdf is not supported');
    for (const name of ['acme/big.txt', 'acme/doc.pdf']) expect([await rowCount('org-files', name), fileOnDisk('org-files', name)]).toEqual([0, false]);
    expect((await ada.storage.from('no-such-bucket').upload('acme/x.txt', text('x'))).error?.message).toBe('Bucket not found');
  });

  it('refuses path traversal and odd keys', async () => {
    // URLs cannot carry dot segments (fetch resolves even %2e); the keys in move and copy bodies can.
    for (const key of ['acme//x.txt', 'acme%5Cx.txt', 'acme/x%00.txt', '%2Fetc%2Fpasswd']) {
      const response = await fetch(`${backend.apiUrl}/storage/v1/object/org-files/${key}`, {
        method: 'POST',
        headers: { apikey: LOCAL_SUPABASE.anonKey, authorization: `Bearer ${userToken(ADA)}`, 'content-type': 'text/plain' },
        body: 'x',
      });
      expect(response.status, key).toBe(400);
    }
    const encoded = await fetch(`${backend.apiUrl}/storage/v1/object/org-files/acme/%2e%2e/%2e%2e/x.txt`, {
      method: 'POST',
      headers: { apikey: LOCAL_SUPABASE.serviceRoleKey, authorization: `Bearer ${LOCAL_SUPABASE.serviceRoleKey}`, 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(encoded.status).toBe(400);
    const admin = service.storage.from('org-files');
    await admin.upload('acme/traversal.txt', text('x'));
    for (const key of ['../../escape.txt', 'acme/./x.txt', 'acme/../../../x.txt', '/etc/x.txt']) {
      expect((await admin.move('acme/traversal.txt', key)).error?.message, key).toBe(`Invalid key: ${key}`);
      expect((await admin.copy('acme/traversal.txt', key)).error?.message, key).toBe(`Invalid key: ${key}`);
    }
    expect(existsSync(join(backend.dataDir, 'escape.txt'))).toBe(false);
    expect(Number((await backend.sql<{ n: string }>(`select count(*) as n from storage.objects where name like '%..%' or name like '%\\%'`))[0]!.n)).toBe(0);
    expect(existsSync(join(backend.dataDir, 'storage', 'x.txt'))).toBe(false);
  });
});

describe('storage access by row-level security', () => {
  it("refuses another organization's member every operation, and nothing changes", async () => {
    const adaFiles = ada.storage.from('org-files');
    await adaFiles.upload('acme/rls/owned.txt', text('acme only'));
    const files = rita.storage.from('org-files');
    expect((await files.upload('acme/rls/intruder.txt', text('x'))).error?.message).toBe('new row violates row-level security policy');
    expect((await files.upload('acme/rls/owned.txt', text('overwritten'), { upsert: true })).error?.message).toBe('new row violates row-level security policy');
    expect((await files.list('acme/rls')).data).toEqual([]);
    expect((await files.download('acme/rls/owned.txt')).error).not.toBeNull();
    expect((await files.createSignedUrl('acme/rls/owned.txt', 60)).error?.message).toBe('Object not found');
    expect((await files.remove(['acme/rls/owned.txt'])).data).toEqual([]);
    expect((await files.move('acme/rls/owned.txt', 'globex/stolen.txt')).error?.message).toBe('Object not found');
    expect((await files.copy('acme/rls/owned.txt', 'globex/stolen.txt')).error?.message).toBe('Object not found');
    // And moving her own file into acme's folder fails the update policy's check.
    await files.upload('globex/mine.txt', text('globex'));
    expect((await files.move('globex/mine.txt', 'acme/rls/planted.txt')).error?.message).toBe('new row violates row-level security policy');

    expect([await rowCount('org-files', 'acme/rls/intruder.txt'), fileOnDisk('org-files', 'acme/rls/intruder.txt')]).toEqual([0, false]);
    expect([await rowCount('org-files', 'acme/rls/planted.txt'), fileOnDisk('org-files', 'acme/rls/planted.txt')]).toEqual([0, false]);
    expect([await rowCount('org-files', 'globex/stolen.txt'), fileOnDisk('org-files', 'globex/stolen.txt')]).toEqual([0, false]);
    expect([await rowCount('org-files', 'acme/rls/owned.txt'), fileOnDisk('org-files', 'acme/rls/owned.txt')]).toEqual([1, true]);
    expect(await (await adaFiles.download('acme/rls/owned.txt')).data?.text()).toBe('acme only');
  });

  it('refuses anon, and lets the service role do anything', async () => {
    const files = anon.storage.from('org-files');
    expect((await files.upload('acme/anon.txt', text('x'))).error?.message).toBe('new row violates row-level security policy');
    expect((await files.list('acme')).data).toEqual([]);
    expect((await files.download('acme/rls/owned.txt')).error).not.toBeNull();
    expect([await rowCount('org-files', 'acme/anon.txt'), fileOnDisk('org-files', 'acme/anon.txt')]).toEqual([0, false]);
    const noKey = await fetch(`${backend.apiUrl}/storage/v1/object/org-files/acme/rls/owned.txt`);
    expect(noKey.status).toBe(401);

    const admin = service.storage.from('org-files');
    expect((await admin.upload('globex/by-service.txt', text('service'))).error).toBeNull();
    expect(await (await admin.download('acme/rls/owned.txt')).data?.text()).toBe('acme only');
    expect((await admin.remove(['globex/by-service.txt'])).data).toHaveLength(1);
  });

  it('lets only the service role manage buckets', async () => {
    expect((await ada.storage.createBucket('ada-bucket')).error?.message).toBe('new row violates row-level security policy');
    expect((await ada.storage.listBuckets()).data).toEqual([]);
    expect((await service.storage.createBucket('tmp-bucket', { public: true, fileSizeLimit: '1MB', allowedMimeTypes: ['image/*'] })).error).toBeNull();
    expect((await service.storage.getBucket('tmp-bucket')).data).toMatchObject({ id: 'tmp-bucket', public: true, file_size_limit: 1_048_576, allowed_mime_types: ['image/*'] });
    expect((await service.storage.updateBucket('tmp-bucket', { public: false })).error).toBeNull();
    expect((await service.storage.from('tmp-bucket').upload('a.png', new Blob([new Uint8Array([1])], { type: 'image/png' }))).error).toBeNull();
    expect((await service.storage.deleteBucket('tmp-bucket')).error).not.toBeNull();
    expect((await service.storage.emptyBucket('tmp-bucket')).error).toBeNull();
    expect((await service.storage.deleteBucket('tmp-bucket')).error).toBeNull();
    expect((await service.storage.getBucket('tmp-bucket')).error?.message).toBe('Bucket not found');
    expect(Number((await backend.sql<{ n: string }>(`select count(*) as n from storage.buckets where id = 'ada-bucket'`))[0]!.n)).toBe(0);
  });
});

describe('storage speed', () => {
  it('uploads and downloads a 1 MB file', async () => {
    const bytes = new Uint8Array(1024 * 1024).map((_, i) => i % 251);
    const started = performance.now();
    expect((await ada.storage.from('public-files').upload('acme/one-megabyte.bin', new Blob([bytes], { type: 'application/octet-stream' }))).error).toBeNull();
    const downloaded = new Uint8Array(await (await ada.storage.from('public-files').download('acme/one-megabyte.bin')).data!.arrayBuffer());
    const elapsed = performance.now() - started;
    expect(Buffer.compare(Buffer.from(downloaded), Buffer.from(bytes))).toBe(0);
    console.log(`1 MB upload + download: ${elapsed.toFixed(0)} ms`);
    expect(elapsed).toBeLessThan(5_000);
  });
});
