import type { Config, Context } from '@netlify/functions';
import { HttpError, message, readJson, serverError } from '../../src/lib/server/http.ts';
import { countPostView, skipReason, visitorAddress } from '../../src/lib/server/post-views.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { siteOrganizationId } from '../../src/lib/server/site-organization.ts';
import { POST_VIEW_MAX_BYTES, PostViewRequestSchema } from '../../src/schemas/post-view.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/** Seconds until the current hourly rate window ends. */
const secondsToNextHour = () => 3600 - Math.floor(Date.now() / 1000) % 3600;

/**
 * POST /api/post-view `{ post_id }`: counts a view of a post page of this site (src/lib/server/post-views.ts).
 * 200 `{ counted }` (false: this address was already counted today for this post); 204 for bots and
 * prefetches, nothing written; 404 when the id is no published post of this site's organization; 429 over the
 * hourly limits; 400 malformed; 415 not JSON; 413 over 1 KB.
 */
export default withBackend(async (req: Request, context?: Pick<Context, 'ip'>) => {
  try {
    if (skipReason(req.headers)) return new Response(null, { status: 204 });
    if (!/^application\/json\b/i.test(req.headers.get('content-type') ?? '')) return message(415, 'Send the view as JSON.');
    const body = PostViewRequestSchema.safeParse(await readJson(req, { maxBytes: POST_VIEW_MAX_BYTES }));
    if (!body.success) return message(400, body.error.issues[0]?.message ?? 'Invalid view.');
    const organizationId = await siteOrganizationId();
    if (!organizationId) return message(404, 'No such post on this site.');
    switch (await countPostView(serviceClient(), organizationId, body.data.post_id, visitorAddress(req.headers, context?.ip))) {
      case 'counted':
        return Response.json({ counted: true });
      case 'duplicate':
        return Response.json({ counted: false });
      case 'not_found':
        return message(404, 'No such post on this site.');
      case 'rate_limited':
        return Response.json({ message: 'Too many views from this address. Try again later.' }, { status: 429, headers: { 'retry-after': String(secondsToNextHour()) } });
    }
  } catch (error) {
    if (error instanceof HttpError) return message(error.status, error.message);
    return serverError('Counting the view failed.', error);
  }
});

export const config: Config = { path: '/api/post-view', method: 'POST' };
