/**
 * `npm run check` step: fails when modules import each other in a circle. A circle means two modules that can
 * only be understood (and loaded) together; the fix is to move what both need into a third module, or to hand
 * a value over instead of importing it (as the toast store hands itself to the Toaster it mounts).
 *
 * Every relative import counts, static or dynamic (`import('./x')`), in src/, netlify/, supabase/local/,
 * bench/ and tests/; `import type` and `export type` do not (they vanish from the JavaScript). The TypeScript
 * parser reads the files, an .astro file's frontmatter and <script> blocks included.
 *
 * Usage: node tests/import-cycles.ts [root]   (prints each circle and exits 1, or prints nothing and exits 0)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const FOLDERS = ['src', 'netlify', 'supabase/local', 'bench', 'tests'];
const SKIP = new Set(['node_modules', '.work', 'dist', '.astro', '.netlify', '.data', 'test-results', 'playwright-report']);
const SOURCE = /\.(ts|tsx|mts|js|mjs|astro)$/;
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '.astro', '/index.ts', '/index.tsx'];

/** Every source file under the folders, as absolute paths. */
export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (SOURCE.test(entry.name)) files.push(path);
    }
  };
  for (const folder of FOLDERS) if (existsSync(join(root, folder))) walk(join(root, folder));
  return files;
}

/** The code of a file as TypeScript sees it: an .astro file's frontmatter and <script> blocks. */
function codeOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.astro')) return text;
  const frontmatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
  return [frontmatter, ...scripts].join('\n;\n');
}

/** The relative specifiers a file imports at run time (static, re-exports and dynamic), type-only ones left out. */
export function runtimeImports(file: string, code = codeOf(file)): string[] {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers.filter((specifier) => specifier.startsWith('.'));
}

/** The file a relative specifier names, or null (a generated or missing file). */
function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier.split('?')[0] ?? specifier);
  for (const extension of EXTENSIONS) {
    const candidate = base + extension;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The circles among the files: strongly connected components of more than one file, or a file importing itself. */
export function importCycles(files: readonly string[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = runtimeImports(file).map((specifier) => resolveImport(file, specifier)).filter((target): target is string => target !== null);
    graph.set(file, targets);
  }
  // Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let counter = 0;
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!graph.has(target)) continue;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}

if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  const root = resolve(process.argv[2] ?? '.');
  const cycles = importCycles(sourceFiles(root));
  for (const cycle of cycles) console.error(`Import circle: ${cycle.map((file) => relative(root, file)).join(' ⇄ ')}`);
  if (cycles.length > 0) {
    console.error(`${cycles.length} import circle(s): move what the modules share into a module of its own.`);
    process.exit(1);
  }
}
