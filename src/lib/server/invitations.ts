/**
 * Invitation links (`/auth?invite={token}`): looking one up and accepting it. The token exists only in the
 * link; the database keeps its SHA-256 (`user_invitations.token_hash`). Runs in functions (service role).
 */
import { createHash } from 'node:crypto';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import type { Role } from '../../schemas/user.ts';
import type { AcceptInvitation, InvitationDetails, InvitationProblem } from '../../schemas/auth.ts';
import { logServerActivity } from './activity-log.ts';
import type { ClientInfo } from './login-attempts.ts';
import { signIn, type AuthEndpoint } from './sign-in.ts';

/** The hex SHA-256 stored for a token (the same as SQL `encode(digest(token, 'sha256'), 'hex')`). */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

interface InvitationRow {
  id: string;
  email: string;
  role: Role;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  organization: { id: string; name: string } | null;
  inviter: { full_name: string | null; email: string } | null;
}

const INVITATION_COLUMNS =
  'id, email, role, expires_at, used_at, revoked_at, organization:organizations(id, name), inviter:profiles(full_name, email)';

async function invitationByToken(service: SupabaseClient, token: string): Promise<InvitationRow | null> {
  const { data, error } = await service
    .from('user_invitations')
    .select(INVITATION_COLUMNS)
    .eq('token_hash', hashInvitationToken(token))
    .maybeSingle<InvitationRow>();
  if (error) throw new Error(`Reading the invitation failed: ${error.message}`);
  return data;
}

function problemOf(row: InvitationRow | null, now: Date): InvitationProblem | null {
  // A revoked link answers like one that never existed.
  if (!row || !row.organization || row.revoked_at) return 'unknown';
  if (row.used_at) return 'used';
  if (Date.parse(row.expires_at) <= now.getTime()) return 'expired';
  return null;
}

/** The invitation a token opens, or why it opens none. */
export async function findInvitation(
  service: SupabaseClient,
  token: string,
  now: Date = new Date(),
): Promise<{ kind: 'valid'; invitation: InvitationDetails } | { kind: InvitationProblem }> {
  const row = await invitationByToken(service, token);
  const problem = problemOf(row, now);
  if (problem || !row?.organization) return { kind: problem ?? 'unknown' };
  return {
    kind: 'valid',
    invitation: {
      email: row.email,
      role: row.role,
      organization: row.organization,
      invitedBy: row.inviter ? row.inviter.full_name || row.inviter.email : null,
      expiresAt: row.expires_at,
      hasAccount: (await accountIdByEmail(service, row.email)) !== null,
    },
  };
}

/** The id of the account an address already has, or null. */
async function accountIdByEmail(service: SupabaseClient, email: string): Promise<string | null> {
  const { data, error } = await service.from('profiles').select('id').eq('email', email.toLowerCase()).maybeSingle<{ id: string }>();
  if (error) throw new Error(`Looking up the account of ${email} failed: ${error.message}`);
  return data?.id ?? null;
}

/** What accepting came to. */
export type AcceptOutcome =
  | { kind: 'accepted'; session: Session; role: Role; organization: { id: string; name: string } }
  /** A new account needs a name (and a password following the rules: checked by the schema). */
  | { kind: 'name-required' }
  /** The address has an account and the password given is not its password. */
  | { kind: 'wrong-password' }
  /** The address has an account, but it was deactivated: an admin of its organization must reactivate it. */
  | { kind: 'inactive' }
  /** Too many wrong passwords from this address for this account: try again later. */
  | { kind: 'locked'; until: Date }
  | { kind: InvitationProblem };

/**
 * Accepts an invitation, the only way anyone joins an organization of their own accord:
 * 1. the invitation is marked used (one conditional UPDATE, so two concurrent accepts cannot both win, and an
 *    expired or used one is never taken);
 * 2. a new address gets its confirmed account, placed in the invitation's organization with its role through
 *    app metadata (which only the service role writes; the new-user trigger reads it);
 *    an address that already has an account must give that account's password instead: the person proves
 *    it is theirs, and the membership is added;
 * 3. the person is signed in through the sign-in path (lockout, attempt record, vouched-for session), and
 *    `invitation_accepted` is logged.
 * Whenever no account was created or joined, the invitation is released again: a failed try never uses it up.
 */
export async function acceptInvitation(
  service: SupabaseClient,
  auth: AuthEndpoint,
  input: AcceptInvitation,
  client: ClientInfo,
  now: Date = new Date(),
): Promise<AcceptOutcome> {
  const usedAt = now.toISOString();
  const claimed = await service
    .from('user_invitations')
    .update({ used_at: usedAt })
    .eq('token_hash', hashInvitationToken(input.token))
    .is('used_at', null)
    .is('revoked_at', null)
    .gt('expires_at', usedAt)
    .select('id, email, role, organization_id')
    .maybeSingle<{ id: string; email: string; role: Role; organization_id: string }>();
  if (claimed.error) throw new Error(`Claiming the invitation failed: ${claimed.error.message}`);
  if (!claimed.data) {
    const found = await findInvitation(service, input.token, now);
    return { kind: found.kind === 'valid' ? 'used' : found.kind };
  }
  const invitation = claimed.data;
  const release = async () => {
    const released = await service.from('user_invitations').update({ used_at: null }).eq('id', invitation.id).eq('used_at', usedAt);
    if (released.error) throw new Error(`Releasing invitation ${invitation.id} failed: ${released.error.message}`);
  };

  // Set once the person has an account in the organization: from then on the invitation stays used.
  let joined = false;
  try {
    const existing = await accountIdByEmail(service, invitation.email);
    if (!existing) {
      if (!input.full_name) {
        await release();
        return { kind: 'name-required' };
      }
      const created = await service.auth.admin.createUser({
        email: invitation.email,
        password: input.password,
        email_confirm: true,
        user_metadata: { full_name: input.full_name },
        app_metadata: { organization_id: invitation.organization_id, role: invitation.role },
      });
      if (created.error || !created.data.user) throw new Error(`Creating the account failed: ${created.error?.message}`);
      joined = true;
    }

    const credentials = { email: invitation.email, password: input.password };
    let signedIn = await signIn(service, auth, credentials, client);
    if (existing && signedIn.kind === 'no-organization') {
      // The right password, and no active membership anywhere: this invitation is the way back in.
      await joinOrganization(service, existing, invitation);
      joined = true;
      signedIn = await signIn(service, auth, credentials, client);
    }
    if (signedIn.kind !== 'granted') {
      if (!joined) await release();
      if (signedIn.kind === 'locked') return { kind: 'locked', until: signedIn.until };
      if (existing && signedIn.kind !== 'no-organization') return { kind: signedIn.kind === 'inactive' ? 'inactive' : 'wrong-password' };
      throw new Error(`Signing in the account of invitation ${invitation.id} failed (${signedIn.kind})`);
    }
    const userId = signedIn.session.user.id;
    if (existing && !joined) {
      await joinOrganization(service, userId, invitation);
      joined = true;
    }
    await logServerActivity(service, {
      userId,
      organizationId: invitation.organization_id,
      action: 'invitation_accepted',
      details: { invitation_id: invitation.id, role: invitation.role, existing_account: existing !== null },
    });
    const organization = await service.from('organizations').select('id, name').eq('id', invitation.organization_id).single();
    if (organization.error) throw new Error(`Reading organization ${invitation.organization_id} failed: ${organization.error.message}`);
    return { kind: 'accepted', session: signedIn.session, role: invitation.role, organization: organization.data };
  } catch (error) {
    if (!joined) await release();
    throw error;
  }
}

/**
 * Makes an existing account an active member of the invitation's organization: a new membership with the
 * invitation's role, or a deactivated one active again with the invitation's role; an active one stays as it
 * is (a member invited twice keeps the role they have).
 */
async function joinOrganization(service: SupabaseClient, userId: string, invitation: { organization_id: string; role: Role }) {
  const found = await service
    .from('organization_memberships')
    .select('id, is_active')
    .eq('user_id', userId)
    .eq('organization_id', invitation.organization_id)
    .maybeSingle<{ id: string; is_active: boolean }>();
  if (found.error) throw new Error(`Reading the membership of ${userId} failed: ${found.error.message}`);
  const written = !found.data
    ? await service.from('organization_memberships').insert({ user_id: userId, organization_id: invitation.organization_id, role: invitation.role })
    : found.data.is_active
      ? { error: null }
      : await service.from('organization_memberships').update({ is_active: true, role: invitation.role }).eq('id', found.data.id);
  if (written.error) throw new Error(`Adding ${userId} to ${invitation.organization_id} failed: ${written.error.message}`);
}

/** How long a new invitation stays valid (the column default says the same). */
export const INVITATION_VALID_DAYS = 7;

/** Thrown when the organization already has a pending invitation for the e-mail. */
export class InvitationExistsError extends Error {
  constructor(email: string) {
    super(`${email} already has a pending invitation.`);
  }
}

/** A created invitation: its link (the only place the token exists) and what its mail names. */
export interface CreatedInvitation {
  id: string;
  link: string;
  expiresAt: string;
  organizationName: string;
  /** The inviter's name, or e-mail when they gave none. */
  inviter: string;
}

/**
 * Creates an invitation (service role, after the caller was verified as an admin, or by the operator's
 * `npm run site:add`, whose invitation has no inviting member: `invitedBy` null): a random 32-byte token,
 * of which only the SHA-256 is stored, valid 7 days; an expired unused invitation of the same address is
 * replaced (a pending, unexpired one answers `InvitationExistsError`). Returns the absolute `{siteUrl}/auth?invite={token}`
 * link with the organization's and the inviter's names, for the invitation mail.
 */
export async function createInvitation(
  service: SupabaseClient,
  { organizationId, invitedBy, siteUrl }: { organizationId: string; invitedBy: string | null; siteUrl: string },
  { email, role }: { email: string; role: Role },
): Promise<CreatedInvitation> {
  // An expired, unused invitation still holds the one-pending-per-address index: it makes way for the new one.
  const expired = await service
    .from('user_invitations')
    .delete()
    .eq('organization_id', organizationId)
    .eq('email', email.toLowerCase())
    .is('used_at', null)
    .lte('expires_at', new Date().toISOString());
  if (expired.error) throw new Error(`Removing the expired invitation of ${email} failed: ${expired.error.message}`);
  const { token, hash } = newToken();
  const expiresAt = new Date(Date.now() + INVITATION_VALID_DAYS * 24 * 3600_000).toISOString();
  const { data, error } = await service
    .from('user_invitations')
    .insert({ organization_id: organizationId, email: email.toLowerCase(), role, token_hash: hash, invited_by: invitedBy, expires_at: expiresAt })
    .select('id, organization:organizations(name), inviter:profiles(full_name, email)')
    .single<{ id: string; organization: { name: string } | null; inviter: { full_name: string | null; email: string } | null }>();
  if (error?.code === '23505') throw new InvitationExistsError(email);
  if (error) throw new Error(`Creating the invitation for ${email} failed: ${error.message}`);
  return {
    id: data.id,
    link: `${siteUrl}/auth?invite=${encodeURIComponent(token)}`,
    expiresAt,
    organizationName: data.organization?.name ?? 'the organization',
    inviter: data.inviter?.full_name || data.inviter?.email || 'An administrator',
  };
}

/** Thrown when an invitation is not in the organization, or is no longer open (accepted or revoked). */
export class InvitationClosedError extends Error {
  constructor(id: string) {
    super(`Invitation ${id} was already accepted or revoked, or does not exist.`);
  }
}

/** A new random token and its stored hash. */
function newToken(): { token: string; hash: string } {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  return { token, hash: hashInvitationToken(token) };
}

/** An invitation sent again: as `CreatedInvitation`, with the address and role the mail names. */
export interface ResentInvitation extends CreatedInvitation {
  email: string;
  role: Role;
}

/**
 * Sends an open (pending or expired, neither accepted nor revoked) invitation again: a new token replaces the
 * stored hash, so the old link answers like an unknown one, and it is valid 7 days from now. Throws
 * `InvitationClosedError` for an accepted, revoked or unknown invitation (one conditional UPDATE).
 */
export async function resendInvitation(
  service: SupabaseClient,
  { organizationId, invitationId, siteUrl }: { organizationId: string; invitationId: string; siteUrl: string },
): Promise<ResentInvitation> {
  const { token, hash } = newToken();
  const expiresAt = new Date(Date.now() + INVITATION_VALID_DAYS * 24 * 3600_000).toISOString();
  const { data, error } = await service
    .from('user_invitations')
    .update({ token_hash: hash, expires_at: expiresAt })
    .eq('id', invitationId)
    .eq('organization_id', organizationId)
    .is('used_at', null)
    .is('revoked_at', null)
    .select('id, email, role, organization:organizations(name), inviter:profiles(full_name, email)')
    .maybeSingle<{ id: string; email: string; role: Role; organization: { name: string } | null; inviter: { full_name: string | null; email: string } | null }>();
  if (error) throw new Error(`Resending invitation ${invitationId} failed: ${error.message}`);
  if (!data) throw new InvitationClosedError(invitationId);
  return {
    id: data.id,
    email: data.email,
    role: data.role,
    link: `${siteUrl}/auth?invite=${encodeURIComponent(token)}`,
    expiresAt,
    organizationName: data.organization?.name ?? 'the organization',
    inviter: data.inviter?.full_name || data.inviter?.email || 'An administrator',
  };
}

/**
 * Revokes an open invitation: `revoked_at` is set and it expires now, so its link answers like an unknown
 * one and accepting it finds nothing to claim. Throws `InvitationClosedError` for an accepted, revoked or
 * unknown invitation.
 */
export async function revokeInvitation(
  service: SupabaseClient,
  { organizationId, invitationId, now = new Date() }: { organizationId: string; invitationId: string; now?: Date },
): Promise<{ id: string; email: string; role: Role }> {
  const { data, error } = await service
    .from('user_invitations')
    .update({ revoked_at: now.toISOString(), expires_at: now.toISOString() })
    .eq('id', invitationId)
    .eq('organization_id', organizationId)
    .is('used_at', null)
    .is('revoked_at', null)
    .select('id, email, role')
    .maybeSingle<{ id: string; email: string; role: Role }>();
  if (error) throw new Error(`Revoking invitation ${invitationId} failed: ${error.message}`);
  if (!data) throw new InvitationClosedError(invitationId);
  return data;
}
