/**
 * The Security Audit Log: the organization's activity entries (with the acting user's email and name when
 * there is a user; the app's own entries, the writing tool's and the scheduler's, have none) and the sign-in
 * attempts of the organization's members, newest first in pages of 100 and 50, and the organization's totals of
 * both (organization_audit_counts: the cards count everything, not what is loaded); the JSON and CSV exports of
 * every entry, read a page at a time and built in the browser; the action badges (colour by kind) and the
 * resource of an entry. Entries read as sentences
 * (src/lib/back-office/activity-sentences.ts); the exports keep the raw action, ids and details beside the
 * sentence and the actor's name.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { activitySentence, entryActor, mentionedUserIds, personName, type People, type Person } from './activity-sentences';
import { describeUserAgent } from './user-agent';

/** Page sizes of the audit log: activities, and sign-in attempts. */
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

/** The most rows one request reads (PostgREST's max-rows); longer lists are read in steps of it. */
const READ_STEP = 1000;

/**
 * The newest `limit` activities of the organization with the acting profile when there is one (a left
 * join: the entries without a user, the writing tool's and the scheduler's, are listed too), read in steps.
 */
export async function listActivities(client: SupabaseClient, organizationId: string, limit = ACTIVITY_PAGE): Promise<AuditActivity[]> {
  const activities: AuditActivity[] = [];
  while (activities.length < limit) {
    const from = activities.length;
    const { data, error } = await client
      .from('user_activity_logs')
      .select('id, user_id, action, resource_type, resource_id, details, created_at, profiles(email, full_name)')
      .eq('organization_id', organizationId)
      .order('created_at', { ascending: false })
      .order('id')
      .range(from, from + Math.min(READ_STEP, limit - from) - 1);
    if (error) throw new Error(`Failed to fetch audit logs: ${error.message}`);
    activities.push(...(data as unknown as AuditActivity[]));
    if (data.length < Math.min(READ_STEP, limit - from)) break;
  }
  return activities;
}

/** The organization's totals: every activity entry, the members who acted, its members' sign-ins by outcome. */
export interface AuditCounts {
  activities: number;
  active_users: number;
  successful_logins: number;
  failed_logins: number;
}

/** The totals of the whole log (the database checks that the caller is an admin of the organization). */
export async function loadAuditCounts(client: SupabaseClient, organizationId: string): Promise<AuditCounts> {
  const { data, error } = await client.rpc('organization_audit_counts', { p_organization_id: organizationId });
  if (error) throw new Error(`Failed to count the audit log: ${error.message}`);
  return data as AuditCounts;
}

/** Every entry of the log, activities and sign-in attempts, with the people they name: what the exports hold. */
export async function listWholeAudit(client: SupabaseClient, organizationId: string) {
  const counts = await loadAuditCounts(client, organizationId);
  const [{ activities, people }, logins] = await Promise.all([
    listActivitySentences(client, organizationId, Math.max(counts.activities, ACTIVITY_PAGE)),
    listLoginAttempts(client, organizationId, Math.max(counts.successful_logins + counts.failed_logins, LOGIN_PAGE)),
  ]);
  return { activities, people, logins };
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

/**
 * The newest `limit` sign-in attempts made with the e-mail of an active member of the organization (the
 * database checks that the caller is an admin of it; an admin of several organizations sees only this one's),
 * read in steps.
 */
export async function listLoginAttempts(client: SupabaseClient, organizationId: string, limit = LOGIN_PAGE): Promise<LoginAttempt[]> {
  const attempts: LoginAttempt[] = [];
  while (attempts.length < limit) {
    const step = Math.min(READ_STEP, limit - attempts.length);
    const { data, error } = await client.rpc('organization_login_attempts', { p_organization_id: organizationId, p_limit: step, p_offset: attempts.length });
    if (error) throw new Error(`Failed to fetch audit logs: ${error.message}`);
    attempts.push(...(data as LoginAttempt[]));
    if ((data as LoginAttempt[]).length < step) break;
  }
  return attempts;
}

/** What an action does, for its badge colour. */
export type ActionKind = 'create' | 'update' | 'delete' | 'security' | 'other';

/** The words of an action code that tell its kind; the first kind whose word the code has wins. */
const KIND_WORDS: ReadonlyArray<[ActionKind, ReadonlySet<string>]> = [
  ['security', new Set(['login', 'logout', 'password', 'session', 'access', 'role', 'opened'])],
  ['delete', new Set(['delete', 'deleted', 'deactivated', 'revoked', 'removed', 'trashed'])],
  ['create', new Set(['created', 'invited', 'accepted', 'uploaded', 'activated', 'published', 'restored'])],
  ['update', new Set(['updated', 'modified', 'changed', 'renamed', 'merged', 'scheduled', 'cancelled', 'reordered', 'resent', 'unpublished', 'approved', 'untrashed'])],
];

/**
 * The kind of an action from the words of its code (`post_unpublished` is an update, not a publication):
 * sign-ins, passwords, sessions, roles and a client's link opened are security; deletions, deactivations and revocations delete;
 * creations, invitations, uploads, activations and publications create; the rest of the changes update.
 */
export function actionKind(action: string): ActionKind {
  const words = action.split('_');
  return KIND_WORDS.find(([, set]) => words.some((word) => set.has(word)))?.[0] ?? 'other';
}

/** Badge style per action kind: creates green, updates blue, deletes red, security amber, others grey. */
export const ACTION_KIND_BADGE = {
  create: 'success',
  update: 'info',
  delete: 'destructive',
  security: 'warning',
  other: 'neutral',
} as const satisfies Record<ActionKind, string>;

/** The badge style of an action (see ACTION_KIND_BADGE). */
export function actionBadgeVariant(action: string): (typeof ACTION_KIND_BADGE)[ActionKind] {
  return ACTION_KIND_BADGE[actionKind(action)];
}

/** What an entry is about, as the list shows it: the resource type in words and a short label. */
export interface ActivityResource {
  /** `blog post`, `media`, `user`… */
  type: string;
  /**
   * The title or name the entry recorded, the user's name for a user, the organization's name, a session's
   * browser; null when none is known (the id itself is in the entry's detail, not in the list).
   */
  label: string | null;
}

/** The resource of an entry, or null when it names none. `organizations` names the organizations by id. */
export function activityResource(
  entry: Pick<AuditActivity, 'resource_type' | 'resource_id' | 'details'>,
  people: People = new Map(),
  organizations: ReadonlyMap<string, string> = new Map(),
): ActivityResource | null {
  if (!entry.resource_type) return null;
  const d = entry.details ?? {};
  const recorded = [d.title, d.name, d.file_name, d.full_name, d.email].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const id = entry.resource_id;
  const named =
    entry.resource_type === 'user' && id ? personName(people.get(id))
    : entry.resource_type === 'organization' && id ? (organizations.get(id) ?? null)
    : entry.resource_type === 'session' && typeof d.user_agent === 'string' ? describeUserAgent(d.user_agent)
    : null;
  return { type: entry.resource_type.replace(/_/g, ' '), label: named ?? recorded?.trim() ?? null };
}

/** A login attempt as a sentence: "a@x.test signed in" or "Sign-in failed for a@x.test (invalid credentials)". */
export function loginSummary(login: Pick<LoginAttempt, 'email' | 'success' | 'failure_reason'>): string {
  if (login.success) return `${login.email} signed in`;
  return `Sign-in failed for ${login.email}${login.failure_reason ? ` (${login.failure_reason.replace(/_/g, ' ')})` : ''}`;
}

/** Case-insensitive search: the sentence, action, actor's name or e-mail for activities; email for logins. */
export function searchAudit(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], term: string, people: People = new Map()) {
  const needle = term.trim().toLowerCase();
  if (!needle) return { activities: [...activities], logins: [...logins] };
  const matches = (...texts: string[]) => texts.some((t) => t.toLowerCase().includes(needle));
  return {
    activities: activities.filter((a) => {
      const actor = entryActor(a, people);
      return matches(a.action, actor.name, actor.email ?? '', activitySentence(a, people));
    }),
    logins: logins.filter((l) => matches(l.email)),
  };
}

/**
 * The JSON export: `audit-log-{date}.json` with activities, logins, exported_at and exported_by; every
 * entry keeps its raw fields and gains its `actor` ({ kind, name, email }: the app's own entries, without a
 * user, name the writing tool or the scheduler) and a `summary` sentence.
 */
export function auditJsonExport(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], exportedBy: string, people: People = new Map(), now = new Date()) {
  return {
    filename: `audit-log-${now.toISOString().slice(0, 10)}.json`,
    content: JSON.stringify(
      {
        activities: activities.map((a) => ({ ...a, actor: entryActor(a, people), summary: activitySentence(a, people) })),
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
 * actor's id and the details come after the original columns, so sheets built on those keep working. An
 * entry of the app's own (no user) names its writer in the user columns: `email` holds its name
 * ("ZimmWriter (writing tool)", "Scheduler", "Operator (site:add)") and `user_id` its type (writing_tool,
 * scheduler, seed, operator).
 */
export function auditCsvExport(activities: readonly AuditActivity[], logins: readonly LoginAttempt[], people: People = new Map(), now = new Date()) {
  const header = ['type', 'created_at', 'email', 'action_or_result', 'resource_type', 'resource_id', 'failure_reason', 'ip_address', 'summary', 'user_id', 'details'];
  const rows = [
    ...activities.map((a) => {
      const actor = entryActor(a, people);
      const app = actor.kind !== 'user' && actor.kind !== 'unknown';
      const email = app ? actor.name : (a.profiles?.email ?? actor.email ?? '');
      return ['activity', a.created_at, email, a.action, a.resource_type, a.resource_id, '', '', activitySentence(a, people), a.user_id ?? (app ? actor.kind : ''), a.details];
    }),
    ...logins.map((l) => ['login', l.created_at, l.email, l.success ? 'success' : 'failed', '', '', l.failure_reason, l.ip_address, loginSummary(l), '', '']),
  ];
  return {
    filename: `audit-log-${now.toISOString().slice(0, 10)}.csv`,
    content: [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n'),
  };
}
