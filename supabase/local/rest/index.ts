/**
 * PLACEHOLDER for the PostgREST-compatible handler, which lives on branch backend-rest (helper B). When
 * that branch is merged, its `rest/index.ts` replaces this file: same export, same signature. Until then
 * every `/rest/v1` request answers 503 so nothing pretends the REST API exists.
 */
import type pg from 'pg';
import type { RequestAuth } from '../request-auth.ts';

/** The REST handler the server mounts under `/rest/v1`. */
export function createRestHandler(_pool: pg.Pool): { handle(req: Request, auth: RequestAuth): Promise<Response>; close(): Promise<void> } {
  return {
    async handle() {
      return Response.json(
        { code: 'PGRST002', details: null, hint: 'supabase/local/rest is a placeholder until the REST handler is merged', message: 'The REST API is not available in this build' },
        { status: 503 },
      );
    },
    async close() {},
  };
}
