/**
 * The Security Audit Log: the organization's activity entries (with the acting user's email and name) and
 * the login attempts the admin may read (RLS decides), newest first in pages of 100 and 50; the JSON and
 * CSV exports built in the browser; the action badge styles of spec back-office 9. Entries read as sentences
 * (src/lib/back-office/activity-sentences.ts); the exports keep the raw action, ids and details beside the sentence.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { activitySentence, mentionedUserIds, type People, type Person } from './activity-sentences';

/** Page sizes of spec back-office 9. */
export const ACTIVITY_PAGE = 100;
export const LOGIN_PAGE = 50;
/** Entries in the Overview's recent activity. */
export const RECENT_ACTIVITY = 10;

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

/**
 * The profiles of the users the entries are about (role changes, deactivations, ended sessions), by id, so
 * sentences name them. RLS decides which profiles the admin may read; the others fall back to what the
 * entry recorded.
 */
export async function loadMentionedPeople(client: SupabaseClient, activities: readonly AuditActivity[]): Promise<Map<string, Person>> {
  const people = new Map<string, Person>();
  for (const a of activities) if (a.user_id && a.profiles) people.set(a.user_id, a.profiles);
  const missing = mentionedUserIds(activities).filter((id) => !people.has(id) && UUID.test(id));
  if (missing.length === 0) return people;
  const { data, error } = await client.from('profiles').select('id, email, full_name').in('id', missing);
  if (error) throw new Error(`Failed to fetch the people of the audit log: ${error.message}`);
  for (const { id, email, full_name } of data as Array<Person & { id: string }>) people.set(id, { email, full_name });
  return people;
}

/** The newest `limit` activities and the people they name, ready for sentences. */
export async function listActivitySentences(client: SupabaseClient, organizationId: string, limit: number) {
  const activities = await listActivities(client, organizationId, limit);
  return { activities, people: await loadMentionedPeople(client, activities) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

/** A login attempt as a sentence: "a@x.test signed in" or "Sign-in failed for a@x.test (invalid credentials)". */
export function loginSummary(login: Pick<LoginAttempt, 'email' | 'success' | 'failure_reason'>): string {
  if (login.success) return `${login.email} signed in`;
  return `Sign-in failed for ${login.email}${login.failure_reason ? ` (${login.failure_reason.replace(/_/g, ' ')})` : ''}`;
}

/** Case-insensitive search: the sentence, action or user email for activities; email for logins. */
export function searchAudit(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], term: string, people: People = new Map()) {
  const needle = term.trim().toLowerCase();
  if (!needle) return { activities: [...activities], logins: [...logins] };
  const matches = (...texts: string[]) => texts.some((t) => t.toLowerCase().includes(needle));
  return {
    activities: activities.filter((a) => matches(a.action, a.profiles?.email ?? '', activitySentence(a, people))),
    logins: logins.filter((l) => matches(l.email)),
  };
}

/**
 * The JSON export: `audit-log-{date}.json` with activities, logins, exported_at and exported_by; every
 * entry keeps its raw fields and gains a `summary` sentence.
 */
export function auditJsonExport(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], exportedBy: string, people: People = new Map(), now = new Date()) {
  return {
    filename: `audit-log-${now.toISOString().slice(0, 10)}.json`,
    content: JSON.stringify(
      {
        activities: activities.map((a) => ({ ...a, summary: activitySentence(a, people) })),
        logins: logins.map((l) => ({ ...l, summary: loginSummary(l) })),
        exported_at: now.toISOString(),
        exported_by: exportedBy,
      },
      null,
      2,
    ),
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

/**
 * The CSV export: one row per activity and per login attempt, `audit-log-{date}.csv`. The sentence, the
 * actor's id and the details come after the original columns, so sheets built on those keep working.
 */
export function auditCsvExport(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], people: People = new Map(), now = new Date()) {
  const header = ['type', 'created_at', 'email', 'action_or_result', 'resource_type', 'resource_id', 'failure_reason', 'ip_address', 'summary', 'user_id', 'details'];
  const rows = [
    ...activities.map((a) => ['activity', a.created_at, a.profiles?.email ?? '', a.action, a.resource_type, a.resource_id, '', '', activitySentence(a, people), a.user_id, a.details]),
    ...logins.map((l) => ['login', l.created_at, l.email, l.success ? 'success' : 'failed', '', '', l.failure_reason, l.ip_address, loginSummary(l), '', '']),
  ];
  return {
    filename: `audit-log-${now.toISOString().slice(0, 10)}.csv`,
    content: [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n'),
  };
}
