/**
 * The one shaping path of a post's body, used by the editor (save and live preview), the writing-tool
 * webhook and any backfill: the author's source (Markdown, or HTML when only HTML arrived) is kept as
 * written, and the stored HTML and reading time are derived from it on every save. HTML sources are not
 * converted to Markdown: a converter would rewrite the writer's tables, embeds and attributes, and the
 * editor edits HTML as well as Markdown. Browser-safe (no server-only imports).
 */
import type { ContentFormat } from '../schemas/post.ts';
import { readingTimeMinutes } from './reading-time.ts';
import { sanitizeArticleHtml } from './sanitize-html.ts';

/** A post body as stored: the source, its format, the sanitized HTML derived from it and its reading time. */
export interface PostContent {
  content_source: string;
  content_format: ContentFormat;
  /** Sanitized article HTML. */
  content: string;
  reading_time: number;
}

/**
 * The source as HTML, before sanitizing. Markdown goes through marked (GitHub-flavoured, which also passes
 * inline HTML through); the renderer is loaded only when Markdown arrives, since the writing tool usually
 * sends HTML and every module a cold function imports adds to a delivery's time.
 */
async function sourceHtml(source: string, format: ContentFormat): Promise<string> {
  if (format === 'html') return source;
  const { marked } = await import('marked');
  return marked.parse(source, { async: false, gfm: true });
}

/** Derives the stored body from what the author wrote. The HTML is empty when nothing safe is left. */
export async function shapePostContent(source: string, format: ContentFormat): Promise<PostContent> {
  const content = sanitizeArticleHtml(await sourceHtml(source, format));
  return { content_source: source, content_format: format, content, reading_time: readingTimeMinutes(content) };
}
