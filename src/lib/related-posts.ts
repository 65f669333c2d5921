/**
 * "Related articles" under a post (spec: up to 2 on the post page, the function's default 3). Pure, so it
 * is tested on its own and the build picks the same posts every time.
 */

/** The parts of a post that decide relatedness. */
export interface Relatable {
  id: string;
  /** Category id, or null when uncategorized (uncategorized posts are not related by category). */
  categoryId: string | null;
  tags: readonly string[];
  /** ISO date; newer posts win ties. */
  date: string;
}

/**
 * Posts related to `post`: first those of the same category, then those sharing tags; within each group,
 * more shared tags first, then newer first. Posts with neither a category nor a tag in common are not
 * related. Tags compare case-insensitively.
 */
export function relatedPosts<T extends Relatable>(post: Relatable, candidates: readonly T[], limit = 3): T[] {
  const tags = new Set(post.tags.map((tag) => tag.toLowerCase()));
  const scored = candidates
    .filter((other) => other.id !== post.id)
    .map((other) => ({
      other,
      sameCategory: post.categoryId !== null && other.categoryId === post.categoryId,
      sharedTags: other.tags.filter((tag) => tags.has(tag.toLowerCase())).length,
    }))
    .filter(({ sameCategory, sharedTags }) => sameCategory || sharedTags > 0);
  scored.sort(
    (a, b) =>
      Number(b.sameCategory) - Number(a.sameCategory) ||
      b.sharedTags - a.sharedTags ||
      b.other.date.localeCompare(a.other.date),
  );
  return scored.slice(0, limit).map(({ other }) => other);
}
