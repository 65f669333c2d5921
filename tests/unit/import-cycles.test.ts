import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCycles, runtimeImports, sourceFiles } from '../import-cycles.ts';

/** A throwaway project: `files` maps paths under src/ to their code. */
function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'import-cycles-'));
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(join(root, 'src', path, '..'), { recursive: true });
    writeFileSync(join(root, 'src', path), code);
  }
  return root;
}

const circlesOf = (root: string) => importCycles(sourceFiles(root)).map((cycle) => cycle.map((file) => relative(join(root, 'src'), file)));

describe('import circles (npm run check)', () => {
  it('finds a circle through static, re-exported and dynamic imports, and .astro frontmatter', () => {
    const root = project({
      'a.ts': "import { b } from './lib/b.ts';\nexport const a = b;",
      'lib/b.ts': "export { c as b } from './c';",
      'lib/c.ts': "export const c = () => import('../Page.astro');",
      'Page.astro': "---\nimport { a } from './a.ts';\n---\n<p>{a}</p>",
      'alone.ts': "import { a } from './a.ts';\nexport const x = a;",
    });
    expect(circlesOf(root)).toEqual([['Page.astro', 'a.ts', 'lib/b.ts', 'lib/c.ts']]);
  });

  it('ignores type-only imports and finds a module importing itself', () => {
    const root = project({
      'store.ts': "import type { View } from './view.tsx';\nexport type S = View;",
      'view.tsx': "import { type S } from './store.ts';\nexport type View = S;",
      'self.ts': "import './self.ts';",
    });
    expect(circlesOf(root)).toEqual([['self.ts']]);
    expect(runtimeImports(resolve(root, 'src/store.ts'))).toEqual([]);
  });

  it('finds none in this repository', () => {
    expect(importCycles(sourceFiles(resolve('.')))).toEqual([]);
  });
});
