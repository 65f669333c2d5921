import type { Config } from '@netlify/functions';
import { AUTH_MESSAGES } from '../../src/lib/auth-messages.ts';
import { noticeResponse } from '../../src/lib/server/auth-responses.ts';
import { HttpError, readJson } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { endSession } from '../../src/lib/server/sign-in.ts';
import { AUTH_REQUEST_MAX_BYTES, SignOutSchema } from '../../src/schemas/auth.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/**
 * POST /api/auth/sign-out `{ access_token }`: ends the session the token belongs to, for a browser that was
 * handed a session (sign-in, invitation) and could not take it up, so no session is left open that nobody
 * holds. Same origin as the sign-in, so it works when the browser cannot reach Supabase Auth itself. 204
 * whether or not the session was still open (a token ends only its own session: nothing to learn, nothing to
 * gain); 400 malformed; 413 over 10 KB; 503 with Retry-After while the backend is out of reach.
 */
export default withBackend(async (req: Request) => {
  try {
    const body = SignOutSchema.safeParse(await readJson(req, { maxBytes: AUTH_REQUEST_MAX_BYTES }));
    if (!body.success) {
      return noticeResponse(400, { title: 'Invalid Request', description: body.error.issues[0]?.message ?? 'An access token is required.' });
    }
    await endSession(serviceClient(), body.data.access_token);
    return new Response(null, { status: 204 });
  } catch (error) {
    if (error instanceof HttpError) return noticeResponse(error.status, { title: 'Invalid Request', description: error.message });
    console.error('sign-out failed:', error instanceof Error ? error.message : String(error));
    return noticeResponse(500, AUTH_MESSAGES.authError);
  }
});

export const config: Config = { path: '/api/auth/sign-out', method: 'POST' };
