/**
 * The words the sign-in, reset and invitation flows show, in one place
 * so the functions, the islands and the tests say exactly the same thing.
 */

/** A toast's text: a short title and one sentence. */
export interface Notice {
  title: string;
  description: string;
}

export const AUTH_MESSAGES = {
  /** Wrong password, unknown address, unconfirmed or banned account: one answer that reveals nothing. */
  denied: { title: 'Admin Access Denied', description: 'Invalid credentials or insufficient privileges.' },
  /** Signed in, landing on the dashboard (an admin of the organization they manage). */
  granted: { title: 'Admin Access Granted', description: 'Welcome to the administrative dashboard.' },
  /** Signed in, landing in blog management (an editor or viewer of the organization they manage). */
  blogGranted: { title: 'Signed In', description: 'Welcome to blog management.' },
  /** A member who is not an admin opened an admin's page (the dashboard, its tabs, the newsletter): sent to blog management. */
  adminOnly: {
    title: 'Admins Only',
    description: 'That page is for the organization\'s admins. You are in blog management, where editors and viewers work.',
  },
  /** Right password, but the account is switched off everywhere: the new session is ended at once. */
  inactive: {
    title: 'Account Deactivated',
    description: 'Your account is deactivated. Ask an administrator of your organization to reactivate it.',
  },
  /** Right password, but no organization has the account as an active member: the session is ended at once. */
  noOrganization: {
    title: 'No Organization',
    description: 'Your account is not an active member of any organization. Ask an administrator to invite you or to reactivate you.',
  },
  /** Too many failures for one address; says nothing about whether the account exists. */
  lockedOut: {
    title: 'Too Many Attempts',
    description: 'Too many failed sign-in attempts. Please wait 15 minutes before trying again.',
  },
  /** The sign-in could not be checked at all (backend unreachable, unexpected answer). */
  authError: { title: 'Authentication Error', description: 'Unable to verify credentials. Please try again.' },
  /** The sign-in (or invitation) was accepted, but this browser could not open the back office with it. */
  enterFailed: {
    title: 'Could Not Open the Back Office',
    description: 'You were signed in, but this browser could not reach the back office, so you have been signed out again. Please try again in a moment.',
  },
  resetSent: { title: 'Reset Email Sent', description: 'Check your email for password reset instructions.' },
  resetError: { title: 'Error', description: 'Unable to send reset email. Please try again.' },
  /** Title of a reset the Auth server refused; the description is the server's message. */
  resetFailedTitle: 'Reset Failed',
  passwordUpdateFailedTitle: 'Password Update Failed',
  sessionExpired: { title: 'Session Expired', description: 'Your session has expired. Please log in again.' },
  /** The member's access to the organization they were managing ended (deactivated, removed). */
  membershipEnded: {
    title: 'Access Denied',
    description: 'You no longer have access to this organization. Choose another one, or ask one of its administrators.',
  },
  invitationUnknown: {
    title: 'Invitation Not Found',
    description: 'This invitation link is not valid. Check that you opened the whole link from your email.',
  },
  invitationUsed: {
    title: 'Invitation Already Used',
    description: 'This invitation has already been accepted. Sign in with your email and password instead.',
  },
  invitationExpired: {
    title: 'Invitation Expired',
    description: 'This invitation has expired. Ask an administrator of the organization to invite you again.',
  },
  /** The invited address has an account, and the password given is not its password. */
  invitationWrongPassword: {
    title: 'Incorrect Password',
    description: 'This email already has an account. Enter its password to accept the invitation.',
  },
} as const satisfies Record<string, Notice | string>;

/** 'Welcome to {organization}': shown after accepting an invitation with a non-admin role. */
export function invitationWelcome(organizationName: string, role: string): Notice {
  return {
    title: 'Invitation Accepted',
    description: `Welcome to ${organizationName}. You are signed in as ${role}.`,
  };
}
