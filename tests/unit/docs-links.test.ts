/**
 * The README is the first five minutes and docs/ holds the rest, one page per topic. This checks the links
 * that hold them together: in README.md and every docs/**\/*.md, every relative link (files and folders; web
 * and mail addresses aside) names something in the repository, every `#anchor` (on the same page or
 * `page.md#anchor`) is a heading of the page it names, as GitHub makes heading anchors, every docs page is
 * linked from the README, and the README stays at most 15,000 characters.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** The Markdown pages of docs/, as paths from the repository's root, in every folder under it. */
function docsPages(folder = 'docs'): string[] {
  return readdirSync(join(ROOT, folder)).flatMap((name) => {
    const path = `${folder}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return docsPages(path);
    return path.endsWith('.md') ? [path] : [];
  });
}

const PAGES = ['README.md', ...docsPages()];

/** The page with its fenced code blocks blanked (a `#` or a `](` in code is neither heading nor link). */
function withoutCodeBlocks(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker) {
        fence = marker;
        return '';
      }
      if (fence !== undefined) {
        if (marker && marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading: its text lowercased, punctuation dropped, each space a hyphen. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page's headings make, a repeated one with -1, -2, … as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** The link targets of a page: inline links and images, reference definitions, and HTML href/src. */
function linkTargets(markdown: string): string[] {
  const text = withoutCodeBlocks(markdown).replace(/(`+)[\s\S]*?\1/g, '');
  return [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
    ...[...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)].map((match) => match[1]!),
    ...[...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((match) => match[1]!),
  ];
}

const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target);

/** Where a relative link of `page` leads: a path from the repository's root, and the anchor after `#`. */
function resolveLink(page: string, target: string): { path: string; anchor: string | undefined } {
  const [pathPart = '', anchor] = target.split('#', 2);
  const absolute = pathPart === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURIComponent(pathPart));
  return { path: relative(ROOT, absolute).split(sep).join('/'), anchor: anchor === undefined ? undefined : decodeURIComponent(anchor) };
}

/** What is wrong with each relative link of a page, one sentence each. */
function brokenLinks(page: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(read(page))) {
    if (isExternal(target)) continue;
    const { path, anchor } = resolveLink(page, target);
    if (path === '..' || path.startsWith('../')) {
      problems.push(`${page}: ${target} leads out of the repository`);
      continue;
    }
    if (!existsSync(join(ROOT, path))) {
      problems.push(`${page}: ${target} names ${path}, which is not in the repository`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!path.endsWith('.md')) {
      problems.push(`${page}: ${target} has an anchor, but ${path} is not a Markdown page`);
      continue;
    }
    if (!anchorsOf(read(path)).has(anchor)) problems.push(`${page}: ${target} names no heading of ${path}`);
  }
  return problems;
}

describe('the README and the docs pages', () => {
  it('are the README and at least one page under docs/', () => {
    expect(PAGES[0]).toBe('README.md');
    expect(PAGES.length).toBeGreaterThan(1);
  });

  it.each(PAGES)('%s: every relative link names a file or folder of the repository, and every anchor a heading', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it('send nobody to a folder outside the repository', () => {
    const outside = PAGES.flatMap((page) =>
      linkTargets(read(page))
        .filter((target) => !isExternal(target))
        .map((target) => ({ target, path: resolveLink(page, target).path }))
        .filter(({ path }) => path === '..' || path.startsWith('../'))
        .map(({ target }) => target)
        .map((target) => `${page}: ${target}`),
    );
    expect(outside).toEqual([]);
  });
});

describe('the README', () => {
  it('is at most 15,000 characters (bytes, as `wc -c` counts them), a read for the first five minutes', () => {
    expect(Buffer.byteLength(read('README.md'), 'utf8')).toBeLessThanOrEqual(15_000);
  });

  it('links every page of docs/, so each topic can be found from the front page', () => {
    const linked = new Set(
      linkTargets(read('README.md'))
        .filter((target) => !isExternal(target))
        .map((target) => resolveLink('README.md', target).path),
    );
    expect(docsPages().filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe('the anchors GitHub makes', () => {
  it('lowercase the heading, drop punctuation, make each space a hyphen and number repeats', () => {
    expect([...anchorsOf('# Deploying\n## Publishing locally: when a post shows\n## Deploying\n```\n# not a heading\n```\n### Categories & Tags')]).toEqual([
      'deploying',
      'publishing-locally-when-a-post-shows',
      'deploying-1',
      'categories--tags',
    ]);
  });

  it('find the links of a page but not the ones in code', () => {
    expect(linkTargets('[a](x.md#y) ![b](img.png) `[c](not-a-link.md)`\n```\n[d](nor-this.md)\n```\n[e]: ref.md')).toEqual([
      'x.md#y',
      'img.png',
      'ref.md',
    ]);
  });
});
