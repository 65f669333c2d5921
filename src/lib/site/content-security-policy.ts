/**
 * The site's Content-Security-Policy, built from what a build really contains: every inline script of the
 * built HTML is allowed by its sha256 hash (no 'unsafe-inline', no 'unsafe-eval'), and the hosts come from
 * the build's configuration (the backend URL, the organization's embeds, the article video hosts). Used by
 * src/integrations/security-headers.ts, which writes the header for every path of the built site.
 */
import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import { EMBED_HOSTS } from '../sanitize-html.ts';

/** Script element, its attributes and its text (raw text: it ends at the first `</script`). */
const SCRIPT_ELEMENT = /<script\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/script[\s/>]/gi;
const SRC_ATTRIBUTE = /\ssrc\s*=/i;
const TYPE_ATTRIBUTE = /\stype\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i;
/** The JavaScript MIME types of the HTML standard: scripts of these types run. */
const JAVASCRIPT_MIME = /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript))$/;
/** Non-MIME script types the browser executes or interprets, under script-src as well. */
const EXECUTED_TYPES = new Set(['', 'module', 'importmap', 'speculationrules']);

/**
 * Whether a script element with this `type` is run by the browser (and so needs script-src's permission).
 * Any other type, like `application/ld+json`, is a data block: never executed, outside the CSP.
 */
export function isExecutableScriptType(type: string | undefined): boolean {
  const essence = (type ?? '').split(';')[0]!.trim().toLowerCase();
  return EXECUTED_TYPES.has(essence) || JAVASCRIPT_MIME.test(essence);
}

/** The CSP source expression for an inline script's text: `'sha256-<base64>'`. */
export function scriptHashSource(text: string): string {
  // The browser hashes the text after HTML input normalization, which turns CRLF and CR into LF.
  return `'sha256-${createHash('sha256').update(text.replace(/\r\n?/g, '\n'), 'utf8').digest('base64')}'`;
}

/** The hash sources of every inline script the page runs (scripts with `src` and data blocks excluded). */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', text = ''] of html.matchAll(SCRIPT_ELEMENT)) {
    if (SRC_ATTRIBUTE.test(attributes)) continue;
    const type = attributes.match(TYPE_ATTRIBUTE);
    if (!isExecutableScriptType(type ? (type[1] ?? type[2] ?? type[3]) : undefined)) continue;
    hashes.add(scriptHashSource(text));
  }
  return [...hashes];
}

/** The attribute on the element that holds a post's own HTML (src/components/blog/PostArticle.tsx). */
export const POST_CONTENT_ATTRIBUTE = 'data-post-content';

/**
 * How many script elements a page's post content holds: none, since the content is sanitized where it is
 * rendered. The build fails when there is one (src/integrations/security-headers.ts), so the policy only ever
 * allows by hash the scripts the templates emit, never one that slipped into an article.
 */
export function scriptsInPostContent(html: string): number {
  const start = html.search(new RegExp(`<[a-z][a-z0-9-]*\\s[^>]*${POST_CONTENT_ATTRIBUTE}[\\s=>]`, 'i'));
  if (start < 0) return 0;
  let depth = 0;
  let scripts = 0;
  let done = false;
  const parser = new Parser({
    onopentag(name) {
      if (done) return;
      depth += 1;
      if (name === 'script') scripts += 1;
    },
    onclosetag() {
      if (done) return;
      depth -= 1;
      done = depth === 0;
    },
  });
  parser.end(html.slice(start));
  return scripts;
}

/** What the policy allows beyond the site itself. */
export interface PolicySources {
  /** Hash sources of the inline scripts the pages run (see inlineScriptHashes). */
  scriptHashes: readonly string[];
  /** The Supabase URL the browser code talks to (PUBLIC_SUPABASE_URL at build time). */
  backendUrl: string;
  /** Addresses of the organization's embedded frames (booking calendar, contact form). */
  embedUrls: readonly string[];
  /** The embed provider's script (it sizes those frames), when the pages load it. */
  embedScriptUrl: string | null;
}

const origin = (url: string) => new URL(url).origin;
const unique = (values: Iterable<string>) => [...new Set(values)];

/**
 * The policy as one header value. 'wasm-unsafe-eval' lets the blog search (Pagefind) compile its
 * WebAssembly; it does not allow eval or `new Function`. Styles keep 'unsafe-inline' for React's and
 * Astro's style attributes. Images may come from any https host (articles and the hero use stock photos)
 * and from the backend's Storage (the Media Library), which is plain http only on a local backend.
 */
export function contentSecurityPolicy(sources: PolicySources): string {
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    [
      'script-src',
      "'self'",
      "'wasm-unsafe-eval'",
      ...(sources.embedScriptUrl ? [origin(sources.embedScriptUrl)] : []),
      ...[...sources.scriptHashes].sort(),
    ],
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', 'https:', ...(new URL(sources.backendUrl).protocol === 'http:' ? [origin(sources.backendUrl)] : [])],
    ['connect-src', "'self'", origin(sources.backendUrl)],
    ['frame-src', ...unique([...sources.embedUrls.map(origin), ...EMBED_HOSTS.map((host) => `https://${host}`)])],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  return directives.map((directive) => directive.join(' ')).join('; ');
}
