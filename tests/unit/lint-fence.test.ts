/**
 * The fence `npm run check` keeps (tests/eslint.config.js), tried with the check's own ESLint and config: an
 * import across it from any browser folder is refused, and so is one from server code into the build's or the
 * browser's code; the doors (the back office's pages) and the shared top of src/lib/ stay open.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT, overrideConfigFile: 'tests/eslint.config.js' });
});

/** The fence's refusals of `import … from spec` written in `file` (a path from the repository's root). */
async function refusals(file: string, spec: string): Promise<string[]> {
  const code = file.endsWith('.astro') ? `---\nimport thing from '${spec}';\nconsole.log(thing);\n---\n<p>x</p>\n` : `import thing from '${spec}';\nconsole.log(thing);\n`;
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}${file}` });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
}

/** The relative path from `file` to `target` (both from the root), as an import names it. */
function relative(file: string, target: string): string {
  const depth = file.split('/').length - 1;
  return `${'../'.repeat(depth)}${target}`.replace(/^(?!\.)/, './');
}

describe('the fence between the site and the back office', () => {
  const SITE_FILES = [
    'src/lib/site/a.ts', 'src/components/A.tsx', 'src/components/A.astro', 'src/integrations/a.ts', 'src/layouts/A.astro',
    'src/pages/a.astro', 'src/pages/blog/a.ts', 'src/islands/A.tsx', 'src/scripts/a.ts', 'src/client-directives/a.ts', 'src/stores/a.ts',
  ];
  it.each(SITE_FILES)('refuses an import of the back office from %s', async (file) => {
    expect(await refusals(file, relative(file, 'src/lib/back-office/posts.ts'))).toEqual([expect.stringContaining('Site code must not import the back office')]);
    expect(await refusals(file, relative(file, 'src/admin/stores/session.ts'))).toEqual([expect.stringContaining('Site code must not import the back office (src/admin/)')]);
  });

  it.each(['src/lib/back-office/a.ts', 'src/admin/A.tsx', 'src/admin/auth/a.ts', 'src/admin/stores/a.ts'])('refuses an import of the site from %s', async (file) => {
    expect(await refusals(file, relative(file, 'src/lib/site/posts.ts'))).toEqual([expect.stringContaining('Back-office code must not import the site')]);
  });

  it('opens the back office only through its pages, and lets both sides share the top of src/lib/ and src/stores/', async () => {
    expect(await refusals('src/pages/admin/index.astro', '../../admin/AdminApp')).toEqual([]);
    expect(await refusals('src/pages/auth.astro', '../admin/auth/AuthPage')).toEqual([]);
    expect(await refusals('src/islands/A.tsx', '../lib/blog-urls.ts')).toEqual([]);
    expect(await refusals('src/admin/A.tsx', '../lib/blog-urls.ts')).toEqual([]);
    expect(await refusals('src/admin/A.tsx', '../stores/toast')).toEqual([]);
  });

  it.each(['src/islands/A.tsx', 'src/admin/A.tsx', 'src/lib/site/a.ts', 'src/pages/admin/a.astro'])('keeps server code out of %s', async (file) => {
    expect(await refusals(file, relative(file, 'src/lib/server/service-client.ts'))).toEqual([expect.stringContaining('Server-only code')]);
  });
});

describe('the fence around server code', () => {
  it.each([
    ['../site/posts.ts', 'the build'],
    ['../back-office/posts.ts', 'the back office'],
    ['../../admin/stores/session.ts', 'the back office UI'],
    ['../../islands/BlogSearch.tsx', 'an island'],
  ])('refuses an import of %s (%s) from src/lib/server/', async (spec) => {
    expect(await refusals('src/lib/server/a.ts', spec)).toEqual([expect.stringContaining("Server code must not import the build's or the browser's code")]);
  });

  it('lets server code use the shared top of src/lib/ and its own folder', async () => {
    expect(await refusals('src/lib/server/a.ts', '../shown-organization.ts')).toEqual([]);
    expect(await refusals('src/lib/server/a.ts', './http.ts')).toEqual([]);
  });
});
