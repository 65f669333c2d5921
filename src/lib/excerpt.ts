/**
 * Excerpts (the summary on cards, in search results, the feed and the meta description) and the lede (the
 * summary under a post's title). The rules:
 * 1. A hand-written excerpt (the editor's field, the writing tool's `excerpt`) is used as written.
 * 2. A post without one gets an automatic excerpt from its running text only: paragraphs and list items,
 *    never headings, code, captions or tables (a heading glued onto the text read "Intro An HTML article").
 *    Each block stays its own sentence: a block not ending in . ! ? … : or ; gets a full stop before the next
 *    one, so two paragraphs never run together. Cut at a word boundary to EXCERPT_LENGTH, with "…".
 * 3. The post page shows an excerpt under the title only when it is hand-written and is not the beginning of
 *    the body: an automatic excerpt, or a hand-written one the first paragraph repeats (the tool often sends
 *    the first paragraph as the excerpt), would say the same thing twice, one line apart.
 * Pure (sanitize-html.ts only), so the build and the back office's previews share it.
 */
import { proseBlocks } from './sanitize-html.ts';

/** Characters of an automatic excerpt, at most (plus the ellipsis). */
export const EXCERPT_LENGTH = 160;

/** A block as a sentence: its own final punctuation, else a full stop. */
function asSentence(block: string): string {
  return /[.!?…:;]["'”’)\]]*$/.test(block) ? block : `${block}.`;
}

function shorten(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = text.slice(0, length);
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > 0 ? space : length).replace(/[\s,;:.]+$/, '')}…`;
}

/** The automatic excerpt of an article's HTML (rule 2); empty when the body has no running text. */
export function autoExcerpt(html: string, length = EXCERPT_LENGTH): string {
  const blocks = proseBlocks(html);
  return shorten(blocks.map((block, i) => (i < blocks.length - 1 ? asSentence(block) : block)).join(' '), length);
}

/** The post's excerpt: the hand-written one, else the automatic one (rules 1 and 2). */
export function postExcerpt(handWritten: string | null | undefined, html: string): string {
  return handWritten?.trim() || autoExcerpt(html);
}

/** Letters and digits only, lower case: how a lede is compared with the body's beginning. */
const comparable = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** The lede shown under the title (rule 3): the hand-written excerpt unless the body begins with it; else null. */
export function ledeOf(handWritten: string | null | undefined, html: string): string | null {
  const lede = handWritten?.trim();
  if (!lede) return null;
  const key = comparable(lede.replace(/…$/, ''));
  const beginning = comparable(proseBlocks(html).join(' ').slice(0, lede.length * 2));
  return key !== '' && beginning.startsWith(key) ? null : lede;
}
