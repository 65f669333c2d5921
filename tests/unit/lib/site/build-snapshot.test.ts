import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { readWithSnapshot } from '../../../../src/lib/site/build-snapshot.ts';

const Schema = z.object({ posts: z.array(z.string()) });
const unreachable = () => Promise.reject(new Error('Cannot read posts from http://127.0.0.1:1: fetch failed'));
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'blog-snapshot-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
});

describe('readWithSnapshot', () => {
  it('stores every successful read', async () => {
    const value = await readWithSnapshot('blog-x', Schema, async () => ({ posts: ['a'] }), { BLOG_SNAPSHOT_DIR: dir });
    expect(value).toEqual({ posts: ['a'] });
    const stored = JSON.parse(readFileSync(join(dir, 'blog-x.json'), 'utf8'));
    expect(stored.value).toEqual({ posts: ['a'] });
    expect(Date.parse(stored.takenAt)).not.toBeNaN();
  });

  it('fails loudly when the database cannot be read, even with a snapshot present', async () => {
    await readWithSnapshot('blog-x', Schema, async () => ({ posts: ['a'] }), { BLOG_SNAPSHOT_DIR: dir });
    await expect(readWithSnapshot('blog-x', Schema, unreachable, { BLOG_SNAPSHOT_DIR: dir })).rejects.toThrow('fetch failed');
  });

  it('uses the last good snapshot with BLOG_USE_SNAPSHOT=1, with a warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await readWithSnapshot('blog-x', Schema, async () => ({ posts: ['a', 'b'] }), { BLOG_SNAPSHOT_DIR: dir });
    const value = await readWithSnapshot('blog-x', Schema, unreachable, { BLOG_SNAPSHOT_DIR: dir, BLOG_USE_SNAPSHOT: '1' });
    expect(value).toEqual({ posts: ['a', 'b'] });
    expect(warn.mock.calls.join(' ')).toContain('BLOG_USE_SNAPSHOT=1');
  });

  it('after one failed read, takes the later snapshots of the build at once without asking the database', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const env = { BLOG_SNAPSHOT_DIR: dir, BLOG_USE_SNAPSHOT: '1' };
    await readWithSnapshot('blog-x', Schema, async () => ({ posts: ['a'] }), { BLOG_SNAPSHOT_DIR: dir });
    await readWithSnapshot('blog-y', Schema, async () => ({ posts: ['b'] }), { BLOG_SNAPSHOT_DIR: dir });
    expect(await readWithSnapshot('blog-x', Schema, unreachable, env)).toEqual({ posts: ['a'] });
    const read = vi.fn(async () => ({ posts: ['live'] }));
    expect(await readWithSnapshot('blog-y', Schema, read, env)).toEqual({ posts: ['b'] });
    expect(read).not.toHaveBeenCalled();
    expect(String(warn.mock.calls.at(-1))).toContain('could not be read earlier in this build (Cannot read posts from http://127.0.0.1:1: fetch failed)');
    // Another build (another snapshot folder) still asks, and without BLOG_USE_SNAPSHOT=1 every read does.
    const other = mkdtempSync(join(tmpdir(), 'blog-snapshot-'));
    try {
      expect(await readWithSnapshot('blog-y', Schema, read, { BLOG_SNAPSHOT_DIR: other, BLOG_USE_SNAPSHOT: '1' })).toEqual({ posts: ['live'] });
      expect(await readWithSnapshot('blog-y', Schema, read, { BLOG_SNAPSHOT_DIR: dir })).toEqual({ posts: ['live'] });
      expect(read).toHaveBeenCalledTimes(2);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('fails with both reasons when told to use a snapshot that is missing or malformed', async () => {
    const env = { BLOG_SNAPSHOT_DIR: dir, BLOG_USE_SNAPSHOT: '1' };
    await expect(readWithSnapshot('blog-x', Schema, unreachable, env)).rejects.toThrow(/fetch failed; and BLOG_USE_SNAPSHOT=1 found no usable snapshot/);
    writeFileSync(join(dir, 'blog-x.json'), JSON.stringify({ takenAt: 'x', value: { posts: 'not a list' } }));
    await expect(readWithSnapshot('blog-x', Schema, unreachable, env)).rejects.toThrow(/no longer matches the expected shape/);
  });
});
