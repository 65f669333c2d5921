/**
 * Staff accounts of an organization, for the Users tab: listing and searching profiles, role and status
 * changes (single and bulk, under the admin's own session: RLS and the last-admin guard decide), the calls
 * to the admin functions (creating and inviting), and the generated temporary passwords. The privileged
 * create-user sequence itself is server-only: `server/staff-accounts.ts`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { CreateUser, Role } from '../schemas/user.ts';
import { logActivity } from './activity.ts';
import { answerMessage, postAdminFunction } from './admin-functions.ts';

/** A row of the user list. */
export interface StaffProfile {
  id: string;
  email: string;
  full_name: string | null;
  role: Role;
  is_active: boolean;
  bio: string | null;
  phone: string | null;
  created_at: string;
  last_login: string | null;
}

/** A pending invitation as the Invitations tab shows it. */
export interface PendingInvitation {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  expires_at: string;
}

const PROFILE_COLUMNS = 'id, email, full_name, role, is_active, bio, phone, created_at, last_login';

/** Thrown when the database refuses to leave an organization without an active admin. */
export class LastAdminError extends Error {
  constructor() {
    super('The organization must keep at least one active admin. Make another member admin first.');
  }
}

function failure(what: string, error: { message: string }): Error {
  return /last_admin/.test(error.message) ? new LastAdminError() : new Error(`${what}: ${error.message}`);
}

/** `%`, `_` and `\` are wildcards in ilike; `,` `(` `)` `"` would break the or() filter. */
function ilikePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/[,()"]/g, ' ')}%`;
}

/**
 * The organization's profiles, newest first, matching `search` on email or full name (case-insensitive,
 * in the database) and `role` when given.
 */
export async function listStaff(
  client: SupabaseClient,
  organizationId: string,
  { search = '', role }: { search?: string; role?: Role } = {},
): Promise<StaffProfile[]> {
  let query = client.from('profiles').select(PROFILE_COLUMNS).eq('organization_id', organizationId);
  const term = search.trim();
  if (term) {
    const pattern = ilikePattern(term);
    query = query.or(`email.ilike.${pattern},full_name.ilike.${pattern}`);
  }
  if (role) query = query.eq('role', role);
  const { data, error } = await query.order('created_at', { ascending: false });
  if (error) throw failure('Failed to fetch users', error);
  return data as StaffProfile[];
}

/**
 * The five count cards of User Management, counted by the database (head requests, no rows loaded).
 * Pending Invites counts invitations that can still be accepted: not used and not expired at `now`.
 */
export async function countStaff(client: SupabaseClient, organizationId: string, now: Date = new Date()) {
  const head = { count: 'exact', head: true } as const;
  const profiles = () => client.from('profiles').select('*', head).eq('organization_id', organizationId);
  const results = await Promise.all([
    profiles(),
    profiles().eq('role', 'admin'),
    profiles().eq('role', 'editor'),
    profiles().eq('is_active', true),
    client.from('user_invitations').select('*', head).eq('organization_id', organizationId).is('used_at', null).gt('expires_at', now.toISOString()),
  ]);
  const failed = results.find((result) => result.error);
  if (failed?.error) throw failure('Failed to count users', failed.error);
  const [total = 0, admins = 0, editors = 0, active = 0, pendingInvites = 0] = results.map((result) => result.count ?? 0);
  return { total, admins, editors, active, pendingInvites };
}

/** Pending invitations (not used and not expired, as the Pending Invites card counts them), newest first. */
export async function listPendingInvitations(client: SupabaseClient, organizationId: string, now: Date = new Date()): Promise<PendingInvitation[]> {
  const { data, error } = await client
    .from('user_invitations')
    .select('id, email, role, created_at, expires_at')
    .eq('organization_id', organizationId)
    .is('used_at', null)
    .gt('expires_at', now.toISOString())
    .order('created_at', { ascending: false });
  if (error) throw failure('Failed to fetch invitations', error);
  return data as PendingInvitation[];
}

/**
 * Sets the role of one or more users (one statement: all change or none). Logs `role_changed` for one user,
 * `role_changed_bulk` for each of several.
 */
export async function changeRole(client: SupabaseClient, actorId: string, userIds: readonly string[], role: Role): Promise<number> {
  const { data, error } = await client.from('profiles').update({ role }).in('id', userIds).select('id, organization_id');
  if (error) throw failure('Failed to update user role', error);
  const action = userIds.length === 1 ? 'role_changed' : 'role_changed_bulk';
  await logEach(client, data, action, { new_role: role, changed_by: actorId });
  return data.length;
}

/**
 * Activates or deactivates users (one statement). `reason: 'delete'` is the bulk Delete, a soft delete that
 * logs `user_soft_deleted_bulk`; otherwise `user_activated` / `user_deactivated` (with `_bulk` for several).
 */
export async function setActive(
  client: SupabaseClient,
  actorId: string,
  userIds: readonly string[],
  isActive: boolean,
  reason: 'status' | 'delete' = 'status',
): Promise<number> {
  const { data, error } = await client.from('profiles').update({ is_active: isActive }).in('id', userIds).select('id, organization_id');
  if (error) throw failure('Failed to update user status', error);
  if (reason === 'delete') {
    await logEach(client, data, 'user_soft_deleted_bulk', { deleted_by: actorId });
  } else {
    const action = `user_${isActive ? 'activated' : 'deactivated'}${userIds.length === 1 ? '' : '_bulk'}`;
    await logEach(client, data, action, { changed_by: actorId });
  }
  return data.length;
}

/** Logs the admin's action once per changed user, in that user's organization (the admin's, by RLS). */
async function logEach(client: SupabaseClient, rows: Array<{ id: string; organization_id: string | null }>, action: string, details: Record<string, unknown>) {
  await Promise.all(
    rows.map(async ({ id, organization_id }) => {
      try {
        await logActivity(client, action, { details, resourceType: 'user', resourceId: id, organizationId: organization_id ?? undefined });
      } catch (error) {
        // The change itself succeeded; a missing log line must not turn it into a reported failure.
        console.error(error instanceof Error ? error.message : String(error));
      }
    }),
  );
}

/** One entry of a user's recent activity (detail dialog). */
export interface UserActivity {
  id: string;
  action: string;
  resource_type: string | null;
  resource_id: string | null;
  created_at: string;
}

/** The user's last 10 activities. */
export async function recentActivity(client: SupabaseClient, userId: string): Promise<UserActivity[]> {
  const { data, error } = await client
    .from('user_activity_logs')
    .select('id, action, resource_type, resource_id, created_at')
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .limit(10);
  if (error) throw failure('Failed to fetch activity', error);
  return data as UserActivity[];
}

/** Characters of generated passwords (spec back-office: letters, digits and symbols). */
export const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!@#$%^&*';
export const GENERATED_PASSWORD_LENGTH = 12;

/**
 * A random temporary password. Rejection sampling keeps every character equally likely (a plain modulo
 * would favour the first characters of the alphabet).
 */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH, alphabet = PASSWORD_ALPHABET): string {
  const limit = 256 - (256 % alphabet.length);
  let password = '';
  while (password.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && password.length < length) password += alphabet[byte % alphabet.length];
    }
  }
  return password;
}

/** Calls an admin function with the signed-in admin's token; throws with the function's message on failure. */
async function callAdminFunction<T>(client: SupabaseClient, path: string, body: unknown): Promise<T> {
  const answer = await postAdminFunction(client, path, body);
  if (!answer.ok) throw new Error(answerMessage(answer) || `The request failed (${answer.status}).`);
  return answer.body as T;
}

/** Create New User through `POST /api/admin/users`. */
export function requestCreateUser(client: SupabaseClient, organizationId: string, input: CreateUser) {
  return callAdminFunction<{ id: string; email: string }>(client, '/api/admin/users', { ...input, organization_id: organizationId });
}

/** The answer of `POST /api/admin/invitations`: the link, whether it was mailed, and what to tell the admin. */
export interface SentInvitation {
  id: string;
  link: string;
  expires_at: string;
  mail: 'sent' | 'not-configured' | 'failed';
  message: string;
}

/** Send Invitation through `POST /api/admin/invitations` (creates and mails it). */
export function requestInvitation(client: SupabaseClient, organizationId: string, input: { email: string; role: Role }) {
  return callAdminFunction<SentInvitation>(client, '/api/admin/invitations', { ...input, organization_id: organizationId });
}
