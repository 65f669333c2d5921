/**
 * Invitation links (`/auth?invite={token}`): looking one up and accepting it. The token exists only in the
 * link; the database keeps its SHA-256 (`user_invitations.token_hash`). Runs in functions (service role).
 */
import { createHash } from 'node:crypto';
import type { Session, SupabaseClient } from '@supabase/supabase-js';
import type { Role } from '../../schemas/user.ts';
import type { AcceptInvitation, InvitationDetails, InvitationProblem } from '../../schemas/auth.ts';
import { recordAttempt, type ClientInfo } from './login-attempts.ts';
import { passwordSession, type AuthEndpoint } from './sign-in.ts';

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
  organization: { id: string; name: string } | null;
  inviter: { full_name: string | null; email: string } | null;
}

const INVITATION_COLUMNS =
  'id, email, role, expires_at, used_at, organization:organizations(id, name), inviter:profiles(full_name, email)';

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
  if (!row || !row.organization) return 'unknown';
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
    },
  };
}

/** What accepting came to. */
export type AcceptOutcome =
  | { kind: 'accepted'; session: Session; role: Role; organization: { id: string; name: string } }
  | { kind: InvitationProblem | 'account-exists' };

/**
 * Accepts an invitation: marks it used (one conditional UPDATE, so two concurrent accepts cannot both win,
 * and an expired or used one is never taken), creates the confirmed account in the invitation's
 * organization with its role, and signs the person in. When the account cannot be created the invitation
 * is released again.
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
    .gt('expires_at', usedAt)
    .select('id, email, role, organization_id')
    .maybeSingle<{ id: string; email: string; role: Role; organization_id: string }>();
  if (claimed.error) throw new Error(`Claiming the invitation failed: ${claimed.error.message}`);
  if (!claimed.data) {
    const found = await findInvitation(service, input.token, now);
    return { kind: found.kind === 'valid' ? 'used' : found.kind };
  }
  const invitation = claimed.data;

  const created = await service.auth.admin.createUser({
    email: invitation.email,
    password: input.password,
    email_confirm: true,
    user_metadata: { full_name: input.full_name },
    // App metadata is trusted (only the service role sets it): the new-user trigger takes the organization
    // and role from it.
    app_metadata: { organization_id: invitation.organization_id, role: invitation.role },
  });
  if (created.error || !created.data.user) {
    const released = await service.from('user_invitations').update({ used_at: null }).eq('id', invitation.id).eq('used_at', usedAt);
    if (released.error) throw new Error(`Releasing invitation ${invitation.id} failed: ${released.error.message}`);
    if (created.error?.status === 422 || created.error?.code === 'email_exists') return { kind: 'account-exists' };
    throw new Error(`Creating the account for invitation ${invitation.id} failed: ${created.error?.message}`);
  }
  const userId = created.data.user.id;

  const logged = await service.rpc('log_user_activity', {
    p_user_id: userId,
    p_action: 'invitation_accepted',
    p_details: { invitation_id: invitation.id, role: invitation.role },
  });
  if (logged.error) throw new Error(`Logging invitation_accepted for ${userId} failed: ${logged.error.message}`);

  const session = await passwordSession(auth, { email: invitation.email, password: input.password }, client);
  if (!session) throw new Error(`Signing in the new account ${userId} failed`);
  await recordAttempt(service, { email: invitation.email, success: true, client });

  const organization = await service.from('organizations').select('id, name').eq('id', invitation.organization_id).single();
  if (organization.error) throw new Error(`Reading organization ${invitation.organization_id} failed: ${organization.error.message}`);
  return { kind: 'accepted', session, role: invitation.role, organization: organization.data };
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
 * Creates an invitation (service role, after the caller was verified as an admin): a random 32-byte token,
 * of which only the SHA-256 is stored, valid 7 days; an expired unused invitation of the same address is
 * replaced (a pending, unexpired one answers `InvitationExistsError`). Returns the absolute `{siteUrl}/auth?invite={token}`
 * link with the organization's and the inviter's names, for the invitation mail.
 */
export async function createInvitation(
  service: SupabaseClient,
  { organizationId, invitedBy, siteUrl }: { organizationId: string; invitedBy: string; siteUrl: string },
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
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');
  const expiresAt = new Date(Date.now() + INVITATION_VALID_DAYS * 24 * 3600_000).toISOString();
  const { data, error } = await service
    .from('user_invitations')
    .insert({ organization_id: organizationId, email: email.toLowerCase(), role, token_hash: hashInvitationToken(token), invited_by: invitedBy, expires_at: expiresAt })
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
