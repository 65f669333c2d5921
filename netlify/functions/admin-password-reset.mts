import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { message } from '../../src/lib/server/http.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';
import { MemberNotFoundError, sendMemberPasswordReset } from '../../src/lib/server/staff-accounts.ts';
import { MemberPasswordResetSchema } from '../../src/schemas/user.ts';

const PasswordResetRequestSchema = MemberPasswordResetSchema.extend({ organization_id: z.uuid() }).strict();

/**
 * POST /api/admin/password-reset `{ organization_id, user_id }`: an active admin of the organization has a
 * password reset mail (link to `/auth`) sent to one of its members; logged `password_reset_by_admin`.
 * 200 `{ message }`; 400 invalid, 401/403 caller, 404 not a member of the organization, 413.
 */
export default (req: Request) =>
  adminEndpoint(req, PasswordResetRequestSchema, 'password reset', async (input, caller, siteUrl) => {
    try {
      const member = await sendMemberPasswordReset(serviceClient(), { admin: caller, organizationId: input.organization_id, siteUrl }, input.user_id);
      return Response.json({ message: `A password reset email was sent to ${member.email}.` });
    } catch (error) {
      if (error instanceof MemberNotFoundError) return message(404, error.message);
      throw error;
    }
  });

export const config: Config = { path: '/api/admin/password-reset', method: 'POST' };
