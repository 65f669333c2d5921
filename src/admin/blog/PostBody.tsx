import { useMemo } from 'react';
import { sanitizeArticleHtml } from '../../lib/sanitize-html';

/**
 * A post's HTML body in the article typography (src/styles/article.css), sanitized here, at render time. Only
 * the editor's live preview still uses it: it is to use PostPreview (the whole article as the public page
 * renders it) instead, after which this file goes.
 */
export default function PostBody({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeArticleHtml(html), [html]);
  return <div className="article-body mt-8" data-testid="post-body" dangerouslySetInnerHTML={{ __html: clean }} />;
}
