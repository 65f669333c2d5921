/**
 * The one HTML sanitizer of the project: article HTML from the writing tool, the admin editor and the build
 * all pass through `sanitizeArticleHtml`, so they agree on what may reach a page. Built on `sanitize-html`
 * (allow-list based): no scripts or styles, no event-handler attributes, only http(s)/mailto/tel links,
 * images over http(s) only, and iframes only for the video hosts in EMBED_HOSTS.
 */
import sanitize from 'sanitize-html';

/** Hosts whose players may be embedded (YouTube and Vimeo); any other iframe is removed. */
export const EMBED_HOSTS = ['www.youtube.com', 'youtube.com', 'www.youtube-nocookie.com', 'player.vimeo.com'] as const;

const ARTICLE_OPTIONS: sanitize.IOptions = {
  allowedTags: [...sanitize.defaults.allowedTags, 'img', 'iframe'],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'rel', 'title'],
    img: ['src', 'srcset', 'alt', 'title', 'width', 'height', 'loading'],
    iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'loading'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    ol: ['start', 'reversed'],
    '*': ['id'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'], iframe: ['https'] },
  allowProtocolRelative: false,
  allowedIframeHostnames: [...EMBED_HOSTS],
  allowIframeRelativeUrls: false,
  // sanitize-html strips the src of a disallowed iframe but keeps the element: drop it entirely.
  exclusiveFilter: (frame) => frame.tag === 'iframe' && !frame.attribs.src,
  transformTags: {
    // A link that opens a new tab must not hand the opener to the target page.
    a: (tagName, attribs) =>
      attribs.target === '_blank' ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer' } } : { tagName, attribs },
  },
};

/** Article HTML reduced to the allowed tags, attributes and URL schemes. */
export function sanitizeArticleHtml(html: string): string {
  return sanitize(html, ARTICLE_OPTIONS).trim();
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
