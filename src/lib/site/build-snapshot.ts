/**
 * The last good copy of what the build read from the database. Every successful read is written to
 * `.data/snapshots/<name>.json` (git-ignored). When the database cannot be reached the build fails, unless
 * `BLOG_USE_SNAPSHOT=1` says to publish from the last good copy instead; that is logged loudly, because the
 * site may then be out of date. Once one read of a build has failed so, the build's later reads take their
 * snapshots at once: each failed read has already waited out supabase-js's retries (1, 2 and 4 s), and a build
 * reads the database four times: an outage costs it 7 s of waiting, not 28.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from '../../schemas/zod.ts';

type Env = Record<string, string | undefined>;

/** Where snapshots live: `BLOG_SNAPSHOT_DIR`, else `.data/snapshots` in the project. */
export function snapshotDir(env: Env = process.env): string {
  return env.BLOG_SNAPSHOT_DIR || join(process.cwd(), '.data', 'snapshots');
}

/** Is the build told to fall back to the last good snapshot? */
export function snapshotFallbackAllowed(env: Env = process.env): boolean {
  return env.BLOG_USE_SNAPSHOT === '1';
}

const FAILED_READS = Symbol.for('scale-pro-site.failed-snapshot-reads');
/**
 * The first failed read of this build, by snapshot folder. On globalThis: in `astro build` the integrations and
 * the prerendered pages hold two copies of this module in one process.
 */
const failedReads: Map<string, Error> = ((globalThis as Record<symbol, unknown>)[FAILED_READS] as Map<string, Error> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[FAILED_READS] = new Map<string, Error>());

/**
 * Runs `read`; on success stores its result as snapshot `name` and returns it. On failure, rethrows, or,
 * with `BLOG_USE_SNAPSHOT=1`, returns the stored snapshot (validated by `schema`) after a loud warning; later
 * reads of the same build (same snapshot folder) then skip the database.
 */
export async function readWithSnapshot<T>(name: string, schema: z.ZodType<T>, read: () => Promise<T>, env: Env = process.env): Promise<T> {
  const dir = snapshotDir(env);
  const file = join(dir, `${name}.json`);
  const failedBefore = snapshotFallbackAllowed(env) ? failedReads.get(dir) : undefined;
  let value: T;
  try {
    if (failedBefore) throw failedBefore;
    value = await read();
  } catch (error) {
    if (!snapshotFallbackAllowed(env)) throw error;
    if (!failedBefore) failedReads.set(dir, error as Error);
    const stored = loadSnapshot(file, schema, error as Error);
    const why = failedBefore ? `could not be read earlier in this build (${failedBefore.message}); not asked again` : `could not be read (${(error as Error).message})`;
    console.warn(
      `\n!!! BLOG_USE_SNAPSHOT=1: the database ${why}.\n` +
        `!!! Building from the snapshot ${file} taken ${stored.takenAt}: the site may be out of date.\n`,
    );
    return stored.value;
  }
  mkdirSync(snapshotDir(env), { recursive: true });
  // Write then rename, so a crash mid-write never leaves a half snapshot behind.
  writeFileSync(`${file}.tmp`, JSON.stringify({ takenAt: new Date().toISOString(), value }));
  renameSync(`${file}.tmp`, file);
  return value;
}

function loadSnapshot<T>(file: string, schema: z.ZodType<T>, readError: Error): { takenAt: string; value: T } {
  let stored: { takenAt: string; value: unknown };
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch (cause) {
    throw new Error(`${readError.message}; and BLOG_USE_SNAPSHOT=1 found no usable snapshot at ${file}: ${(cause as Error).message}`, { cause });
  }
  const parsed = schema.safeParse(stored.value);
  if (!parsed.success) throw new Error(`${readError.message}; and the snapshot ${file} no longer matches the expected shape`, { cause: readError });
  return { takenAt: stored.takenAt, value: parsed.data };
}
