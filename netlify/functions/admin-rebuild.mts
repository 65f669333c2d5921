import type { Config } from '@netlify/functions';
import { RebuildRequestSchema } from '../../src/schemas/organization.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { HttpError } from '../../src/lib/server/http.ts';
import { requestRebuild } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

/** Why the build runs, in the request list and Netlify's deploy list. */
const RETRY_REASON = 'Rebuild requested by an admin';

/**
 * POST /api/admin/rebuild `{ organization_id }` with the caller's bearer token: an active admin of the
 * organization builds the site now (the header's Retry after a failed build, or Build now while the budget holds
 * builds back). Changes request their rebuilds themselves, in the database; this is only the explicit build, so
 * it skips the quiet window and the budget's pace (it costs a deploy's credits): the request and everything
 * pending are sent at once (unless a build is running, which then takes them next).
 * Answers 202 `{ request_id, started }`.
 */
export default (req: Request): Promise<Response> =>
  adminEndpoint(
    req,
    RebuildRequestSchema,
    'Rebuild request',
    async ({ organization_id }) => {
      const client = serviceClient();
      const { data: org, error } = await client.from('organizations').select('id, slug').eq('id', organization_id).maybeSingle();
      if (error) throw new Error(`Organization ${organization_id} lookup failed: ${error.message}`);
      if (!org) throw new HttpError(404, `No organization ${organization_id}`);
      const { requestId, flushed } = await requestRebuild(client, org as { id: string; slug: string }, RETRY_REASON, { ...process.env, REBUILD_QUIET_WINDOW_MS: '0' }, { manual: true });
      return Response.json({ message: 'Rebuild requested', request_id: requestId, started: flushed.length > 0 }, { status: 202 });
    },
  );

export const config: Config = { path: '/api/admin/rebuild', method: 'POST' };
