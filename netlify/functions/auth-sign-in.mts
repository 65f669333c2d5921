import type { Config, Context } from '@netlify/functions';
import { AUTH_MESSAGES } from '../../src/lib/auth-messages.ts';
import { clientInfoFrom } from '../../src/lib/server/login-attempts.ts';
import { signIn } from '../../src/lib/server/sign-in.ts';
import { AUTH_REQUEST_MAX_BYTES, SignInSchema } from '../../src/schemas/auth.ts';
import { answerNoSoonerThan, authEndpoint, lockedOutResponse, noticeResponse } from '../../src/lib/server/auth-responses.ts';
import { HttpError, readJson } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

/** Every refusal takes at least this long, longer than a password check, so timing reveals no account. */
export const REFUSAL_FLOOR_MS = 400;

/**
 * POST /api/auth/sign-in `{ email, password, area? }`: sign-in with attempt recording and lockout. Area
 * `admin` (default): 200 `{ title, message, session }` for an active admin, 403 for anyone else (the session is
 * ended). Area `blog`: 200 for any active member, 403 for an inactive account. Both: 401 bad credentials; 429 locked out; 400 malformed; 413 over 10 KB; 500 Auth unreachable.
 */
export default async (req: Request, context?: Pick<Context, 'ip'>) => {
  const startedAt = Date.now();
  try {
    const body = SignInSchema.safeParse(await readJson(req, { maxBytes: AUTH_REQUEST_MAX_BYTES }));
    if (!body.success) {
      return noticeResponse(400, { title: 'Invalid Request', description: body.error.issues[0]?.message ?? 'Email and password are required.' });
    }
    const client = clientInfoFrom(req.headers, context?.ip);
    const outcome = await signIn(serviceClient(), authEndpoint(), body.data, client);
    const blog = body.data.area === 'blog';
    if (outcome.kind === 'granted') {
      const { access_token, refresh_token, expires_at, expires_in, token_type } = outcome.session;
      return noticeResponse(200, blog ? AUTH_MESSAGES.blogGranted : AUTH_MESSAGES.granted, { session: { access_token, refresh_token, expires_at, expires_in, token_type } });
    }
    await answerNoSoonerThan(startedAt, REFUSAL_FLOOR_MS);
    switch (outcome.kind) {
      case 'denied':
        return noticeResponse(401, AUTH_MESSAGES.denied);
      case 'not-allowed':
        return noticeResponse(403, blog ? AUTH_MESSAGES.blogDenied : AUTH_MESSAGES.notAdmin);
      case 'locked':
        return lockedOutResponse(outcome.until);
    }
  } catch (error) {
    if (error instanceof HttpError) return noticeResponse(error.status, { title: 'Invalid Request', description: error.message });
    // Only the error's message: the request body (with the password) is never logged.
    console.error('sign-in failed:', error instanceof Error ? error.message : String(error));
    return noticeResponse(500, AUTH_MESSAGES.authError);
  }
};

export const config: Config = { path: '/api/auth/sign-in', method: 'POST' };
