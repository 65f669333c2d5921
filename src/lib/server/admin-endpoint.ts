/** The frame of the admin functions: body limit, zod validation, caller check, uniform `{ message }` errors. */
import { z } from 'zod';
import { withBackend } from './backend.ts';
import { HttpError, message, readJson, serverError } from './http.ts';
import { requireOrganizationRole, type AdminCaller, type RequiredRole } from './admin-caller.ts';
import { serviceClient } from './service-client.ts';
import { organizationSiteAddress } from './site-address.ts';

/** Largest body an admin function reads. */
export const ADMIN_REQUEST_MAX_BYTES = 16 * 1024;

/**
 * Runs `handle` for a POST whose JSON body matches `schema` (with `organization_id`) and whose caller is an
 * active admin (or, with `role: 'editor'`, editor or admin) of that organization; `siteUrl` is the
 * organization's site address for links in mails (site-address.ts, never the request's host). 400 invalid, 401/403
 * caller, 413 too large, 500 with a generic text and a reference (the details only in the log); 503 with
 * Retry-After while the backend is out of reach (withBackend).
 */
export async function adminEndpoint<T extends { organization_id: string }>(
  req: Request,
  schema: z.ZodType<T>,
  name: string,
  handle: (input: T, caller: AdminCaller, siteUrl: string) => Promise<Response>,
  { role = 'admin' }: { role?: RequiredRole } = {},
): Promise<Response> {
  return withBackend(async (request: Request) => {
    try {
      const parsed = schema.safeParse(await readJson(request, { maxBytes: ADMIN_REQUEST_MAX_BYTES }));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return message(400, issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'Invalid request.');
      }
      const caller = await requireOrganizationRole(request, parsed.data.organization_id, role);
      return await handle(parsed.data, caller, await organizationSiteAddress(serviceClient(), parsed.data.organization_id));
    } catch (error) {
      if (error instanceof HttpError) return message(error.status, error.message);
      return serverError(`${name} failed. Please try again.`, error);
    }
  })(req);
}
