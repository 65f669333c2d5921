/**
 * Bucket seeding and reset: `[storage.buckets.<name>]` with `objects_path` fills a bucket on a new database
 * (as `supabase seed buckets` does hosted), the global `[storage] file_size_limit` caps every bucket, and
 * `db:reset` clears stored files together with the rows.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestBackend, type TestBackend } from './support/local-backend-instance.ts';

let backend: TestBackend;
let configDir: string;

beforeAll(() => {
  configDir = mkdtempSync(join(tmpdir(), 'storage-seed-config-'));
  mkdirSync(join(configDir, 'seed-files', 'acme'), { recursive: true });
  writeFileSync(join(configDir, 'seed-files', 'acme', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(configDir, 'seed-files', 'readme.txt'), 'seeded');
  writeFileSync(join(configDir, 'config.toml'), [
    '[storage]', 'enabled = true', 'file_size_limit = "8KiB"', '',
    '[storage.buckets.seeded]', 'public = true', 'file_size_limit = "1MiB"', 'allowed_mime_types = ["image/*", "text/plain"]',
    'objects_path = "./seed-files"', '',
  ].join('\n'));
  backend = startTestBackend({ config: join(configDir, 'config.toml'), migrations: resolve(import.meta.dirname, '../fixtures/storage-migrations') });
}, 120_000);

afterAll(async () => {
  await backend?.stop();
  rmSync(configDir, { recursive: true, force: true });
});

describe('storage bucket seeding', () => {
  it('creates the bucket with its limits and uploads the folder, served with its type', async () => {
    expect((await backend.service().storage.getBucket('seeded')).data).toMatchObject({
      public: true, file_size_limit: 1_048_576, allowed_mime_types: ['image/*', 'text/plain'],
    });
    const names = await backend.sql<{ name: string }>(`select name from storage.objects where bucket_id = 'seeded' order by name`);
    expect(names.map((row) => row.name)).toEqual(['acme/logo.svg', 'readme.txt']);
    const logo = await fetch(backend.anon().storage.from('seeded').getPublicUrl('acme/logo.svg').data.publicUrl);
    expect([logo.status, logo.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(logo.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    // The global [storage] file_size_limit caps the bucket's larger one.
    const big = await backend.service().storage.from('seeded').upload('acme/big.txt', new Blob([new Uint8Array(8 * 1024 + 1)], { type: 'text/plain' }));
    expect(big.error?.message).toBe('The object exceeded the maximum allowed size');
  });

  it('db:reset removes uploaded files with their rows and seeds the bucket again', async () => {
    const uploaded = await backend.service().storage.from('seeded').upload('acme/extra.txt', new Blob(['extra'], { type: 'text/plain' }));
    expect(uploaded.error).toBeNull();
    const extraFile = join(backend.dataDir, 'storage', 'seeded', 'acme', 'extra.txt');
    expect(existsSync(extraFile)).toBe(true);
    expect(backend.cli('reset').status).toBe(0);
    expect(existsSync(extraFile)).toBe(false);
    expect(existsSync(join(backend.dataDir, 'storage', 'seeded', 'readme.txt'))).toBe(true);
    // The reset closed the test pool's idle connection under it; the first query only replaces it.
    await backend.sql('select 1').catch(() => {});
    const names = await backend.sql<{ name: string }>(`select name from storage.objects where bucket_id = 'seeded' order by name`);
    expect(names.map((row) => row.name)).toEqual(['acme/logo.svg', 'readme.txt']);
  });
});
