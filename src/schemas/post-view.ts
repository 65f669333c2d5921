// zod/mini, as the other function schemas: the function bundle stays small.
import * as z from 'zod/mini';

/** Largest request body `POST /api/post-view` reads. */
export const POST_VIEW_MAX_BYTES = 1024;

/** A view of a post page, as the page's script sends it. The organization is never part of it. */
export const PostViewRequestSchema = z.object({
  /** Id of the post whose page was viewed. */
  post_id: z.uuid({ error: 'post_id must be a post id.' }),
});
export type PostViewRequest = z.infer<typeof PostViewRequestSchema>;
