import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failureReason, swapIn, workFolder } from '../../../netlify/local/site-build.ts';

describe('failureReason', () => {
  it("takes Astro's error line and the message under it, without the stack", () => {
    const output = [
      '16:29:09 [@astrojs/netlify] Enabling sessions with Netlify Blobs',
      '\u001b[31m16:29:09 [ERROR] [blog-redirects] An unhandled error occurred while running the "astro:config:setup" hook\u001b[39m',
      'SITE_ORG=nope names no organization (known: evergreen-landscaping, scale-pro)',
      '  Location:',
      '    /work/src/lib/site/organizations.ts:63:24',
      '  Stack trace:',
      '    at chooseSiteOrganization (file:///work/src/lib/site/organizations.ts:63:24)',
      '',
    ];
    expect(failureReason('astro build', 1, null, output)).toBe(
      'astro build exited with code 1: [blog-redirects] An unhandled error occurred while running the "astro:config:setup" hook SITE_ORG=nope names no organization (known: evergreen-landscaping, scale-pro)',
    );
  });

  it('falls back to the last line, and says when a step was stopped', () => {
    expect(failureReason('pagefind', 2, null, ['Running Pagefind', 'no html files found', ''])).toBe('pagefind exited with code 2: no html files found');
    expect(failureReason('astro build', null, 'SIGTERM', [])).toBe('astro build was stopped (SIGTERM)');
  });
});

describe('swapIn', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'swap-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('puts the fresh folder in place of dist and removes the old one', () => {
    const dist = join(root, 'dist');
    const work = workFolder(dist);
    expect(work).toBe(join(root, '.data', 'site-builds'));
    mkdirSync(dist);
    writeFileSync(join(dist, 'index.html'), 'old');
    mkdirSync(join(work, 'build-1'), { recursive: true });
    writeFileSync(join(work, 'build-1', 'index.html'), 'new');
    swapIn(join(work, 'build-1'), dist, join(work, 'old-1'));
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('new');
    expect(existsSync(join(work, 'build-1'))).toBe(false);
    expect(existsSync(join(work, 'old-1'))).toBe(false);
  });

  it('works when there was no dist yet, and puts the old one back when the fresh one cannot move', () => {
    const dist = join(root, 'dist');
    const work = workFolder(dist);
    mkdirSync(join(work, 'build-1'), { recursive: true });
    swapIn(join(work, 'build-1'), dist, join(work, 'old-1'));
    expect(existsSync(dist)).toBe(true);

    writeFileSync(join(dist, 'index.html'), 'served');
    expect(() => swapIn(join(work, 'missing'), dist, join(work, 'old-2'))).toThrow(/could not move the new build/);
    expect(readFileSync(join(dist, 'index.html'), 'utf8')).toBe('served');
  });
});
