/** The activity log (`log_user_activity`): what the signed-in user did, for the audit screen. */
import type { SupabaseClient } from '@supabase/supabase-js';

/** Where an entry belongs and what it is about. */
export interface ActivityContext {
  details?: Record<string, unknown>;
  /** The organization it happened in; default the user's primary organization. */
  organizationId?: string;
  resourceType?: string;
  resourceId?: string;
}

/**
 * Logs one of the signed-in user's own actions: the database records the caller as the actor and accepts
 * only the actions the app logs, in an organization the user belongs to.
 */
export async function logActivity(client: SupabaseClient, action: string, context: ActivityContext = {}): Promise<void> {
  const { error } = await client.rpc('log_user_activity', {
    p_action: action,
    p_details: context.details ?? {},
    p_resource_type: context.resourceType ?? null,
    p_resource_id: context.resourceId ?? null,
    p_organization_id: context.organizationId ?? null,
  });
  if (error) throw new Error(`Logging ${action} failed: ${error.message}`);
}
