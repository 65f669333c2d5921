/**
 * "Related articles" under a post (up to 2 on the post page, the function's default 3). Pure, so it
 * is tested on its own and the build picks the same posts every time.
 *
 * The build asks for every post's related posts, so the work for one post must not grow with the blog (at
 * 10,000 posts, scoring and sorting every other post for every page made the build quadratic). An index is
 * built once per list of candidates (kept while that array lives: candidate lists are never changed once
 * built): posts by category and by tag. An answer then costs the posts that share a tag or the category,
 * counted in a typed array, and a top-k pick instead of a sort; posts alike in category and tags share it.
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

interface Index<T extends Relatable> {
  candidates: readonly T[];
  /** Each candidate's place when sorted newest first (equal dates keep the candidates' order). */
  rank: Int32Array;
  /** Positions in `candidates` of each category's posts, newest first. */
  byCategory: Map<string, number[]>;
  /** Positions of the posts carrying each lowercased tag, once per occurrence (a tag written twice counts twice). */
  byTag: Map<string, number[]>;
  /** Shared-tag counts of the post being answered; back to zeros after each answer. */
  shared: Int32Array;
  /** The most tags a candidate has: no shared-tag count reaches past it. */
  maxTags: number;
  /**
   * Answers by what decides them (category, tags, limit): posts alike in those get the same ranking, less
   * themselves, so it is worked out once, one longer to leave room for dropping the post itself.
   */
  answers: Map<string, number[]>;
}

const indexes = new WeakMap<readonly Relatable[], Index<Relatable>>();

function indexOf<T extends Relatable>(candidates: readonly T[]): Index<T> {
  let index = indexes.get(candidates) as Index<T> | undefined;
  if (index) return index;
  const rank = new Int32Array(candidates.length);
  const newest = candidates.map((_, position) => position).sort((a, b) => candidates[b]!.date.localeCompare(candidates[a]!.date) || a - b);
  newest.forEach((position, place) => (rank[position] = place));
  const byCategory = new Map<string, number[]>();
  const byTag = new Map<string, number[]>();
  const push = (map: Map<string, number[]>, key: string, position: number) => {
    const list = map.get(key);
    if (list) list.push(position);
    else map.set(key, [position]);
  };
  for (const position of newest) {
    const category = candidates[position]!.categoryId;
    if (category !== null) push(byCategory, category, position);
  }
  candidates.forEach((post, position) => {
    for (const tag of post.tags) push(byTag, tag.toLowerCase(), position);
  });
  index = {
    candidates,
    rank,
    byCategory,
    byTag,
    shared: new Int32Array(candidates.length),
    maxTags: candidates.reduce((most, post) => Math.max(most, post.tags.length), 0),
    answers: new Map(),
  };
  indexes.set(candidates, index as Index<Relatable>);
  return index;
}

/**
 * Posts related to `post`: first those of the same category, then those sharing tags; within each group,
 * more shared tags first, then newer first (equal dates keep the candidates' order). Posts with neither a
 * category nor a tag in common are not related. Tags compare case-insensitively.
 */
export function relatedPosts<T extends Relatable>(post: Relatable, candidates: readonly T[], limit = 3): T[] {
  if (limit <= 0) return [];
  const index = indexOf(candidates);
  const tags = [...new Set(post.tags.map((tag) => tag.toLowerCase()))].sort();
  const key = JSON.stringify([post.categoryId, limit, tags]);
  let ranked = index.answers.get(key);
  if (!ranked) index.answers.set(key, (ranked = bestPositions(index, post.categoryId, tags, limit + 1)));
  return ranked.filter((position) => candidates[position]!.id !== post.id).slice(0, limit).map((position) => candidates[position]!);
}

/** The positions of the best `limit` candidates for a post of `category` with these distinct lowercased `tags`. */
function bestPositions(index: Index<Relatable>, category: string | null, tags: readonly string[], limit: number): number[] {
  const { candidates, rank, byCategory, byTag, shared, maxTags } = index;
  const touched: number[] = [];
  for (const tag of tags) {
    for (const position of byTag.get(tag) ?? []) {
      if (shared[position] === 0) touched.push(position);
      shared[position] = shared[position]! + 1;
    }
  }
  // A candidate's score as one number: same category, then shared tags, then newer (a lower rank).
  const span = candidates.length + 1;
  const score = (position: number) =>
    ((category !== null && candidates[position]!.categoryId === category ? 1 : 0) * (maxTags + 1) + shared[position]!) * span - rank[position]!;

  const best: { position: number; score: number }[] = [];
  const consider = (position: number) => {
    const value = score(position);
    if (best.length === limit && value <= best[limit - 1]!.score) return;
    let at = best.length;
    while (at > 0 && value > best[at - 1]!.score) at -= 1;
    best.splice(at, 0, { position, score: value });
    if (best.length > limit) best.pop();
  };
  for (const position of touched) consider(position);
  // Same-category posts sharing no tag: only the newest `limit` of them can make the list.
  let taken = 0;
  for (const position of category === null ? [] : (byCategory.get(category) ?? [])) {
    if (taken === limit) break;
    if (shared[position] !== 0) continue;
    consider(position);
    taken += 1;
  }
  for (const position of touched) shared[position] = 0;
  return best.map(({ position }) => position);
}
