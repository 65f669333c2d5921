/**
 * Creating a staff account (run by `netlify/functions/admin-users.mts` with the service client, after the
 * caller was verified as an admin of the organization).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { CreateUser } from '../../schemas/user.ts';
import { logServerActivity } from './activity-log.ts';

/**
 * The create-user sequence, with the service client: the account (email confirmed, placed in the
 * organization with its role through app metadata), the profile details, the `user_created_by_admin` log
 * entry, then the password reset mail pointing at `{siteUrl}/auth`. Any failure after the account exists
 * deletes it again, so nothing is left half-created.
 */
export async function createStaffAccount(
  service: SupabaseClient,
  { admin, organizationId, siteUrl }: { admin: { id: string }; organizationId: string; siteUrl: string },
  input: CreateUser,
): Promise<{ id: string; email: string }> {
  const { data, error } = await service.auth.admin.createUser({
    email: input.email,
    password: input.password,
    email_confirm: true,
    user_metadata: { full_name: input.full_name },
    app_metadata: { organization_id: organizationId, role: input.role },
  });
  if (error || !data.user) throw new Error(error?.message ?? 'Failed to create user.');
  const id = data.user.id;
  try {
    const { error: profileError } = await service
      .from('profiles')
      .update({ full_name: input.full_name, role: input.role, bio: input.bio ?? null, phone: input.phone ?? null, organization_id: organizationId })
      .eq('id', id);
    if (profileError) throw new Error(`Saving the profile failed: ${profileError.message}`);
    await logServerActivity(service, {
      userId: admin.id,
      organizationId,
      action: 'user_created_by_admin',
      details: { created_user_id: id, created_user_email: input.email, email: input.email, full_name: input.full_name, role: input.role, new_role: input.role },
      resourceType: 'user',
      resourceId: id,
    });
    const { error: mailError } = await service.auth.resetPasswordForEmail(input.email, { redirectTo: `${siteUrl}/auth` });
    if (mailError) throw new Error(`Sending the password reset mail failed: ${mailError.message}`);
  } catch (stepError) {
    const { error: deleteError } = await service.auth.admin.deleteUser(id);
    if (deleteError) console.error(`Removing the half-created user ${id} failed: ${deleteError.message}`);
    throw stepError;
  }
  return { id, email: input.email };
}

/** Thrown when the user is not an active member of the organization. */
export class MemberNotFoundError extends Error {
  constructor() {
    super('This person is not an active member of the organization.');
  }
}

/**
 * An admin's password reset for a member (service client, after the caller was verified as an admin of the
 * organization): the member must be active in that organization (a member it deactivated is out of its
 * reach, even while active elsewhere); Supabase Auth mails the recovery link to
 * `{siteUrl}/auth`, then `password_reset_by_admin` is logged.
 */
export async function sendMemberPasswordReset(
  service: SupabaseClient,
  { admin, organizationId, siteUrl }: { admin: { id: string }; organizationId: string; siteUrl: string },
  userId: string,
): Promise<{ id: string; email: string }> {
  const { data, error } = await service
    .from('organization_members')
    .select('id, email, full_name')
    .eq('organization_id', organizationId)
    .eq('id', userId)
    .eq('is_active', true)
    .maybeSingle<{ id: string; email: string; full_name: string | null }>();
  if (error) throw new Error(`Reading member ${userId} of ${organizationId} failed: ${error.message}`);
  if (!data) throw new MemberNotFoundError();
  const { error: mailError } = await service.auth.resetPasswordForEmail(data.email, { redirectTo: `${siteUrl}/auth` });
  if (mailError) throw new Error(`Sending the password reset mail to ${userId} failed: ${mailError.message}`);
  await logServerActivity(service, {
    userId: admin.id,
    organizationId,
    action: 'password_reset_by_admin',
    details: { email: data.email, full_name: data.full_name },
    resourceType: 'user',
    resourceId: data.id,
  });
  return { id: data.id, email: data.email };
}
