/**
 * Who a publishing tool is: HTTP Basic credentials (the member's e-mail or user name, and an application password:
 * WordPress's scheme) checked by `authenticate_application_password` in Postgres (migration
 * 20261129000300_application_passwords.sql), which applies the sign-in lockout, counts a wrong or revoked
 * password as a wrong sign-in and notes a right one's use. Only the service role may ask, so this runs in
 * functions.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import type { ClientInfo } from './login-attempts.ts';

/** The member a right application password names, in the organization it was made for. */
export interface Publisher {
  userId: string;
  organizationId: string;
  role: 'admin' | 'editor' | 'viewer';
  passwordId: string;
  /** The name the member gave the password ("ZimmWriter"), for the audit log. */
  passwordName: string;
}

/** The check's outcome: a publisher, refused credentials, or a lockout until `until`. */
export type PublisherCheck = { kind: 'granted'; publisher: Publisher } | { kind: 'refused' } | { kind: 'locked'; until: Date };

/** HTTP Basic credentials: the e-mail or user name before the first colon, the password after it. */
export interface BasicCredentials {
  login: string;
  password: string;
}

/**
 * The credentials of an `Authorization: Basic …` header, or null when there is none or it is not Basic. A
 * Basic header that does not decode to `user:password` answers `{ login: '', password: '' }`: it is tried
 * (and refused, counted) like any wrong password, not taken for a request without credentials.
 */
export function basicCredentials(header: string | null): BasicCredentials | null {
  const match = header?.match(/^\s*Basic\s+(\S*)\s*$/i);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { login: '', password: '' };
  return { login: decoded.slice(0, colon).trim(), password: decoded.slice(colon + 1) };
}

/**
 * Checks the credentials on the site of `organizationId` in Postgres (one call: lockout, match, use noted); a
 * password of another organization is refused. Throws when the database cannot answer.
 */
export async function authenticatePublisher(
  service: SupabaseClient,
  organizationId: string,
  credentials: BasicCredentials,
  client: ClientInfo,
): Promise<PublisherCheck> {
  const { data, error } = await service.rpc('authenticate_application_password', {
    p_organization_id: organizationId,
    // The e-mail or the user name (profiles.user_login): the database turns a user name into its e-mail.
    p_email: credentials.login.slice(0, 254),
    // Longer than any application password: refused without hashing megabytes.
    p_password: credentials.password.slice(0, 200),
    p_ip: client.ip,
    p_user_agent: client.userAgent,
  });
  if (error) throw new Error(`authenticate_application_password failed: ${error.message}`);
  const answer = data as { locked_until?: string; refused?: true; user_id?: string; organization_id?: string; role?: Publisher['role']; password_id?: string; name?: string };
  if (answer.locked_until) return { kind: 'locked', until: new Date(answer.locked_until) };
  if (answer.refused || !answer.user_id) return { kind: 'refused' };
  return {
    kind: 'granted',
    publisher: {
      userId: answer.user_id,
      organizationId: answer.organization_id!,
      role: answer.role!,
      passwordId: answer.password_id!,
      passwordName: answer.name!,
    },
  };
}
