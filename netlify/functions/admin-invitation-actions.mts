import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { logServerActivity } from '../../src/lib/server/activity-log.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { message } from '../../src/lib/server/http.ts';
import { sendInvitationMail } from '../../src/lib/server/invitation-mail.ts';
import { INVITATION_VALID_DAYS, InvitationClosedError, resendInvitation, revokeInvitation } from '../../src/lib/server/invitations.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { InvitationActionSchema } from '../../src/schemas/user.ts';

const InvitationActionRequestSchema = InvitationActionSchema.extend({ organization_id: z.uuid() }).strict();

/**
 * POST /api/admin/invitation-actions `{ organization_id, invitation_id, action: 'resend' | 'revoke' }`: an
 * active admin of the organization acts on one of its open invitations.
 * - resend: a new link replaces the old one (which dies), valid 7 days from now, mailed again; logged
 *   `invitation_resent`. 200 `{ id, link, expires_at, mail, message }`.
 * - revoke: the link answers like an unknown one from now on; logged `invitation_revoked`. 200 `{ id, message }`.
 * 400 invalid, 401/403 caller, 409 accepted, revoked or not an invitation of the organization, 413.
 */
export default (req: Request) =>
  adminEndpoint(req, InvitationActionRequestSchema, 'invitation action', async (input, caller, siteUrl) => {
    const service = serviceClient();
    const scope = { organizationId: input.organization_id, invitationId: input.invitation_id };
    try {
      if (input.action === 'revoke') {
        const revoked = await revokeInvitation(service, scope);
        await logServerActivity(service, {
          userId: caller.id, organizationId: input.organization_id, action: 'invitation_revoked',
          details: { email: revoked.email, role: revoked.role }, resourceType: 'invitation', resourceId: revoked.id,
        });
        return Response.json({ id: revoked.id, message: `The invitation of ${revoked.email} was revoked.` });
      }
      const resent = await resendInvitation(service, { ...scope, siteUrl });
      await logServerActivity(service, {
        userId: caller.id, organizationId: input.organization_id, action: 'invitation_resent',
        details: { email: resent.email, role: resent.role, expires_at: resent.expiresAt }, resourceType: 'invitation', resourceId: resent.id,
      });
      const mail = await sendInvitationMail(resent.id, {
        to: resent.email, organizationName: resent.organizationName, role: resent.role, inviter: resent.inviter,
        link: resent.link, expiresAt: resent.expiresAt, validDays: INVITATION_VALID_DAYS,
      });
      const text = mail === 'sent'
        ? `Invitation emailed again to ${resent.email}. The new link is valid for ${INVITATION_VALID_DAYS} days; the old one no longer works.`
        : `A new link was made (the old one no longer works), but the email was not sent. Copy the link and send it to ${resent.email} yourself.`;
      return Response.json({ id: resent.id, link: resent.link, expires_at: resent.expiresAt, mail, message: text });
    } catch (error) {
      if (error instanceof InvitationClosedError) return message(409, 'This invitation was already accepted or revoked.');
      throw error;
    }
  });

export const config: Config = { path: '/api/admin/invitation-actions', method: 'POST' };
