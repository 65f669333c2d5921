import { htmlToText } from './sanitize-html.ts';

/** Reading speed used for the "N min read" label. */
export const WORDS_PER_MINUTE = 200;

/** Minutes to read an article: its words at WORDS_PER_MINUTE, at least 1, at most 600 (the column's bound). */
export function readingTimeMinutes(html: string): number {
  const text = htmlToText(html);
  const words = text === '' ? 0 : text.split(' ').length;
  return Math.min(600, Math.max(1, Math.ceil(words / WORDS_PER_MINUTE)));
}
