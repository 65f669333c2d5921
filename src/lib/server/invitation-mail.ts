/**
 * The invitation email: who invites whom to which organization with which role, the `/auth?invite=` link
 * and when it expires. Plain text and HTML (every value escaped: organization and inviter names are typed
 * by people).
 */
import type { Role } from '../../schemas/user.ts';
import { sendMail, type Mail } from './mailer.ts';

/** What the mail says. */
export interface InvitationMailInput {
  to: string;
  organizationName: string;
  role: Role;
  /** The inviter's name, or e-mail when they gave none. */
  inviter: string;
  /** The absolute `/auth?invite=` link. */
  link: string;
  expiresAt: string;
  validDays: number;
}

const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };

/** Escapes text for HTML element content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The expiry as people read it, in UTC so every reader sees the same moment: 'November 28, 2026, 14:05 UTC'. */
function expiryText(expiresAt: string): string {
  const date = new Date(expiresAt);
  const day = date.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
  const time = date.toLocaleTimeString('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' });
  return `${day}, ${time} UTC`;
}

/** Builds the invitation mail. */
export function invitationMail({ to, organizationName, role, inviter, link, expiresAt, validDays }: InvitationMailInput): Mail {
  const roleLabel = ROLE_LABELS[role];
  const invitedLine = `${inviter} invited you to join ${organizationName} as ${roleLabel}.`;
  const expiry = `The invitation is valid for ${validDays} days, until ${expiryText(expiresAt)}.`;
  const ignore = 'If you did not expect this invitation, you can ignore this email.';
  return {
    to,
    subject: `You're invited to join ${organizationName} as ${roleLabel}`,
    text: `${invitedLine}\n\nAccept the invitation and choose your password here:\n${link}\n\n${expiry}\n\n${ignore}\n`,
    html:
      `<p>${escapeHtml(invitedLine)}</p>\n` +
      `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>\n` +
      `<p>Or open this link: ${escapeHtml(link)}</p>\n` +
      `<p>${escapeHtml(expiry)}</p>\n` +
      `<p>${escapeHtml(ignore)}</p>\n`,
  };
}

/** Whether the invitation mail went out: `sent`, `not-configured` (no mail transport) or `failed`. */
export type InvitationMailStatus = 'sent' | 'not-configured' | 'failed';

/**
 * Builds and sends the invitation mail. A failure is logged and answered `failed`, never thrown: the
 * invitation stands, and the admin gets the link to pass on.
 */
export async function sendInvitationMail(invitationId: string, input: InvitationMailInput): Promise<InvitationMailStatus> {
  try {
    return (await sendMail(invitationMail(input))).status;
  } catch (error) {
    console.error(`Mailing invitation ${invitationId} failed:`, error instanceof Error ? error.message : String(error));
    return 'failed';
  }
}
