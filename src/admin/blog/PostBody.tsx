import { useMemo } from 'react';
import { sanitizeArticleHtml } from '../../lib/sanitize-html';

/**
 * A post's HTML body as the public post page renders it (`<div class="article-body mt-8">` in
 * src/pages/blog/[slug].astro), so previews look like the live page. The HTML is sanitized here, at render
 * time, whatever wrote it: stored content may come from the REST API directly (any editor can write it), not
 * only from the editor or the webhook, which sanitize on save.
 */
export default function PostBody({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeArticleHtml(html), [html]);
  return <div className="article-body mt-8" data-testid="post-body" dangerouslySetInnerHTML={{ __html: clean }} />;
}
