import type { Config } from '@netlify/functions';
import { createClient } from '@supabase/supabase-js';
import { z } from 'zod';
import { publicSupabaseConfig, serviceSupabaseConfig } from '../../src/lib/supabase-config.ts';
import { HttpError, message, readJson } from './_shared/http.ts';
import { requestRebuild } from './_shared/rebuilds.ts';
import { serviceClient } from './_shared/supabase.ts';

const RebuildRequestSchema = z.object({
  organization_id: z.uuid(),
  reason: z.string().trim().min(1, 'A reason is required').max(200),
});

/** Bodies are a uuid and a short reason: anything bigger is not a real request. */
const MAX_BODY_BYTES = 4096;

/**
 * POST /api/admin/rebuild `{ organization_id, reason }` with the caller's bearer token: records a rebuild
 * request for the organization's site (coalesced and sent by `requestRebuild`). Only an active editor or
 * admin of that organization may ask; the check runs as the caller (`is_org_editor`, which also requires an
 * active profile and a live session), the insert with the service client.
 */
export default async (req: Request) => {
  try {
    const token = req.headers.get('authorization')?.match(/^Bearer\s+(\S+)$/i)?.[1];
    if (!token) throw new HttpError(401, 'You must be logged in to request a rebuild.');
    const parsed = RebuildRequestSchema.safeParse(await readJson(req, { maxBytes: MAX_BODY_BYTES }));
    if (!parsed.success) throw new HttpError(400, `Invalid rebuild request: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
    const { organization_id: organizationId, reason } = parsed.data;

    const caller = createClient(serviceSupabaseConfig().url, publicSupabaseConfig(process.env).anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: { headers: { Authorization: `Bearer ${token}` } },
    });
    const { data: allowed, error: roleError } = await caller.rpc('is_org_editor', { org: organizationId });
    if (roleError) {
      if (roleError.code === 'PGRST301' || /jwt/i.test(roleError.message)) throw new HttpError(401, 'Your session has expired. Please log in again.');
      throw new Error(`Checking the caller's role failed: ${roleError.message}`);
    }
    if (allowed !== true) throw new HttpError(403, 'Only editors and admins of this organization can request a rebuild.');

    const service = serviceClient();
    const { data: org, error: orgError } = await service.from('organizations').select('id, slug').eq('id', organizationId).single();
    if (orgError) throw new Error(`Reading organization ${organizationId} failed: ${orgError.message}`);
    const { requestId } = await requestRebuild(service, org, reason);
    return Response.json({ message: 'Rebuild requested', request_id: requestId }, { status: 202 });
  } catch (error) {
    if (error instanceof HttpError) return message(error.status, error.message);
    console.error('admin rebuild request failed:', error instanceof Error ? error.message : String(error));
    return message(500, 'The rebuild request failed. Please try again.');
  }
};

export const config: Config = { path: '/api/admin/rebuild', method: 'POST' };
