import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { createInvitation, INVITATION_VALID_DAYS, InvitationExistsError } from '../../src/lib/server/invitations.ts';
import { InvitationSchema } from '../../src/schemas/user.ts';
import { logServerActivity } from '../../src/lib/server/activity-log.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { message } from '../../src/lib/server/http.ts';
import { sendInvitationMail, type InvitationMailStatus } from '../../src/lib/server/invitation-mail.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

const InvitationRequestSchema = InvitationSchema.extend({ organization_id: z.uuid() }).strict();

export type { InvitationMailStatus };

/** What the dialog tells the admin, per mail outcome. */
export function invitationMailMessage(status: InvitationMailStatus, email: string): string {
  switch (status) {
    case 'sent':
      return `Invitation emailed to ${email}. The link is valid for ${INVITATION_VALID_DAYS} days.`;
    case 'not-configured':
      return `Invitation created, but email is not set up for this site, so no email was sent. Copy the link and send it to ${email} yourself.`;
    case 'failed':
      return `Invitation created, but the email could not be sent. Copy the link and send it to ${email} yourself.`;
  }
}

/**
 * POST /api/admin/invitations `{ organization_id, email, role }`: an active admin invites a person to the
 * organization. The invitation is stored and `user_invited` logged first, then mailed
 * (`src/lib/server/mailer.ts`); a mail that is not configured or fails does not undo it (the link works, and
 * a retry would only meet the pending invitation), the answer says so and carries the link for the admin to
 * pass on.
 * 201 `{ id, link, expires_at, mail: 'sent' | 'not-configured' | 'failed', message }`; 400, 401/403,
 * 409 pending invitation exists, 413.
 */
export default (req: Request) =>
  adminEndpoint(req, InvitationRequestSchema, 'invitation creation', async (input, caller, siteUrl) => {
    const service = serviceClient();
    let created;
    try {
      created = await createInvitation(service, { organizationId: input.organization_id, invitedBy: caller.id, siteUrl }, input);
    } catch (error) {
      if (error instanceof InvitationExistsError) return message(409, error.message);
      throw error;
    }
    await logServerActivity(service, {
      userId: caller.id,
      organizationId: input.organization_id,
      action: 'user_invited',
      details: { email: input.email.toLowerCase(), role: input.role, new_role: input.role, expires_at: created.expiresAt },
      resourceType: 'invitation',
      resourceId: created.id,
    });
    const mail = await sendInvitationMail(created.id, {
      to: input.email, organizationName: created.organizationName, role: input.role, inviter: created.inviter,
      link: created.link, expiresAt: created.expiresAt, validDays: INVITATION_VALID_DAYS,
    });
    return Response.json(
      { id: created.id, link: created.link, expires_at: created.expiresAt, mail, message: invitationMailMessage(mail, input.email) },
      { status: 201 },
    );
  });

export const config: Config = { path: '/api/admin/invitations', method: 'POST' };
