/** "1 post", "3 posts". */
export const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`;

/** "Its 2 posts move to X" or "Its post moves to X"; null without posts. */
export const postsMoveTo = (count: number, where: string) =>
  count === 0 ? null : `${count === 1 ? 'Its post moves' : `Its ${count} posts move`} to ${where}`;
