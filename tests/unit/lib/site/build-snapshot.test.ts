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

  it('fails with both reasons when told to use a snapshot that is missing or malformed', async () => {
    const env = { BLOG_SNAPSHOT_DIR: dir, BLOG_USE_SNAPSHOT: '1' };
    await expect(readWithSnapshot('blog-x', Schema, unreachable, env)).rejects.toThrow(/fetch failed; and BLOG_USE_SNAPSHOT=1 found no usable snapshot/);
    writeFileSync(join(dir, 'blog-x.json'), JSON.stringify({ takenAt: 'x', value: { posts: 'not a list' } }));
    await expect(readWithSnapshot('blog-x', Schema, unreachable, env)).rejects.toThrow(/no longer matches the expected shape/);
  });
});
