import { describe, expect, it } from 'vitest';
import { BlogRowsSchema, type AuthorRow, type BlogRows, type PostRow } from '../../../../src/schemas/blog.ts';
import { PLACEHOLDER_IMAGE, UNCATEGORIZED } from '../../../../src/lib/post-display.ts';
import type { Organization } from '../../../../src/lib/host-match.ts';
import { mediaPublicUrl } from '../../../../src/lib/media-library.ts';
import { postsInCategory, postsWithTag, tagSummaries, toBlog, toBlogAuthor, toBlogPost, toPostCardData, type BlogCategory, toFeaturedImage } from '../../../../src/lib/site/blog-model.ts';

const category: BlogCategory = { id: '30000000-0000-4000-8000-100000000000', name: 'SEO Strategies', slug: 'seo-strategies', description: null };
const author: AuthorRow = {
  id: '20000000-0000-4000-8000-000000000001',
  full_name: 'Alex Morgan',
  bio: 'Helps businesses grow.',
  avatar_url: 'https://images.unsplash.com/photo-1',
  author_title: 'Founder',
  author_website: null,
};

function row(overrides: Partial<PostRow> = {}): PostRow {
  return {
    id: '40000000-0000-4000-8000-000000000001',
    slug: 'a-post',
    title: 'A Post',
    excerpt: 'The excerpt.',
    content: '<p>Body</p>',
    category_id: category.id,
    author_id: author.id,
    tags: ['SEO', 'Google Ads'],
    featured_image_url: 'https://images.unsplash.com/photo-2',
    featured_media: null,
    meta_title: null,
    meta_description: null,
    published_at: '2026-10-28 14:00:00+00',
    created_at: '2026-10-01T00:00:00Z',
    updated_at: '2026-10-29T00:00:00Z',
    sticky: false,
    ...overrides,
  };
}

const categories = new Map([[category.id, category]]);
const authors = new Map([[author.id, author]]);
const organization: Organization = {
  id: '10000000-0000-4000-8000-000000000001',
  name: 'Scale Pro Marketing',
  slug: 'scale-pro',
  domain: 'scalepro.test',
  settings: { blog_description: 'Marketing that brings customers.' },
};
/** The card of a post credited to the organization. */
const organizationAuthor = {
  kind: 'organization',
  name: 'Scale Pro Marketing',
  title: null,
  bio: 'Marketing that brings customers.',
  avatarUrl: null,
  website: 'https://scalepro.test',
};

describe('toBlogPost', () => {
  it('joins the category and author and keeps the stored values', () => {
    const post = toBlogPost(row(), categories, authors, organization);
    expect(post).toMatchObject({
      categoryName: 'SEO Strategies',
      category,
      author: { name: 'Alex Morgan', title: 'Founder', bio: 'Helps businesses grow.' },
      image: 'https://images.unsplash.com/photo-2',
      hasFeaturedImage: true,
      readTime: 1,
      date: '2026-10-28T14:00:00.000Z',
      // No SEO title: the post's title and the site's name.
      metaTitle: 'A Post | Scale Pro Marketing',
      metaDescription: 'The excerpt.',
    });
  });

  it.each<[string, Partial<PostRow>, (post: ReturnType<typeof toBlogPost>) => unknown, unknown]>([
    ['no author (credited to the organization) → the organization', { author_id: null }, (p) => p.author, organizationAuthor],
    ['author not readable → the organization', { author_id: '20000000-0000-4000-8000-000000000009' }, (p) => p.author, organizationAuthor],
    ['no category → Uncategorized', { category_id: null }, (p) => p.categoryName, UNCATEGORIZED],
    // A category the build did not read is one waiting for review: no category is shown, not a wrong one.
    ['category under review (not read) → no category shown', { category_id: '30000000-0000-4000-8000-100000000009' }, (p) => [p.categoryName, p.category, toPostCardData(p).categoryName], [null, null, null]],
    ['no image → placeholder', { featured_image_url: null }, (p) => [p.image, p.hasFeaturedImage], [PLACEHOLDER_IMAGE, false]],
    ['read time by the one rule: 201 words → 2 min', { content: `<p>${'word '.repeat(201)}</p>` }, (p) => p.readTime, 2],
    ['no published_at → created_at', { published_at: null }, (p) => p.date, '2026-10-01T00:00:00.000Z'],
    ['no tags → none', { tags: null }, (p) => p.tags, []],
    ['tags without letters or digits are dropped', { tags: ['SEO', '!!!'] }, (p) => p.tags, ['SEO']],
    ['no excerpt → the running text, never a heading', { excerpt: null, content: '<h2>Intro</h2><p>First words.</p>' }, (p) => p.excerpt, 'First words.'],
    ['no excerpt → no lede under the title (it is the body’s beginning)', { excerpt: null }, (p) => p.lede, null],
    ['a hand-written excerpt the body does not begin with → the lede', { excerpt: 'The excerpt.' }, (p) => p.lede, 'The excerpt.'],
    ['a hand-written excerpt that is the first paragraph → no lede', { excerpt: 'First words.', content: '<p>First words.</p><p>More.</p>' }, (p) => p.lede, null],
    ['meta fields win when set, with the site name', { meta_title: 'Meta T', meta_description: 'Meta D' }, (p) => [p.metaTitle, p.metaDescription], ['Meta T | Scale Pro Marketing', 'Meta D']],
    ['an SEO title written with the site name gets it once', { meta_title: 'Meta T – scale pro marketing' }, (p) => p.metaTitle, 'Meta T – scale pro marketing'],
  ])('%s', (_, overrides, pick, expected) => {
    expect(pick(toBlogPost(row(overrides), categories, authors, organization))).toEqual(expected);
  });

  it('shortens a long derived excerpt at a word boundary', () => {
    const post = toBlogPost(row({ excerpt: '  ', content: `<p>${'word '.repeat(60)}</p>` }), categories, authors, organization);
    expect(post.excerpt.length).toBeLessThanOrEqual(161);
    expect(post.excerpt).toMatch(/word…$/);
  });

  it('sanitizes the body again at build time', () => {
    const post = toBlogPost(row({ content: '<p onclick="x()">Hi<script>alert(1)</script></p><iframe src="https://evil.test/"></iframe>' }), categories, authors, organization);
    expect(post.html).toBe('<p>Hi</p>');
  });
});

describe('toBlogAuthor', () => {
  it("is the member's card when the profile has a name", () => {
    expect(toBlogAuthor(author, organization)).toEqual({
      kind: 'person', name: 'Alex Morgan', title: 'Founder', bio: 'Helps businesses grow.', avatarUrl: 'https://images.unsplash.com/photo-1', website: null,
    });
  });

  it("credits the organization, with its settings' description and its site, for a nameless or missing profile", () => {
    expect(toBlogAuthor({ ...author, full_name: '  ' }, organization)).toEqual(organizationAuthor);
    expect(toBlogAuthor(undefined, organization)).toEqual(organizationAuthor);
    expect(toBlogAuthor(undefined, { ...organization, domain: null, settings: {} })).toEqual({ ...organizationAuthor, bio: null, website: null });
  });
});

describe('toBlog', () => {
  const rows: BlogRows = {
    organization: { id: '10000000-0000-4000-8000-000000000001', name: 'Scale Pro Marketing', slug: 'scale-pro', domain: null, settings: {} },
    categories: [
      { id: '30000000-0000-4000-8000-100000000002', name: 'Local SEO', slug: 'local-seo', description: null },
      { ...category },
      { id: '30000000-0000-4000-8000-100000000003', name: 'Empty', slug: 'empty', description: null },
    ],
    posts: [
      row({ id: '40000000-0000-4000-8000-000000000003', slug: 'local', published_at: '2025-12-01T00:00:00Z', category_id: '30000000-0000-4000-8000-100000000002', tags: [] }),
      row({ id: '40000000-0000-4000-8000-000000000001', slug: 'older', published_at: '2026-01-01T00:00:00Z' }),
      row({ id: '40000000-0000-4000-8000-000000000002', slug: 'newer', published_at: '2026-02-01T00:00:00Z', tags: ['seo', 'Maps'] }),
    ],
    authors: [author],
    redirects: [
      { old_slug: 'older-name', post_id: '40000000-0000-4000-8000-000000000001' },
      { old_slug: 'gone', post_id: '40000000-0000-4000-8000-000000000009' },
      { old_slug: 'newer', post_id: '40000000-0000-4000-8000-000000000001' },
    ],
    category_redirects: [
      { old_slug: 'maps', category_id: '30000000-0000-4000-8000-100000000002' },
      { old_slug: 'deleted-target', category_id: '30000000-0000-4000-8000-100000000009' },
      { old_slug: 'seo-strategies', category_id: '30000000-0000-4000-8000-100000000002' },
      { old_slug: 'nothing-here', category_id: '30000000-0000-4000-8000-100000000003' },
    ],
    time_zone: 'America/Chicago',
  };
  const blog = toBlog(rows);

  it("dates every post in the organization's time zone", () => {
    expect(blog.posts.every((post) => post.timeZone === 'America/Chicago')).toBe(true);
  });

  it('orders posts newest first and categories by name', () => {
    expect(blog.posts.map((p) => p.slug)).toEqual(['newer', 'older', 'local']);
    expect(blog.categories.map((c) => c.slug)).toEqual(['local-seo', 'seo-strategies']);
  });

  it("lists sticky posts first on the blog's own list only, newest first among them; reads an older snapshot as none sticky", () => {
    expect(blog.listed.map((p) => p.slug)).toEqual(['newer', 'older', 'local']);
    const sticky = toBlog({ ...rows, posts: rows.posts.map((post) => ({ ...post, sticky: post.slug !== 'newer' })) });
    expect(sticky.listed.map((p) => p.slug)).toEqual(['older', 'local', 'newer']);
    expect(sticky.posts.map((p) => p.slug)).toEqual(['newer', 'older', 'local']);
    const old: Record<string, unknown> = JSON.parse(JSON.stringify(rows));
    for (const post of old.posts as Record<string, unknown>[]) delete post.sticky;
    expect(BlogRowsSchema.parse(old).posts.every((post) => post.sticky === false)).toBe(true);
  });

  it('offers no category without a published post: no pill, sidebar entry or page, and no redirect to one', () => {
    expect(blog.categories.map((c) => c.slug)).not.toContain('empty');
    expect(blog.categoryRedirects.map((r) => r.slug)).not.toContain('empty');
  });

  it('keeps redirects only to posts it shows and never over a live slug', () => {
    expect(blog.redirects).toEqual([{ oldSlug: 'older-name', slug: 'older' }]);
  });

  it('keeps category redirects only to categories it has and never over a live category slug', () => {
    expect(blog.categoryRedirects).toEqual([{ oldSlug: 'maps', slug: 'local-seo' }]);
  });

  it('reads a snapshot written before category redirects existed as having none', () => {
    const old: Record<string, unknown> = JSON.parse(JSON.stringify(rows));
    delete old.category_redirects;
    expect(BlogRowsSchema.parse(old).category_redirects).toEqual([]);
  });

  it('selects posts by category and tag slug', () => {
    expect(postsInCategory(blog.posts, 'seo-strategies')).toHaveLength(2);
    expect(postsInCategory(blog.posts, 'local-seo').map((p) => p.slug)).toEqual(['local']);
    expect(postsWithTag(blog.posts, 'google-ads').map((p) => p.slug)).toEqual(['older']);
    expect(postsWithTag(blog.posts, 'seo').map((p) => p.slug)).toEqual(['newer', 'older']);
  });

  it('summarizes tags once per slug, most used first', () => {
    expect(tagSummaries(blog.posts)).toEqual([
      { name: 'seo', slug: 'seo', count: 2 },
      { name: 'Google Ads', slug: 'google-ads', count: 1 },
      { name: 'Maps', slug: 'maps', count: 1 },
    ]);
  });

  it('gives cards the fields they show', () => {
    expect(toPostCardData(blog.posts[0]!)).toEqual({
      slug: 'newer',
      title: 'A Post',
      excerpt: 'The excerpt.',
      image: 'https://images.unsplash.com/photo-2',
      hasFeaturedImage: true,
      imageAlt: '',
      categoryName: 'SEO Strategies',
      categorySlug: 'seo-strategies',
      date: '2026-02-01T00:00:00.000Z',
      timeZone: 'America/Chicago',
      readTime: 1,
      authorName: 'Alex Morgan',
      tags: ['seo', 'Maps'],
    });
  });
});

describe('featured images', () => {
  const media = { url: 'http://127.0.0.1:54321/storage/v1/object/public/media/org/cover.jpg', alt_text: 'A chart', width: 1600, height: 900 };

  it('takes the Media Library image with its alt text and size, over a legacy address', () => {
    expect(toFeaturedImage({ featured_media: media, featured_image_url: 'https://old.example.com/a.jpg' })).toEqual({
      url: media.url, alt: 'A chart', width: 1600, height: 900,
    });
  });

  it('leaves the alt text empty when nobody wrote one, as for a legacy address', () => {
    expect(toFeaturedImage({ featured_media: { ...media, alt_text: ' ' }, featured_image_url: null })?.alt).toBe('');
    expect(toFeaturedImage({ featured_media: null, featured_image_url: 'https://old.example.com/a.jpg' })).toEqual({
      url: 'https://old.example.com/a.jpg', alt: '', width: null, height: null,
    });
    expect(toFeaturedImage({ featured_media: null, featured_image_url: null })).toBeNull();
  });

  it('addresses a library file in the public bucket, each path segment encoded', () => {
    expect(mediaPublicUrl('org-id/My Cover #1.jpg', 'http://127.0.0.1:54321/')).toBe('http://127.0.0.1:54321/storage/v1/object/public/media/org-id/My%20Cover%20%231.jpg');
  });
});
