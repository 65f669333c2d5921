/**
 * The one HTML sanitizer of the project: article HTML from the writing tool, the admin editor and the build
 * all pass through `sanitizeArticleHtml`, so they agree on what may reach a page. Built on `sanitize-html`
 * (allow-list based): no scripts or styles, no event-handler attributes, only http(s)/mailto/tel links,
 * images over http(s) only, and iframes only for the video hosts in EMBED_HOSTS.
 *
 * The build sanitizes stored HTML again (src/lib/site/posts.ts), so every rewrite here is idempotent:
 * sanitizing sanitized HTML changes nothing.
 */
import sanitize from 'sanitize-html';

/** Hosts whose players may be embedded (YouTube and Vimeo); any other iframe is removed. */
export const EMBED_HOSTS = ['www.youtube.com', 'youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com'] as const;

/**
 * Prefix of every id (and `<a name>`) in an article, as GitHub does. An article's ids share the page with
 * the site's own (`main`, `site-header`, ...) and become properties of `window`: unprefixed, an article could
 * collide with the page's ids or shadow a global a script reads (DOM clobbering). Ids are kept, not dropped,
 * because an article's table of contents links to its headings (`<a href="#intro">` to `<h2 id="intro">`);
 * those fragment links are prefixed the same way, so they keep working.
 */
export const ARTICLE_ID_PREFIX = 'user-content-';

/**
 * The permissions an embedded player may have (the `allow` attribute): what YouTube's and Vimeo's embed
 * codes ask for, except `web-share` (the players fall back to copying the link). Any other feature
 * (camera, geolocation, payment, ...) is removed, and so is any origin list after a feature (`autoplay *`
 * would extend it to frames of other origins inside the player): a bare feature applies to the player's
 * own origin only.
 */
export const EMBED_PERMISSIONS = [
  'accelerometer',
  'autoplay',
  'clipboard-write',
  'encrypted-media',
  'fullscreen',
  'gyroscope',
  'picture-in-picture',
] as const;

/**
 * What an embedded player learns of the page that embeds it. Not `no-referrer`: YouTube refuses to play
 * without a referrer (its embed code sets this same policy); this one sends only our origin, never the path.
 */
export const EMBED_REFERRER_POLICY = 'strict-origin-when-cross-origin';

const ARTICLE_OPTIONS: sanitize.IOptions = {
  allowedTags: [...sanitize.defaults.allowedTags, 'img', 'iframe'],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'rel', 'title'],
    img: ['src', 'srcset', 'alt', 'title', 'width', 'height', 'loading'],
    iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'loading', 'referrerpolicy'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start', 'reversed'],
    '*': ['id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'], srcset: ['http', 'https'], iframe: ['https'] },
  allowProtocolRelative: false,
  allowedIframeHostnames: [...EMBED_HOSTS],
  allowIframeRelativeUrls: false,
  // sanitize-html strips the src of a disallowed iframe but keeps the element: drop it entirely.
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !frame.attribs.src,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: linkAttributes(attribs) }),
    iframe: (tagName, attribs) => ({ tagName, attribs: embedAttributes(attribs) }),
    '*': (tagName, attribs) => ({ tagName, attribs: prefixedId(attribs) }),
  },
};

/** Article HTML reduced to the allowed tags, attributes and URL schemes. */
export function sanitizeArticleHtml(html: string): string {
  return sanitize(html, ARTICLE_OPTIONS).trim();
}

type Attributes = sanitize.Attributes;

/** An id (or anchor name) in the article's namespace; an already prefixed one stays as it is. */
function prefixed(value: string): string {
  return value.startsWith(ARTICLE_ID_PREFIX) ? value : `${ARTICLE_ID_PREFIX}${value}`;
}

/** The element's id prefixed in place (attribute order kept); an empty id is dropped. */
function prefixedId(attribs: Attributes): Attributes {
  if (attribs.id === undefined) return attribs;
  return Object.fromEntries(Object.entries(attribs).flatMap(([name, value]) => (name !== 'id' ? [[name, value]] : value ? [[name, prefixed(value)]] : [])));
}

/**
 * A link's fragment (`#intro`) and anchor name follow the prefixed ids. A link with any `target` opens
 * another browsing context (`_blank`, a named window, `_top`...): it gets `noopener noreferrer`, so the
 * opened page cannot reach back into ours; the author's other rel tokens (`nofollow`, `sponsored`) stay.
 */
function linkAttributes(attribs: Attributes): Attributes {
  const { name, ...link } = attribs;
  if (name) link.name = prefixed(name);
  const href = link.href?.trim();
  if (href?.startsWith('#') && href.length > 1) link.href = `#${prefixed(href.slice(1))}`;
  if (link.target !== undefined) {
    const kept = (link.rel ?? '').toLowerCase().split(/\s+/).filter((token) => token && !['opener', 'noopener', 'noreferrer'].includes(token));
    link.rel = [...new Set(kept), 'noopener', 'noreferrer'].join(' ');
  }
  return link;
}

/**
 * An embedded player: its `allow` reduced to EMBED_PERMISSIONS (dropped when none is left), the referrer
 * policy of EMBED_REFERRER_POLICY and lazy loading (a player below the fold costs nothing until scrolled to).
 *
 * No `sandbox`: both players need scripts, their own origin, popups (their title and logo open the video on
 * the host's site) and presentation, which leaves a sandbox only top-level navigation, forms and modals to
 * forbid; and whether Vimeo's player (a password-protected video asks for its password in a form) still
 * works inside one could not be checked without a network here. EMBED_HOSTS (https only, exact host names)
 * and these attributes are the guard.
 */
function embedAttributes(attribs: Attributes): Attributes {
  const features = (attribs.allow ?? '')
    .split(';')
    .map((directive) => directive.trim().split(/\s+/)[0]?.toLowerCase() ?? '')
    .filter((feature) => (EMBED_PERMISSIONS as readonly string[]).includes(feature));
  const permissions = [...new Set(features)].join('; ');
  const rest = Object.entries(attribs).filter(([name]) => !['allow', 'referrerpolicy', 'loading'].includes(name));
  return { ...Object.fromEntries(rest), ...(permissions && { allow: permissions }), referrerpolicy: EMBED_REFERRER_POLICY, loading: 'lazy' };
}

/** Ends of block elements and line breaks: where the text needs a space once the tags are gone. */
const BLOCK_END = /<\/(?:p|h[1-6]|li|dt|dd|div|blockquote|pre|figcaption|td|th|tr|section|article|header|footer)\s*>|<br\s*\/?>/gi;

/**
 * The text of some HTML, tags dropped (script and style contents included), whitespace collapsed. Blocks stay
 * apart ("<h2>A</h2><p>B</p>" → "A B"); inline elements do not split words ("<b>A</b>B" → "AB").
 */
export function htmlToText(html: string): string {
  return sanitize(html.replace(BLOCK_END, '$& '), { allowedTags: [], allowedAttributes: {} }).replace(/\s+/g, ' ').trim();
}

/** Ends of the blocks that hold running text. */
const TEXT_BLOCK_END = /<\/(?:p|li|dd|div|blockquote|td|section|article)\s*>/gi;
/** Elements whose text is not running prose: headings, code, captions, tables, and what htmlToText drops. */
const NOT_PROSE = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'figcaption', 'caption', 'table', 'script', 'style', 'textarea', 'option', 'noscript'];
const BLOCK_MARK = '\u0001';
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&nbsp;': ' ' };

/**
 * The running text of some HTML as one string per block (paragraph, list item, quote...), in order: headings,
 * code, captions and tables left out, tags dropped, entities decoded, whitespace collapsed, empty blocks gone.
 * `<h2>Intro</h2><p>An article.</p><p>More.</p>` → `['An article.', 'More.']`.
 */
export function proseBlocks(html: string): string[] {
  const text = sanitize(html.replace(TEXT_BLOCK_END, `$&${BLOCK_MARK}`), { allowedTags: [], allowedAttributes: {}, nonTextTags: NOT_PROSE });
  return text
    .split(BLOCK_MARK)
    .map((block) => block.replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (entity) => ENTITIES[entity] ?? entity).replace(/\s+/g, ' ').trim())
    .filter((block) => block !== '');
}
