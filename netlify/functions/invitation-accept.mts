import type { Config, Context } from '@netlify/functions';
import { AUTH_MESSAGES } from '../../src/lib/auth-messages.ts';
import { acceptInvitation } from '../../src/lib/server/invitations.ts';
import { clientInfoFrom } from '../../src/lib/server/login-attempts.ts';
import { AcceptInvitationSchema, AUTH_REQUEST_MAX_BYTES } from '../../src/schemas/auth.ts';
import { authEndpoint, noticeResponse } from '../../src/lib/server/auth-responses.ts';
import { HttpError, readJson } from '../../src/lib/server/http.ts';
import { invitationProblemResponse } from '../../src/lib/server/invitation-responses.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

/**
 * POST /api/invitations/accept `{ token, full_name, password }`: creates the invited account (email
 * confirmed) in the invitation's organization with its role, marks the invitation used, and answers 200
 * `{ session, role, organization }`. 404 unknown, 410 used or expired, 409 account exists, 400 malformed,
 * 413 over 10 KB.
 */
export default async (req: Request, context?: Pick<Context, 'ip'>) => {
  try {
    const body = AcceptInvitationSchema.safeParse(await readJson(req, { maxBytes: AUTH_REQUEST_MAX_BYTES }));
    if (!body.success) {
      return noticeResponse(400, { title: 'Invalid Request', description: body.error.issues[0]?.message ?? 'Name and password are required.' });
    }
    const outcome = await acceptInvitation(serviceClient(), authEndpoint(), body.data, clientInfoFrom(req.headers, context?.ip));
    if (outcome.kind === 'account-exists') return noticeResponse(409, AUTH_MESSAGES.invitationAccountExists);
    if (outcome.kind !== 'accepted') return invitationProblemResponse(outcome.kind);
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
};

export const config: Config = { path: '/api/invitations/accept', method: 'POST' };
