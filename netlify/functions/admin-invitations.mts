import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { createInvitation, InvitationExistsError } from '../../src/lib/invitations.ts';
import { InvitationSchema } from '../../src/schemas/user.ts';
import { adminEndpoint } from './_shared/admin-endpoint.ts';
import { message } from './_shared/http.ts';
import { serviceClient } from './_shared/supabase.ts';

const InvitationRequestSchema = InvitationSchema.extend({ organization_id: z.uuid() }).strict();

/**
 * POST /api/admin/invitations `{ organization_id, email, role }`: an active admin invites a person to the
 * organization. 201 `{ id, link, expires_at }` (the admin passes the link on); 400, 401/403, 409 pending
 * invitation exists, 413.
 */
export default (req: Request) =>
  adminEndpoint(req, InvitationRequestSchema, 'invitation creation', async (input, caller, siteUrl) => {
    try {
      const created = await createInvitation(serviceClient(), { organizationId: input.organization_id, invitedBy: caller.id, siteUrl }, input);
      return Response.json({ id: created.id, link: created.link, expires_at: created.expiresAt }, { status: 201 });
    } catch (error) {
      if (error instanceof InvitationExistsError) return message(409, error.message);
      throw error;
    }
  });

export const config: Config = { path: '/api/admin/invitations', method: 'POST' };
