import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroIntegrationLogger } from 'astro';
import { afterEach, describe, expect, it } from 'vitest';
import { securityHeaders } from '../../../src/integrations/security-headers';

const logger = { info: () => undefined } as unknown as AstroIntegrationLogger;
let dir = '';

async function build(pages: Record<string, string>) {
  dir = await mkdtemp(join(tmpdir(), 'headers-'));
  for (const [path, html] of Object.entries(pages)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), html);
  }
  const done = securityHeaders().hooks['astro:build:done'] as (options: { dir: URL; logger: AstroIntegrationLogger }) => Promise<void>;
  await done({ dir: pathToFileURL(`${dir}/`), logger });
  return readFile(join(dir, '_headers'), 'utf8');
}

afterEach(() => rm(dir, { recursive: true, force: true }));

// The control, a build whose only scripts are the templates', is every real build (npm run build, the suites).
describe('the security headers of a build', () => {
  it("fails the build when a post page's content holds a script, naming the page; nothing is written", async () => {
    const post = '<html><body><article><div data-post-content=""><p>Hi</p><script>steal()</script></div></article></body></html>';
    await expect(build({ 'index.html': '<html><body><script>theme()</script></body></html>', 'blog/evil/index.html': post })).rejects.toThrow(
      /Post content would run a script on 1 page\(s\) \(blog\/evil\/index\.html\)/,
    );
    await expect(readFile(join(dir, '_headers'), 'utf8')).rejects.toThrow();
  });
});
