import { existsSync, lstatSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectCopy } from '../../../bench/served-site';

const ROOT = resolve(import.meta.dirname, '../../..');

describe('projectCopy (the folder the benchmark builds and serves the site from)', () => {
  const copy = projectCopy();
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('is a separate folder with the working tree’s files', () => {
    expect(realpathSync(copy).startsWith(realpathSync(ROOT))).toBe(false);
    for (const file of ['package.json', 'astro.config.mjs', 'netlify.toml', 'src/pages/index.astro', 'netlify/local/cli.ts']) {
      expect(readFileSync(join(copy, file), 'utf8'), file).toBe(readFileSync(join(ROOT, file), 'utf8'));
    }
  });

  it('links the project’s node_modules instead of copying them', () => {
    expect(lstatSync(join(copy, 'node_modules')).isSymbolicLink()).toBe(true);
    expect(realpathSync(join(copy, 'node_modules'))).toBe(realpathSync(join(ROOT, 'node_modules')));
  });

  it('leaves out what git ignores: a served site’s dist/, .netlify/ and the local backend’s .data/', () => {
    for (const folder of ['dist', '.netlify', '.data', '.git']) expect(existsSync(join(copy, folder)), folder).toBe(false);
  });
});
