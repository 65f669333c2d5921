import type { Config, Context } from '@netlify/functions';
import { AUTH_MESSAGES } from '../../src/lib/auth-messages.ts';
import { acceptInvitation } from '../../src/lib/server/invitations.ts';
import { clientInfoFrom } from '../../src/lib/server/login-attempts.ts';
import { AcceptInvitationSchema, AUTH_REQUEST_MAX_BYTES } from '../../src/schemas/auth.ts';
import { authEndpoint, lockedOutResponse, noticeResponse } from '../../src/lib/server/auth-responses.ts';
import { HttpError, readJson } from '../../src/lib/server/http.ts';
import { invitationProblemResponse } from '../../src/lib/server/invitation-responses.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/**
 * POST /api/invitations/accept `{ token, full_name?, password }`: a new address gets its account (email
 * confirmed) in the invitation's organization with its role; an address that has an account joins the
 * organization by giving that account's password. Either way the invitation is marked used and the person
 * signed in: 200 `{ session, role, organization }`. 404 unknown, 410 used or expired, 401 wrong password of
 * an existing account, 403 its account is inactive, 429 locked out, 400 malformed (or no name for a new account), 413 over 10 KB.
 */
export default withBackend(async (req: Request, context?: Pick<Context, 'ip'>) => {
  try {
    const body = AcceptInvitationSchema.safeParse(await readJson(req, { maxBytes: AUTH_REQUEST_MAX_BYTES }));
    if (!body.success) {
      return noticeResponse(400, { title: 'Invalid Request', description: body.error.issues[0]?.message ?? 'Name and password are required.' });
    }
    const outcome = await acceptInvitation(serviceClient(), authEndpoint(), body.data, clientInfoFrom(req.headers, context?.ip));
    switch (outcome.kind) {
      case 'name-required':
        return noticeResponse(400, { title: 'Invalid Request', description: 'Full name is required' });
      case 'wrong-password':
        return noticeResponse(401, AUTH_MESSAGES.invitationWrongPassword);
      case 'inactive':
        return noticeResponse(403, AUTH_MESSAGES.inactive);
      case 'locked':
        return lockedOutResponse(outcome.until);
      case 'unknown':
      case 'used':
      case 'expired':
        return invitationProblemResponse(outcome.kind);
    }
    const { access_token, refresh_token, expires_at, expires_in, token_type } = outcome.session;
    return Response.json({
      session: { access_token, refresh_token, expires_at, expires_in, token_type },
      role: outcome.role,
      organization: outcome.organization,
    });
  } catch (error) {
    if (error instanceof HttpError) return noticeResponse(error.status, { title: 'Invalid Request', description: error.message });
    console.error('invitation acceptance failed:', error instanceof Error ? error.message : String(error));
    return noticeResponse(500, { title: 'Error', description: 'Unable to accept the invitation. Please try again.' });
  }
});

export const config: Config = { path: '/api/invitations/accept', method: 'POST' };
