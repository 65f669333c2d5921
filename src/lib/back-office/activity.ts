/** The activity log (`log_user_activity`): what the signed-in user did, for the audit screen. */
import type { SupabaseClient } from '@supabase/supabase-js';

/** The actions a signed-in user logs themselves; the database logs everything else. */
export type ClientActivity = 'admin_logout' | 'password_changed';

/**
 * Logs one of the signed-in user's own actions: the database records the caller as the actor, writes the
 * details itself (when, and how) and accepts only these actions, in an organization the user belongs to
 * (`organizationId`; default the user's primary organization).
 */
export async function logActivity(client: SupabaseClient, action: ClientActivity, organizationId?: string): Promise<void> {
  const { error } = await client.rpc('log_user_activity', { p_action: action, p_organization_id: organizationId ?? null });
  if (error) throw new Error(`Logging ${action} failed: ${error.message}`);
}
