/** "Its 2 posts move to X" or "Its post moves to X"; null without posts. */
export const postsMoveTo = (count: number, where: string) =>
  count === 0 ? null : `${count === 1 ? 'Its post moves' : `Its ${count} posts move`} to ${where}`;
