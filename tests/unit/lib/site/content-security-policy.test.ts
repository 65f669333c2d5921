import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, inlineScriptHashes, isExecutableScriptType, scriptHashSource, scriptsInPostContent } from '../../../../src/lib/site/content-security-policy.ts';
import { EMBED_HOSTS } from '../../../../src/lib/sanitize-html.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The directives of a policy, by name. */
const directives = (policy: string) => new Map(policy.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));

describe('isExecutableScriptType', () => {
  it.each(['', undefined, 'module', 'text/javascript', 'application/javascript', 'TEXT/JavaScript', 'text/javascript; charset=utf-8', 'importmap'])(
    'runs %j',
    (type) => expect(isExecutableScriptType(type)).toBe(true),
  );
  it.each(['application/ld+json', 'application/json', 'text/template', 'text/plain'])('treats %j as data', (type) => {
    expect(isExecutableScriptType(type)).toBe(false);
  });
});

describe('inlineScriptHashes', () => {
  it('hashes the exact text of every inline script that runs, once each', () => {
    const theme = "\n  document.documentElement.classList.add('js');\n";
    const html = `<head><script>${theme}</script></head><body><script type="module">import('/a.js')</script><script>${theme}</script></body>`;
    expect(inlineScriptHashes(html)).toEqual([sha256(theme), sha256("import('/a.js')")]);
  });

  it('leaves out scripts with a src and data blocks such as JSON-LD', () => {
    const html =
      '<script src="/_astro/x.js"></script><script type="module" src="/y.js"></script>' +
      '<script type="application/ld+json">{"@type":"Article"}</script><script>run()</script>';
    expect(inlineScriptHashes(html)).toEqual([sha256('run()')]);
  });

  it('reads attributes whose quoted values hold ">" and ends the text at the first closing tag', () => {
    const html = `<script data-note="a > b">if (a > b) s = "<b>";</script ><p>after</p><script>x()</script>`;
    expect(inlineScriptHashes(html)).toEqual([sha256('if (a > b) s = "<b>";'), sha256('x()')]);
  });

  it('hashes the text with line breaks normalized to LF, as the browser does', () => {
    expect(scriptHashSource('a();\r\nb();\rc();')).toBe(sha256('a();\nb();\nc();'));
  });
});

describe('contentSecurityPolicy', () => {
  const policy = contentSecurityPolicy({
    scriptHashes: [sha256('b()'), sha256('a()')],
    backendUrl: 'https://abc.supabase.co/',
    embedUrls: ['https://api.leadconnectorhq.com/widget/booking/1', 'https://api.leadconnectorhq.com/widget/form/2'],
    embedScriptUrl: 'https://link.msgsndr.com/js/form_embed.js',
  });
  const parsed = directives(policy);

  it('allows scripts from the site, the embed provider and the hashes only: no unsafe-inline or unsafe-eval', () => {
    expect(parsed.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", 'https://link.msgsndr.com', ...[sha256('a()'), sha256('b()')].sort()]);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  });

  it('connects to the site and the backend origin, frames the embeds and the video hosts', () => {
    expect(parsed.get('connect-src')).toEqual(["'self'", 'https://abc.supabase.co']);
    expect(parsed.get('frame-src')).toEqual(['https://api.leadconnectorhq.com', ...EMBED_HOSTS.map((host) => `https://${host}`)]);
  });

  it('locks down plugins, base, forms and framing by other sites', () => {
    expect(parsed.get('default-src')).toEqual(["'self'"]);
    expect(parsed.get('object-src')).toEqual(["'none'"]);
    expect(parsed.get('base-uri')).toEqual(["'self'"]);
    expect(parsed.get('form-action')).toEqual(["'self'"]);
    expect(parsed.get('frame-ancestors')).toEqual(["'none'"]);
    expect(parsed.get('img-src')).toEqual(["'self'", 'data:', 'https:']);
    expect(parsed.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
  });

  it('leaves the provider script out when the organization embeds nothing', () => {
    const bare = directives(contentSecurityPolicy({ scriptHashes: [], backendUrl: 'http://127.0.0.1:54321', embedUrls: [], embedScriptUrl: null }));
    expect(bare.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(bare.get('frame-src')).toEqual(EMBED_HOSTS.map((host) => `https://${host}`));
    expect(bare.get('connect-src')).toEqual(["'self'", 'http://127.0.0.1:54321']);
    // A local backend serves the Media Library's files over plain http.
    expect(bare.get('img-src')).toEqual(["'self'", 'data:', 'https:', 'http://127.0.0.1:54321']);
  });
});

describe('scriptsInPostContent', () => {
  const page = (content: string) =>
    `<html><head><script>theme()</script></head><body><article><h1>T</h1><div class="article-body" data-post-content="">${content}</div>` +
    '<footer><script>island()</script></footer></article></body></html>';

  it('counts the scripts inside the post content only, however deep', () => {
    expect(scriptsInPostContent(page('<p>Hello <b>world</b></p><div><p>nested</p></div><img src="a.png">'))).toBe(0);
    expect(scriptsInPostContent(page('<div><p><script>alert(1)</script></p></div>'))).toBe(1);
    expect(scriptsInPostContent(page('<SCRIPT type="module">x()</SCRIPT><svg><script>y()</script></svg>'))).toBe(2);
  });

  it('answers 0 for a page without post content', () => {
    expect(scriptsInPostContent('<html><body><script>theme()</script></body></html>')).toBe(0);
  });
});

