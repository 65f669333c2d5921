/** The activity log (`log_user_activity`): what users and admins did, for the audit screen. */
import type { SupabaseClient } from '@supabase/supabase-js';

/** Writes one entry for `userId` (the caller's own, or a member of an organization they administer). */
export async function logActivity(
  client: SupabaseClient,
  userId: string,
  action: string,
  details: Record<string, unknown> = {},
): Promise<void> {
  const { error } = await client.rpc('log_user_activity', { p_user_id: userId, p_action: action, p_details: details });
  if (error) throw new Error(`Logging ${action} for ${userId} failed: ${error.message}`);
}
