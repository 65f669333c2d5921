/**
 * The security headers of the built site (src/integrations/security-headers.ts): `_headers` gives every path
 * the policy and the other headers, the policy allows each inline script of every built page by its hash, and
 * nothing in the pages needs what a hash cannot allow (inline event handlers, javascript: URLs). What the
 * served site sends is checked in tests/e2e/security-headers.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inlineScriptHashes } from '../../src/lib/site/content-security-policy.ts';
import { DIST, BUILD_HOOK_TIMEOUT_MS, ensureBuilt, htmlFiles, netlifyFile, ROOT } from './support/built-site';

beforeAll(ensureBuilt, BUILD_HOOK_TIMEOUT_MS);

/** The `_headers` rules, as path → header name → value; rules for the same path add up, as on Netlify. */
function headerRules(): Map<string, Map<string, string>> {
  const rules = new Map<string, Map<string, string>>();
  let current: Map<string, string> | undefined;
  for (const line of netlifyFile('_headers').split('\n')) {
    if (!line.trim() || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = rules.get(line.trim()) ?? new Map();
      rules.set(line.trim(), current);
    } else current?.set(line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim());
  }
  return rules;
}

const everyPath = () => headerRules().get('/*')!;
/** The security headers every path gets (the rule also carries the WordPress API's discovery link). */
const securityHeaderNames = () => [...everyPath().keys()].filter((name) => name !== 'Link').sort();
const scriptSrc = () => everyPath().get('Content-Security-Policy')!.match(/(?:^|; )script-src ([^;]*)/)![1]!.split(' ');

describe('the built site\'s headers', () => {
  it('give every path the policy and the other security headers', () => {
    expect(securityHeaderNames()).toEqual(
      ['Content-Security-Policy', 'Permissions-Policy', 'Referrer-Policy', 'Strict-Transport-Security', 'X-Content-Type-Options'].sort(),
    );
    expect(everyPath().get('Content-Security-Policy')).toContain("frame-ancestors 'none'");
  });

  it("announce the WordPress API's root on every path", () => {
    expect(everyPath().get('Link')).toMatch(/^<https?:\/\/[^/>]+\/wp-json\/>; rel="https:\/\/api\.w\.org\/"$/);
  });

  it('allow no inline script but by hash', () => {
    expect(scriptSrc()).not.toContain("'unsafe-inline'");
    expect(scriptSrc()).not.toContain("'unsafe-eval'");
  });

  it('allow every inline script of every page by its hash', () => {
    const allowed = new Set(scriptSrc());
    const missing = htmlFiles().flatMap((file) =>
      inlineScriptHashes(readFileSync(join(DIST, file), 'utf8'))
        .filter((hash) => !allowed.has(hash))
        .map((hash) => `${file}: ${hash}`),
    );
    expect(missing).toEqual([]);
  });

  it('leave no page needing what a hash cannot allow: inline event handlers or javascript: URLs', () => {
    const offending = htmlFiles().filter((file) => {
      const html = readFileSync(join(DIST, file), 'utf8').replace(/<script\b[\s\S]*?<\/script>/gi, '');
      return /<[a-z][^>]*\son[a-z]+\s*=/i.test(html) || /(?:href|src|action)\s*=\s*["']?\s*javascript:/i.test(html);
    });
    expect(offending).toEqual([]);
  });

  it('mark the content-hashed assets immutable (the Netlify adapter writes the rule for Netlify to read)', () => {
    const config = JSON.parse(readFileSync(join(ROOT, '.netlify/v1/config.json'), 'utf8'));
    expect(config.headers).toContainEqual({ for: '/_astro/*', values: { 'Cache-Control': 'public, max-age=31536000, immutable' } });
  });
});
