import type { Config } from '@netlify/functions';
import { RebuildRequestSchema } from '../../src/schemas/organization.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { flushDueRebuilds } from '../../src/lib/server/rebuilds.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

/**
 * POST /api/admin/send-due-rebuilds `{ organization_id }` with the caller's bearer token: an active editor or
 * admin of the organization sends its rebuild requests that are already due, right after a change (the
 * database recorded the request in the change's own transaction). It asks for nothing new: Postgres decides
 * what is due (claim_due_site_rebuilds: a lone change at once, a burst after its quiet window), so calling it
 * twice, or for an organization with nothing pending, starts nothing. Without it the scheduler sends the same
 * requests within a minute. Answers 202 `{ started }`.
 */
export default (req: Request): Promise<Response> =>
  adminEndpoint(
    req,
    RebuildRequestSchema,
    'Sending due rebuilds',
    async ({ organization_id }) => {
      const flushed = await flushDueRebuilds(serviceClient(), { organizationId: organization_id });
      return Response.json({ message: flushed.length > 0 ? 'Build started' : 'Nothing due', started: flushed.length > 0 }, { status: 202 });
    },
    { role: 'editor' },
  );

export const config: Config = { path: '/api/admin/send-due-rebuilds', method: 'POST' };
