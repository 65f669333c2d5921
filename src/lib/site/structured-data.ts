/** Schema.org JSON-LD for search engines; pure, so tests check it without a build. */
import { postPath } from '../blog-urls.ts';
import type { BlogPost } from './blog-model.ts';
import type { Organization } from '../host-match.ts';

/** Article JSON-LD of a post page; `site` is the site's origin (Astro's `site`). */
export function articleJsonLd(post: BlogPost, organization: Organization, site: URL | string): Record<string, unknown> {
  const url = new URL(postPath(post.slug), site).href;
  return {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: post.title,
    description: post.metaDescription,
    image: [new URL(post.image, site).href],
    datePublished: post.date,
    dateModified: post.updatedAt,
    // A post credited to the organization (no named author) is the publisher's own: schema.org's author may be an Organization.
    author: {
      '@type': post.author.kind === 'organization' ? 'Organization' : 'Person',
      name: post.author.name,
      ...(post.author.website ? { url: post.author.website } : {}),
    },
    publisher: { '@type': 'Organization', name: organization.name },
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    ...(post.categoryName ? { articleSection: post.categoryName } : {}),
    keywords: post.tags.join(', '),
    url,
  };
}
