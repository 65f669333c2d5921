/**
 * PostArticle, the one article of the public post page, the admin preview and the editor's live preview:
 * rendered to static HTML (as Astro renders it, no client directive), it shows the body's headings, lists,
 * tables and images inside `.article-body` (styled by article.css), the featured image, the meta line and
 * the tag chips; PostPreview adds the reading time of the one rule.
 */
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import PostPreview, { type PostPreviewProps } from '../../../src/admin/blog/PostPreview';
import PostArticle, { type PostArticleData } from '../../../src/components/blog/PostArticle';
import type { ProcessedPicture } from '../../../src/lib/images';
import { PLACEHOLDER_IMAGE } from '../../../src/lib/post-display';
import { readingTimeMinutes } from '../../../src/lib/reading-time';

const BODY = [
  '<h2 id="intro">Start here</h2>',
  '<p>Some words.</p>',
  '<ul><li>One</li><li>Two</li></ul>',
  '<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Pro</td><td>$9</td></tr></tbody></table>',
  '<p><img src="https://images.example.com/chart.png" alt="Chart" /></p>',
  '<script>window.__xss = 1</script>',
  `<p>${'word '.repeat(450).trim()}</p>`,
].join('\n');

const PREVIEW: PostPreviewProps = {
  title: 'A preview',
  excerpt: 'What it is about.',
  html: BODY,
  featuredImageUrl: 'https://images.unsplash.com/photo-1?auto=format',
  categoryName: 'SEO Strategies',
  tags: ['Google', 'SEO', '!!!'],
  authorName: 'Alex Morgan',
  organizationName: 'Scale Pro Marketing',
  date: '2026-10-28T09:00:00.000Z',
  timeZone: 'America/New_York',
};

const render = (element: ReactElement) => renderToStaticMarkup(element);

/** The inner HTML of the article body (the element after the `.article-body` opening tag, to the article's end). */
function articleBody(html: string): string {
  const match = html.match(/<div class="article-body mt-8" data-testid="post-body" data-post-content="">([\s\S]*?)<\/div><\/article>/);
  if (!match) throw new Error(`no article body in ${html}`);
  return match[1]!;
}

/** The featured image's tag: the article's first element (in its `<picture>` when it was processed). */
function featuredImage(html: string): string {
  return html.match(/<article[^>]*><div data-pagefind-ignore="">(?:<picture>(?:<source [^>]*>)*)?(<img [^>]*>)/)![1]!;
}

const PICTURE: ProcessedPicture = {
  sources: [
    { type: 'image/avif', srcSet: '/_astro/a_400.avif 400w, /_astro/a_800.avif 800w' },
    { type: 'image/webp', srcSet: '/_astro/a_400.webp 400w, /_astro/a_800.webp 800w' },
  ],
  src: '/_astro/a.webp',
  srcSet: '/_astro/a_400.webp 400w, /_astro/a_800.webp 800w',
  width: 1600,
  height: 900,
};

describe('PostPreview', () => {
  const html = render(<PostPreview {...PREVIEW} />);
  const body = articleBody(html);

  it('renders the body sanitized inside .article-body: heading, list, table and image', () => {
    expect(body).toContain('<h2 id="user-content-intro">Start here</h2>');
    expect(body).toContain('<ul><li>One</li><li>Two</li></ul>');
    expect(body).toContain('<table><thead><tr><th>Plan</th><th>Price</th></tr></thead><tbody><tr><td>Pro</td><td>$9</td></tr></tbody></table>');
    expect(body).toMatch(/<img src="https:\/\/images\.example\.com\/chart\.png" alt="Chart" \/>/);
    expect(body).not.toMatch(/script|__xss/);
  });

  it('shows the meta line as the public page does: category, date, reading time of the one rule, author', () => {
    expect(readingTimeMinutes(BODY)).toBe(3);
    expect(html).toContain(
      '<span class="rounded-full px-3 py-1 font-semibold bg-primary/10 text-primary">SEO Strategies</span>' +
        '<time dateTime="2026-10-28T09:00:00.000Z">October 28, 2026</time><span>3 min read</span><span>By Alex Morgan</span>',
    );
    expect(html).toMatch(/<h1 [^>]*>A preview<\/h1><p class="mt-4 text-xl text-muted-foreground">What it is about.<\/p>/);
  });

  it("shows a draft's featured image as saved (it is not built yet), and the tag chips that have a page", () => {
    const image = featuredImage(html);
    expect(image).toContain('src="https://images.unsplash.com/photo-1?auto=format"');
    expect(image).not.toContain('srcSet');
    expect(image).toContain(`data-fallback="${PLACEHOLDER_IMAGE}"`);
    const tags = html.match(/<ul class="[^"]*" aria-label="Tags">([\s\S]*?)<\/ul>/)![1]!;
    expect([...tags.matchAll(/<a href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [m[2], m[1]])).toEqual([
      ['Google', '/blog/tag/google'],
      ['SEO', '/blog/tag/seo'],
    ]);
  });

  it.each([
    ['no URL', null],
    ['a URL still being typed', 'https://'],
    ['not an http(s) URL', 'javascript:alert(1)'],
  ])('shows the placeholder for %s', (_case, featuredImageUrl) => {
    const image = featuredImage(render(<PostPreview {...PREVIEW} featuredImageUrl={featuredImageUrl} />));
    expect(image).toContain(`src="${PLACEHOLDER_IMAGE}"`);
    expect(image).not.toContain('srcSet');
    expect(image).not.toContain('data-fallback');
  });

  it('dates a post not saved yet today', () => {
    const today = new Date().toISOString().slice(0, 10);
    expect(render(<PostPreview {...PREVIEW} date={null} />)).toMatch(new RegExp(`<time dateTime="${today}T[^"]+">`));
  });

  it("uses the public page's defaults for a post without category, author, excerpt, title or tags", () => {
    const bare = render(<PostPreview {...PREVIEW} title="" excerpt={null} categoryName={null} authorName="  " tags={null} />);
    expect(bare).toMatch(/<h1 [^>]*>Untitled<\/h1><div class="article-body/);
    expect(bare).toContain('<span class="rounded-full px-3 py-1 font-semibold bg-muted">Uncategorized</span>');
    // No named author: the organization's post, as on the public page.
    expect(bare).toContain('<span>By Scale Pro Marketing</span>');
    expect(bare).not.toContain('aria-label="Tags"');
  });
});

describe('PostArticle on the public page', () => {
  const post: PostArticleData = {
    title: 'Public',
    excerpt: 'Excerpt',
    html: '<p>Body</p>',
    featuredImageUrl: null,
    categoryName: 'SEO Strategies',
    categorySlug: 'seo-strategies',
    hasCategory: true,
    date: '2026-10-28T09:00:00.000Z',
    timeZone: 'America/New_York',
    readTime: 8,
    authorName: 'Alex Morgan',
    tags: [],
  };

  it('links the category, marks the article for Pagefind and renders the actions without tags', () => {
    const card = { slug: 'public', title: 'Public' } as Parameters<typeof PostArticle>[0]['searchCard'];
    const html = render(<PostArticle post={post} searchCard={card} actions={<button type="button">Share</button>} />);
    expect(html).toMatch(/<article data-pagefind-body="" data-pagefind-meta="card\[data-card\]" data-card="\{&quot;slug&quot;:&quot;public&quot;,&quot;title&quot;:&quot;Public&quot;\}">/);
    expect(html).toMatch(/<a href="\/blog\/category\/seo-strategies" [^>]*>SEO Strategies<\/a>/);
    expect(html).toContain('<span>8 min read</span>');
    expect(html).not.toContain('aria-label="Tags"');
    expect(html).toMatch(/<\/article><div class="mt-10 [^"]*"><button type="button">Share<\/button><\/div>$/);
  });

  it('shows the picture processed at build: AVIF and WebP sources, its own size, the placeholder on failure', () => {
    const html = render(<PostArticle post={{ ...post, featuredPicture: PICTURE }} />);
    const sources = [...html.matchAll(/<source type="([^"]+)" srcSet="([^"]+)" sizes="([^"]+)"\/>/g)].map((m) => [m[1], m[2]]);
    expect(sources).toEqual(PICTURE.sources.map((source) => [source.type, source.srcSet]));
    const image = featuredImage(html);
    expect(image).toContain('src="/_astro/a.webp"');
    expect(image).toContain('width="1600" height="900"');
    expect(image).toContain('fetchPriority="high"');
    expect(image).toContain(`data-fallback="${PLACEHOLDER_IMAGE}"`);
  });

  it('shows the placeholder, never a remote URL, when the public page has no processed picture', () => {
    const image = featuredImage(render(<PostArticle post={post} />));
    expect(image).toContain(`src="${PLACEHOLDER_IMAGE}"`);
    expect(image).toContain('width="1200" height="675"');
  });

  it('is not a search body outside the public page', () => {
    expect(render(<PostArticle post={post} />)).not.toContain('data-pagefind-body');
  });
});
