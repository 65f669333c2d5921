import type { Config } from '@netlify/functions';
import { RebuildRequestSchema } from '../../src/schemas/organization.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { HttpError } from '../../src/lib/server/http.ts';
import { requestRebuild } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

/**
 * POST /api/admin/rebuild `{ organization_id, reason? }` with the caller's bearer token: an active editor or
 * admin of the organization asks for a new build of its site (after publishing, editing or deleting a public
 * post, or saving settings). Answers 202 `{ request_id }`; requests coalesce as `requestRebuild` describes.
 */
export default (req: Request): Promise<Response> =>
  adminEndpoint(
    req,
    RebuildRequestSchema,
    'Rebuild request',
    async ({ organization_id, reason }) => {
      const client = serviceClient();
      const { data: org, error } = await client.from('organizations').select('id, slug').eq('id', organization_id).maybeSingle();
      if (error) throw new Error(`Organization ${organization_id} lookup failed: ${error.message}`);
      if (!org) throw new HttpError(404, `No organization ${organization_id}`);
      const { requestId } = await requestRebuild(client, org as { id: string; slug: string }, reason);
      return Response.json({ message: 'Rebuild requested', request_id: requestId }, { status: 202 });
    },
    { role: 'editor' },
  );

export const config: Config = { path: '/api/admin/rebuild', method: 'POST' };
