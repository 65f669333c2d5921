/**
 * Bucket seeding, like the Supabase CLI's `supabase seed buckets`: each `[storage.buckets.<name>]` of
 * config.toml becomes a bucket, and the files under its `objects_path` are uploaded with their relative path
 * as the object name. Runs once, on a new database, after the seed (as Storage's role, which owns the tables: seeding is setup).
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type pg from 'pg';
import type { SeedBucket } from '../config.ts';
import { ObjectFiles } from './files.ts';
import { sizeLimit, type ObjectMetadata } from './handler.ts';

// Enough types for the files a site seeds; anything else is stored as binary.
const MIME_TYPES: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.avif': 'image/avif', '.svg': 'image/svg+xml', '.ico': 'image/x-icon', '.pdf': 'application/pdf',
  '.txt': 'text/plain', '.json': 'application/json', '.mp4': 'video/mp4', '.webm': 'video/webm',
};

/** Creates the buckets and uploads their files; returns how many objects were stored. */
export async function seedBuckets(db: pg.Pool, root: string, buckets: SeedBucket[]): Promise<number> {
  const files = new ObjectFiles(root);
  let stored = 0;
  for (const bucket of buckets) {
    await db.query(
      `insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values ($1, $1, $2, $3, $4)
       on conflict (id) do update set public = excluded.public, file_size_limit = excluded.file_size_limit,
         allowed_mime_types = excluded.allowed_mime_types, updated_at = now()`,
      [bucket.id, bucket.public, sizeLimit(bucket.fileSizeLimit), bucket.allowedMimeTypes],
    );
    if (bucket.objectsPath === null) continue;
    for (const path of await filesUnder(bucket.objectsPath)) {
      const name = relative(bucket.objectsPath, path).split(sep).join('/');
      const bytes = await readFile(path);
      const metadata: ObjectMetadata = {
        eTag: `"${createHash('md5').update(bytes).digest('hex')}"`, size: bytes.length,
        mimetype: MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream', cacheControl: 'max-age=3600',
        lastModified: new Date().toUTCString(), contentLength: bytes.length, httpStatusCode: 200,
      };
      await files.write(bucket.id, name, bytes);
      await db.query(
        `insert into storage.objects (bucket_id, name, metadata, version) values ($1, $2, $3, $4)
         on conflict (bucket_id, name) do update set metadata = excluded.metadata, updated_at = now()`,
        [bucket.id, name, JSON.stringify(metadata), randomUUID()],
      );
      stored++;
    }
  }
  return stored;
}

async function filesUnder(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    throw new Error(`storage seed: objects_path ${dir} cannot be read`);
  }
  return entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => join(e.parentPath, e.name)).sort();
}
