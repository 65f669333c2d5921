/**
 * The bytes of stored objects: `<dataDir>/storage/<bucket>/<name>`. Object names are keys chosen by callers,
 * so a name only ever becomes a path after `objectPath` has refused anything that could leave the bucket's
 * folder. Writes go to a temporary file first and are renamed into place, so a reader never sees half a file.
 */
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/** Why a bucket id or object name is refused as a path (undefined when it is safe). */
export function unsafeKey(key: string): string | undefined {
  if (key === '' || key.startsWith('/') || key.includes('\\') || key.includes('\0')) return 'invalid characters';
  if (key.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'invalid segment';
  return undefined;
}

/** The object store of one instance. */
export class ObjectFiles {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** Absolute path of an object; throws for a key `unsafeKey` refuses or that resolves outside the bucket. */
  path(bucket: string, name: string): string {
    if (unsafeKey(bucket) !== undefined || bucket.includes('/') || unsafeKey(name) !== undefined) throw new Error(`Unsafe object key ${bucket}/${name}`);
    const bucketDir = join(this.root, bucket);
    const path = resolve(bucketDir, ...name.split('/'));
    if (!path.startsWith(bucketDir + sep)) throw new Error(`Unsafe object key ${bucket}/${name}`);
    return path;
  }

  /** Writes the bytes atomically (temporary file, then rename). */
  async write(bucket: string, name: string, bytes: Uint8Array): Promise<void> {
    const target = this.path(bucket, name);
    const temp = await this.tempFile();
    await writeFile(temp, bytes);
    await mkdir(dirname(target), { recursive: true });
    await rename(temp, target);
  }

  /** Copies an object's bytes to another key atomically. */
  async copy(from: { bucket: string; name: string }, to: { bucket: string; name: string }): Promise<void> {
    const temp = await this.tempFile();
    await copyFile(this.path(from.bucket, from.name), temp);
    const target = this.path(to.bucket, to.name);
    await mkdir(dirname(target), { recursive: true });
    await rename(temp, target);
  }

  async move(from: { bucket: string; name: string }, to: { bucket: string; name: string }): Promise<void> {
    const target = this.path(to.bucket, to.name);
    await mkdir(dirname(target), { recursive: true });
    await rename(this.path(from.bucket, from.name), target);
  }

  async remove(bucket: string, name: string): Promise<void> {
    await rm(this.path(bucket, name), { force: true });
  }

  async removeBucket(bucket: string): Promise<void> {
    if (unsafeKey(bucket) !== undefined || bucket.includes('/')) return;
    await rm(join(this.root, bucket), { recursive: true, force: true });
  }

  private async tempFile(): Promise<string> {
    const dir = join(this.root, '.tmp');
    await mkdir(dir, { recursive: true });
    return join(dir, randomUUID());
  }
}
