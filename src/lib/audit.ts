/**
 * The Security Audit Log: the organization's activity entries (with the acting user's email and name) and
 * the login attempts the admin may read (RLS decides), newest first in pages of 100 and 50; the JSON and
 * CSV exports built in the browser; the action badge styles of spec back-office 9.
 */
import type { SupabaseClient } from '@supabase/supabase-js';

/** Page sizes of spec back-office 9. */
export const ACTIVITY_PAGE = 100;
export const LOGIN_PAGE = 50;

/** One activity entry with its user. */
export interface AuditActivity {
  id: string;
  user_id: string | null;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  details: Record<string, unknown>;
  created_at: string;
  profiles: { email: string; full_name: string | null } | null;
}

/** One sign-in attempt. */
export interface LoginAttempt {
  id: string;
  email: string;
  success: boolean;
  failure_reason: string | null;
  ip_address: string | null;
  created_at: string;
}

/** The newest `limit` activities of the organization, with the acting profile inner-joined. */
export async function listActivities(client: SupabaseClient, organizationId: string, limit = ACTIVITY_PAGE): Promise<AuditActivity[]> {
  const { data, error } = await client
    .from('user_activity_logs')
    .select('id, user_id, action, resource_type, resource_id, details, created_at, profiles!inner(email, full_name)')
    .eq('organization_id', organizationId)
    .order('created_at', { ascending: false })
    .limit(limit);
  if (error) throw new Error(`Failed to fetch audit logs: ${error.message}`);
  return data as unknown as AuditActivity[];
}

/** The newest `limit` login attempts visible to the admin. */
export async function listLoginAttempts(client: SupabaseClient, limit = LOGIN_PAGE): Promise<LoginAttempt[]> {
  const { data, error } = await client
    .from('login_attempts')
    .select('id, email, success, failure_reason, ip_address, created_at')
    .order('created_at', { ascending: false })
    .limit(limit);
  if (error) throw new Error(`Failed to fetch audit logs: ${error.message}`);
  return data as LoginAttempt[];
}

/** Badge style of an action: login/access default; delete/deactivated destructive; created/activated default; updated/modified secondary; else outline. */
export function actionBadgeVariant(action: string): 'default' | 'destructive' | 'secondary' | 'outline' {
  if (/login|access/.test(action)) return 'default';
  if (/delete|deactivated/.test(action)) return 'destructive';
  if (/created|activated/.test(action)) return 'default';
  if (/updated|modified/.test(action)) return 'secondary';
  return 'outline';
}

/** The four cards; Active Users counts distinct users among the loaded activities. */
export function auditStats(activities: readonly AuditActivity[], logins: readonly LoginAttempt[]) {
  return {
    totalActivities: activities.length,
    successfulLogins: logins.filter((l) => l.success).length,
    failedAttempts: logins.filter((l) => !l.success).length,
    activeUsers: new Set(activities.map((a) => a.user_id).filter(Boolean)).size,
  };
}

/** Case-insensitive search: action or user email for activities, email for logins. */
export function searchAudit(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], term: string) {
  const needle = term.trim().toLowerCase();
  if (!needle) return { activities: [...activities], logins: [...logins] };
  return {
    activities: activities.filter((a) => a.action.toLowerCase().includes(needle) || (a.profiles?.email ?? '').toLowerCase().includes(needle)),
    logins: logins.filter((l) => l.email.toLowerCase().includes(needle)),
  };
}

/** The JSON export: `audit-log-{date}.json` with activities, logins, exported_at and exported_by. */
export function auditJsonExport(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], exportedBy: string, now = new Date()) {
  return {
    filename: `audit-log-${now.toISOString().slice(0, 10)}.json`,
    content: JSON.stringify({ activities, logins, exported_at: now.toISOString(), exported_by: exportedBy }, null, 2),
  };
}

/**
 * One CSV cell: quoted, quotes doubled, and a leading `'` when it starts with = + - @ tab or CR, so a
 * spreadsheet shows it as text instead of running it as a formula.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The CSV export: one row per activity and per login attempt, `audit-log-{date}.csv`. */
export function auditCsvExport(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], now = new Date()) {
  const header = ['type', 'created_at', 'email', 'action_or_result', 'resource_type', 'resource_id', 'failure_reason', 'ip_address'];
  const rows = [
    ...activities.map((a) => ['activity', a.created_at, a.profiles?.email ?? '', a.action, a.resource_type, a.resource_id, '', '']),
    ...logins.map((l) => ['login', l.created_at, l.email, l.success ? 'success' : 'failed', '', '', l.failure_reason, l.ip_address]),
  ];
  return {
    filename: `audit-log-${now.toISOString().slice(0, 10)}.csv`,
    content: [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n'),
  };
}
