/**
 * Members of an organization, for the Users tab: listing, searching and counting memberships, role, status
 * and profile changes (single and bulk, through SQL functions under the admin's own session that check the
 * caller, keep the last admin and log in the same transaction), invitations with their state, the calls to
 * the admin functions (creating, inviting, resending, revoking, reset mails), and temporary passwords. The privileged
 * create-user sequence itself is server-only: `server/staff-accounts.ts`.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { ActivityEntry } from './activity-sentences.ts';
import type { CreateUser, MemberEdit, Role } from '../../schemas/user.ts';
import { answerMessage, postAdminFunction } from './functions.ts';
import { ilikePattern } from '../ilike-pattern.ts';

/** A row of the user list: a membership of the organization (role and status there) with the profile. */
export interface StaffProfile {
  /** The member's user id. */
  id: string;
  email: string;
  full_name: string | null;
  /** The role in this organization. */
  role: Role;
  /** Active in this organization (other memberships are separate). */
  is_active: boolean;
  bio: string | null;
  phone: string | null;
  created_at: string;
  /** When the person joined this organization. */
  joined_at: string;
  last_login: string | null;
}

/** Where an invitation stands: revoked and accepted win over expiry. */
export type InvitationState = 'pending' | 'accepted' | 'expired' | 'revoked';

/** An invitation as the Invitations list shows it. */
export interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  state: InvitationState;
}

const MEMBER_COLUMNS = 'id, email, full_name, role, is_active, bio, phone, created_at, joined_at, last_login';

/** Thrown when the database refuses to leave an organization without an active admin. */
export class LastAdminError extends Error {
  constructor() {
    super('The organization must keep at least one active admin. Make another member admin first.');
  }
}

function failure(what: string, error: { message: string }): Error {
  return /last_admin/.test(error.message) ? new LastAdminError() : new Error(`${what}: ${error.message}`);
}

/**
 * The organization's members (`organization_members`: one row per membership), newest member first,
 * matching `search` on email or full name (case-insensitive, in the database) and `role` when given.
 */
export async function listStaff(
  client: SupabaseClient,
  organizationId: string,
  { search = '', role }: { search?: string; role?: Role } = {},
): Promise<StaffProfile[]> {
  let query = client.from('organization_members').select(MEMBER_COLUMNS).eq('organization_id', organizationId);
  const term = search.trim();
  if (term) {
    const pattern = ilikePattern(term);
    query = query.or(`email.ilike.${pattern},full_name.ilike.${pattern}`);
  }
  if (role) query = query.eq('role', role);
  const { data, error } = await query.order('joined_at', { ascending: false });
  if (error) throw failure('Failed to fetch users', error);
  return data as StaffProfile[];
}

/**
 * The five count cards of User Management, counted by the database (head requests, no rows loaded) over
 * the memberships, as the System Overview counts them. Pending Invites counts invitations that can still
 * be accepted: not used, not revoked and not expired at `now`.
 */
export async function countStaff(client: SupabaseClient, organizationId: string, now: Date = new Date()) {
  const head = { count: 'exact', head: true } as const;
  const members = () => client.from('organization_members').select('*', head).eq('organization_id', organizationId);
  const results = await Promise.all([
    members(),
    members().eq('role', 'admin'),
    members().eq('role', 'editor'),
    members().eq('is_active', true),
    client.from('user_invitations').select('*', head).eq('organization_id', organizationId).is('used_at', null).is('revoked_at', null).gt('expires_at', now.toISOString()),
  ]);
  const failed = results.find((result) => result.error);
  if (failed?.error) throw failure('Failed to count users', failed.error);
  const [total = 0, admins = 0, editors = 0, active = 0, pendingInvites = 0] = results.map((result) => result.count ?? 0);
  return { total, admins, editors, active, pendingInvites };
}

/** The state of an invitation at `now`. */
export function invitationState(row: { used_at: string | null; revoked_at: string | null; expires_at: string }, now: Date = new Date()): InvitationState {
  if (row.revoked_at) return 'revoked';
  if (row.used_at) return 'accepted';
  return Date.parse(row.expires_at) <= now.getTime() ? 'expired' : 'pending';
}

/** Every invitation of the organization with its state, newest first. */
export async function listInvitations(client: SupabaseClient, organizationId: string, now: Date = new Date()): Promise<InvitationRow[]> {
  const { data, error } = await client
    .from('user_invitations')
    .select('id, email, role, created_at, expires_at, used_at, revoked_at')
    .eq('organization_id', organizationId)
    .order('created_at', { ascending: false });
  if (error) throw failure('Failed to fetch invitations', error);
  return (data as Omit<InvitationRow, 'state'>[]).map((row) => ({ ...row, state: invitationState(row, now) }));
}

/**
 * Sets the role of one or more members of the organization (one transaction: all change or none). The
 * database logs `role_changed` for one user, `role_changed_bulk` for each of several.
 */
export async function changeRole(client: SupabaseClient, organizationId: string, userIds: readonly string[], role: Role): Promise<number> {
  const { data, error } = await client.rpc('set_member_roles', { p_organization_id: organizationId, p_user_ids: userIds, p_role: role });
  if (error) throw failure('Failed to update user role', error);
  return data as number;
}

/**
 * Activates or deactivates members in the organization (their other memberships stay). `reason: 'delete'`
 * is the bulk Delete: it deactivates and the database logs `user_soft_deleted_bulk`; otherwise
 * `user_activated` / `user_deactivated` (with `_bulk` for several).
 */
export async function setActive(
  client: SupabaseClient,
  organizationId: string,
  userIds: readonly string[],
  isActive: boolean,
  reason: 'status' | 'delete' = 'status',
): Promise<number> {
  const { data, error } = await client.rpc('set_member_status', { p_organization_id: organizationId, p_user_ids: userIds, p_active: isActive, p_reason: reason });
  if (error) throw failure('Failed to update user status', error);
  return data as number;
}

/** What changed in an admin's edit of a member: `{ field: { from, to } }`. */
export type MemberChanges = Partial<Record<'full_name' | 'phone' | 'role', { from: string | null; to: string | null }>>;

/**
 * An admin sets a member's name, phone and role (one transaction; the database logs
 * `profile_updated_by_admin` with the changes). Resolves with what changed.
 */
export async function updateMember(client: SupabaseClient, organizationId: string, userId: string, input: MemberEdit): Promise<MemberChanges> {
  const { data, error } = await client.rpc('update_member_profile', {
    p_organization_id: organizationId,
    p_user_id: userId,
    p_full_name: input.full_name ?? null,
    p_phone: input.phone ?? null,
    p_role: input.role,
  });
  if (error) throw failure('Failed to update the user', error);
  return data as MemberChanges;
}

/** One entry of a user's recent activity (detail dialog), with what its sentence needs. */
export interface UserActivity extends ActivityEntry {
  id: string;
  created_at: string;
}

/** The user's last 10 activities in the organization (their work in other organizations stays out). */
export async function recentActivity(client: SupabaseClient, organizationId: string, userId: string): Promise<UserActivity[]> {
  const { data, error } = await client
    .from('user_activity_logs')
    .select('id, user_id, action, resource_type, resource_id, details, created_at, profiles(email, full_name)')
    .eq('organization_id', organizationId)
    .eq('user_id', userId)
    .order('created_at', { ascending: false })
    .limit(10);
  if (error) throw failure('Failed to fetch activity', error);
  return data as unknown as UserActivity[];
}

/** Characters of generated passwords: letters, digits and symbols. */
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

/** Resend (new link, the old one dies; mailed again) or revoke an invitation through `POST /api/admin/invitation-actions`. */
export function requestInvitationAction(client: SupabaseClient, organizationId: string, invitationId: string, action: 'resend' | 'revoke') {
  return callAdminFunction<{ id: string; message: string; link?: string; mail?: SentInvitation['mail'] }>(client, '/api/admin/invitation-actions', {
    organization_id: organizationId,
    invitation_id: invitationId,
    action,
  });
}

/** Sends a member a password reset mail through `POST /api/admin/password-reset`. */
export function requestPasswordReset(client: SupabaseClient, organizationId: string, userId: string) {
  return callAdminFunction<{ message: string }>(client, '/api/admin/password-reset', { organization_id: organizationId, user_id: userId });
}
