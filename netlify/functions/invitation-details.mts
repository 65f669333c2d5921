import type { Config } from '@netlify/functions';
import { findInvitation } from '../../src/lib/server/invitations.ts';
import { InvitationTokenSchema } from '../../src/schemas/auth.ts';
import { noticeResponse } from '../../src/lib/server/auth-responses.ts';
import { invitationProblemResponse } from '../../src/lib/server/invitation-responses.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { withBackend } from '../../src/lib/server/backend.ts';

/**
 * GET /api/invitations/{token}: who invited the person, to which organization and with which role. Answers
 * only for a valid, unused, unexpired token (200); otherwise 404 unknown or 410 used / expired, with no data.
 */
export default withBackend(async (req: Request) => {
  try {
    const raw = decodeURIComponent(new URL(req.url).pathname.split('/').pop() ?? '');
    const token = InvitationTokenSchema.safeParse(raw);
    if (!token.success) return invitationProblemResponse('unknown');
    const found = await findInvitation(serviceClient(), token.data);
    if (found.kind !== 'valid') return invitationProblemResponse(found.kind);
    return Response.json({ invitation: found.invitation }, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    console.error('invitation lookup failed:', error instanceof Error ? error.message : String(error));
    return noticeResponse(500, { title: 'Error', description: 'Unable to check the invitation. Please try again.' });
  }
});

export const config: Config = { path: '/api/invitations/:token', method: 'GET' };

