/**
 * A post's sanitized HTML body as the public post page renders it (`<div class="article-body mt-8">` in
 * src/pages/blog/[slug].astro), so previews look like the live page. The HTML must already have passed
 * sanitizeArticleHtml.
 */
export default function PostBody({ html }: { html: string }) {
  return <div className="article-body mt-8" data-testid="post-body" dangerouslySetInnerHTML={{ __html: html }} />;
}
