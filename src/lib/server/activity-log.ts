/**
 * What the server itself records in the activity log (service role): invitations (sent, resent, revoked,
 * accepted), accounts created by admins, password reset mails sent by admins. Signed-in users log their own actions through `log_user_activity` (src/lib/back-office/activity.ts); the
 * sign-in itself is logged by the database (finish_sign_in).
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** The actions the server logs (service role); the database logs role, status and profile edits itself. */
export type ServerAction =
  | 'invitation_accepted'
  | 'user_created_by_admin'
  | 'user_invited'
  | 'invitation_resent'
  | 'invitation_revoked'
  | 'password_reset_by_admin';

/** One server-side activity entry. */
export interface ServerActivity {
  /** Who did it (the actor). */
  userId: string;
  /** The organization it happened in (the admin scope of the audit log). */
  organizationId: string;
  action: ServerAction;
  details?: Record<string, unknown>;
  resourceType?: string;
  resourceId?: string;
}

/** Writes the entry; throws with context when the database refuses it. */
export async function logServerActivity(service: SupabaseClient, entry: ServerActivity): Promise<void> {
  const { error } = await service.from('user_activity_logs').insert({
    user_id: entry.userId,
    organization_id: entry.organizationId,
    action: entry.action,
    details: entry.details ?? {},
    resource_type: entry.resourceType ?? null,
    resource_id: entry.resourceId ?? null,
  });
  if (error) throw new Error(`Logging ${entry.action} for ${entry.userId} failed: ${error.message}`);
}
