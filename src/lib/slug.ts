/**
 * URL slugs: the one place titles and names become the `lower-case-words` form that SLUG_PATTERN and the
 * SQL `is_valid_slug` accept. Pure, so the build, the admin editor and the functions share it.
 */

const MAX_SLUG_LENGTH = 200;

/** Creates a slug from a title: lower case, runs of other characters become one hyphen, ends trimmed. */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}

/**
 * The slug of a post: the given slug (normalized) or else the title's. A title with no Latin letters or
 * digits (e.g. all CJK) gets `post-<hash of the title>`: deterministic, so a redelivery finds the same post.
 */
export function postSlug(title: string, slug?: string): string {
  return slugify(slug ?? '') || slugify(title) || `post-${fnv1a(title)}`;
}

/**
 * The slug of a category: the given slug or else the name, slugified; a name with no Latin letters or digits
 * gets `category-<hash of the name>`, the same for the same name (in any case) every time, as a post's does. The
 * WordPress API's terms and the arrivals that name a category both make theirs here.
 */
export function categorySlug(name: string, slug?: string): string {
  return slugify(slug ?? '') || slugify(name) || `category-${fnv1a(name.trim().toLowerCase())}`;
}

/** 32-bit FNV-1a as 8 hex digits: a short stable fingerprint, not a security hash. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}
