/**
 * PostCard's picture: the processed AVIF/WebP picture when the build made one, else the placeholder; never the
 * saved URL (`image`), so a card in a list or in search results hotlinks nothing.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import PostCard from '../../../src/components/blog/PostCard';
import { PLACEHOLDER_IMAGE, type PostCardData } from '../../../src/lib/post-display';

const CARD: PostCardData = {
  slug: 'a-post',
  title: 'A post',
  excerpt: 'About it.',
  image: 'https://images.unsplash.com/photo-1?auto=format',
  hasFeaturedImage: true,
  categoryName: 'SEO',
  categorySlug: 'seo',
  date: '2026-10-28T09:00:00.000Z',
  timeZone: 'America/New_York',
  readTime: 3,
  authorName: 'Alex Morgan',
  tags: [],
};

describe('PostCard picture', () => {
  it('shows the processed picture: AVIF and WebP sources, a lazy WebP img with its own size', () => {
    const html = renderToStaticMarkup(
      <PostCard
        post={{
          ...CARD,
          picture: {
            sources: [
              { type: 'image/avif', srcSet: '/_astro/p_400.avif 400w' },
              { type: 'image/webp', srcSet: '/_astro/p_400.webp 400w' },
            ],
            src: '/_astro/p.webp',
            srcSet: '/_astro/p_400.webp 400w',
            width: 1200,
            height: 800,
          },
        }}
      />,
    );
    expect([...html.matchAll(/<source type="([^"]+)"/g)].map((m) => m[1])).toEqual(['image/avif', 'image/webp']);
    expect(html).toMatch(/<img src="\/_astro\/p\.webp" srcSet="\/_astro\/p_400\.webp 400w" [^>]*width="1200" height="800"[^>]*loading="lazy"/);
    expect(html).not.toContain('unsplash');
  });

  it.each([
    ['no picture', undefined],
    ['a picture that could not be processed', null],
  ])('shows the placeholder for %s, never the saved URL', (_case, picture) => {
    const html = renderToStaticMarkup(<PostCard post={{ ...CARD, picture }} />);
    expect(html).toMatch(new RegExp(`<img src="${PLACEHOLDER_IMAGE}" alt="" width="800" height="450"`));
    expect(html).not.toContain('<picture');
    expect(html).not.toContain('unsplash');
  });
});

describe('PostCard category', () => {
  it('links its category, names an uncategorized post, and shows no category while it waits for review', () => {
    expect(renderToStaticMarkup(<PostCard post={CARD} />)).toMatch(/<a href="\/blog\/category\/seo"[^>]*>SEO<\/a>/);
    expect(renderToStaticMarkup(<PostCard post={{ ...CARD, categoryName: 'Uncategorized', categorySlug: null }} />)).toContain('>Uncategorized</span>');
    const underReview = renderToStaticMarkup(<PostCard post={{ ...CARD, categoryName: null, categorySlug: null }} />);
    expect(underReview).not.toContain('Uncategorized');
    expect(underReview).not.toContain('rounded-full bg-muted');
    expect(underReview).toContain('3 min read');
  });
});

describe('PostCard date', () => {
  it("is the day in the organization's time zone: 11:12 PM in New York is that day, not UTC's next", () => {
    const lateEvening = { ...CARD, date: '2026-11-29T04:12:00.000Z' };
    expect(renderToStaticMarkup(<PostCard post={lateEvening} />)).toContain('>November 28, 2026</time>');
    expect(renderToStaticMarkup(<PostCard post={{ ...lateEvening, timeZone: 'Europe/Berlin' }} />)).toContain('>November 29, 2026</time>');
  });
});
