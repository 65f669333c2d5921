import type { Config, Context } from '@netlify/functions';
import { AUTH_MESSAGES } from '../../src/lib/auth-messages.ts';
import { clientInfoFrom } from '../../src/lib/server/login-attempts.ts';
import { signIn } from '../../src/lib/server/sign-in.ts';
import { AUTH_REQUEST_MAX_BYTES, SignInSchema } from '../../src/schemas/auth.ts';
import { answerNoSoonerThan, authEndpoint, lockedOutResponse, noticeResponse } from '../../src/lib/server/auth-responses.ts';
import { HttpError, readJson } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/** Every refusal takes at least this long, longer than a password check, so timing reveals no account. */
export const REFUSAL_FLOOR_MS = 400;

/**
 * POST /api/auth/sign-in `{ email, password }`: sign-in with attempt recording and lockout. 200 `{ session }`
 * for an active account with an active membership (the browser picks the landing page from the role); 403
 * `{ title, message }` for a deactivated account or one without an active membership (the session is ended);
 * 401 bad credentials; 429 locked out; 400 malformed; 413 over 10 KB; 503 with Retry-After while the backend is
 * out of reach (withBackend); 500 another failure.
 */
export default withBackend(async (req: Request, context?: Pick<Context, 'ip'>) => {
  const startedAt = Date.now();
  try {
    const body = SignInSchema.safeParse(await readJson(req, { maxBytes: AUTH_REQUEST_MAX_BYTES }));
    if (!body.success) {
      return noticeResponse(400, { title: 'Invalid Request', description: body.error.issues[0]?.message ?? 'Email and password are required.' });
    }
    const client = clientInfoFrom(req.headers, context?.ip);
    const outcome = await signIn(serviceClient(), authEndpoint(), body.data, client);
    if (outcome.kind === 'granted') {
      const { access_token, refresh_token, expires_at, expires_in, token_type } = outcome.session;
      return Response.json({ session: { access_token, refresh_token, expires_at, expires_in, token_type } });
    }
    await answerNoSoonerThan(startedAt, REFUSAL_FLOOR_MS);
    switch (outcome.kind) {
      case 'denied':
        return noticeResponse(401, AUTH_MESSAGES.denied);
      case 'inactive':
        return noticeResponse(403, AUTH_MESSAGES.inactive);
      case 'no-organization':
        return noticeResponse(403, AUTH_MESSAGES.noOrganization);
      case 'locked':
        return lockedOutResponse(outcome.until);
    }
  } catch (error) {
    if (error instanceof HttpError) return noticeResponse(error.status, { title: 'Invalid Request', description: error.message });
    // Only the error's message: the request body (with the password) is never logged.
    console.error('sign-in failed:', error instanceof Error ? error.message : String(error));
    return noticeResponse(500, AUTH_MESSAGES.authError);
  }
});

export const config: Config = { path: '/api/auth/sign-in', method: 'POST' };
