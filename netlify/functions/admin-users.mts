import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { createStaffAccount } from '../../src/lib/server/staff-accounts.ts';
import { CreateUserSchema } from '../../src/schemas/user.ts';
import { adminEndpoint } from '../../src/lib/server/admin-endpoint.ts';
import { serviceClient } from '../../src/lib/server/service-client.ts';

const CreateUserRequestSchema = CreateUserSchema.extend({ organization_id: z.uuid() }).strict();

/**
 * POST /api/admin/users `{ organization_id, email, full_name, role, password, phone?, bio? }`: an active admin
 * of the organization creates a staff account there (email confirmed, reset mail to /auth). 201 `{ id, email }`;
 * 400 invalid, 401/403 caller, 409 email taken, 413 too large, 500 (nothing left behind).
 */
export default (req: Request) =>
  adminEndpoint(req, CreateUserRequestSchema, 'admin user creation', async (input, caller, siteUrl) => {
    try {
      const created = await createStaffAccount(serviceClient(), { admin: caller, organizationId: input.organization_id, siteUrl }, input);
      return Response.json(created, { status: 201 });
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if (/already (been )?registered|already exists/i.test(text)) {
        return Response.json({ message: `A user with the email ${input.email} already exists.` }, { status: 409 });
      }
      throw error;
    }
  });

export const config: Config = { path: '/api/admin/users', method: 'POST' };
