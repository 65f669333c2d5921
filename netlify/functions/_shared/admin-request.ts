/**
 * The frame every admin function shares: POST only, a small JSON body validated with zod, the caller
 * confirmed as an active admin of the organization the body names, errors answered as `{ message }`.
 */
import type { z } from 'zod';
import { requireOrganizationAdmin } from './admin-caller.ts';
import { HttpError, message, readJson } from './http.ts';
import type { User } from '@supabase/supabase-js';

/** Admin requests are small forms; anything larger is refused before it is parsed. */
export const ADMIN_REQUEST_MAX_BYTES = 256 * 1024;

/**
 * Runs `handle` for a POST whose body matches `schema` (400 with the first problem otherwise) from an
 * active admin of `body.organization_id` (401 / 403 otherwise). HttpErrors become their status; anything
 * else a 500 naming `what` failed.
 */
export async function handleAdminRequest<S extends z.ZodType<{ organization_id: string }>>(
  req: Request,
  what: string,
  schema: S,
  handle: (body: z.output<S>, caller: User) => Promise<Response>,
): Promise<Response> {
  if (req.method !== 'POST') return new Response(JSON.stringify({ message: `Method ${req.method} not allowed` }), { status: 405, headers: { Allow: 'POST', 'Content-Type': 'application/json' } });
  try {
    const parsed = schema.safeParse(await readJson(req, { maxBytes: ADMIN_REQUEST_MAX_BYTES }));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(400, `Invalid request: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
    }
    const caller = await requireOrganizationAdmin(req, parsed.data.organization_id);
    return await handle(parsed.data, caller);
  } catch (error) {
    if (error instanceof HttpError) return message(error.status, error.message);
    console.error(`${what}:`, error);
    return message(500, `${what} failed: ${(error as Error).message}`);
  }
}
