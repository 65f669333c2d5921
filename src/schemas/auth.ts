import { z } from './zod.ts';
import { EmailSchema } from './common.ts';
import type { Role } from './user.ts';

/** Largest body the sign-in and invitation functions read; anything bigger is refused with 413. */
export const AUTH_REQUEST_MAX_BYTES = 10 * 1024;

/** Supabase Auth hashes passwords with bcrypt, which ignores everything after 72 bytes. */
const PASSWORD_MAX_LENGTH = 72;

/**
 * The sign-in form and the body of `POST /api/auth/sign-in`. Every active member signs in; where they land
 * depends on their role in the organization they manage (admins /admin, editors and viewers /admin/blog).
 */
export const SignInSchema = z
  .object({
    /** The account's address; compared case-insensitively. */
    email: EmailSchema,
    /** Checked by Supabase Auth only; never logged or stored by us. */
    password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
  })
  .strict();
export type SignIn = z.infer<typeof SignInSchema>;

/**
 * The body of `POST /api/auth/sign-out`: the access token of a session one of our functions handed over and
 * the browser could not take up. Holding the token is what proves the session is the caller's.
 */
export const SignOutSchema = z
  .object({
    access_token: z
      .string()
      .max(4096, 'The access token is too long')
      .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/, 'The access token is malformed'),
  })
  .strict();

/** The 'Forgot your password?' form. */
export const PasswordResetRequestSchema = z.object({ email: EmailSchema }).strict();
export type PasswordResetRequest = z.infer<typeof PasswordResetRequestSchema>;

/** A new password: the back office's rules, with its exact messages. */
export const NewPasswordValueSchema = z
  .string()
  .min(8, 'Password must be at least 8 characters')
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number');

/** The set-new-password form reached from a reset link: the confirmation must repeat the password. */
export const NewPasswordSchema = z
  .object({
    newPassword: NewPasswordValueSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: "Passwords don't match",
    path: ['confirmPassword'],
  });
export type NewPassword = z.infer<typeof NewPasswordSchema>;

/**
 * The secret in an invitation link (`/auth?invite={token}`): a random UUID for new invitations, but any
 * URL-safe string is accepted so older or hand-made tokens keep working. Only its SHA-256 is stored.
 */
export const InvitationTokenSchema = z
  .string()
  .trim()
  .min(8, 'The invitation link is incomplete')
  .max(200, 'The invitation link is too long')
  .regex(/^[A-Za-z0-9_-]+$/, 'The invitation link is malformed');

/** A person's name as they give it when accepting an invitation (profiles.full_name). */
export const FullNameSchema = z.string().trim().min(1, 'Full name is required').max(120, 'Full name must be at most 120 characters');

/**
 * The body of `POST /api/invitations/accept`. A new account gives a name and a password that follows the
 * rules; someone whose address already has an account gives only that account's password (whatever rules
 * it was made under), which proves the account is theirs.
 */
export const AcceptInvitationSchema = z
  .object({
    token: InvitationTokenSchema,
    /** The name the new member gives themselves (profiles.full_name); not used for an existing account. */
    full_name: FullNameSchema.optional(),
    password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
  })
  .strict()
  .superRefine((value, context) => {
    if (value.full_name === undefined) return;
    const rules = NewPasswordValueSchema.safeParse(value.password);
    for (const issue of rules.success ? [] : rules.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: ['password'] });
  });
export type AcceptInvitation = z.infer<typeof AcceptInvitationSchema>;

/** What the invitation page shows before the person sets a name and password. */
export interface InvitationDetails {
  email: string;
  role: Role;
  organization: { id: string; name: string };
  /** The inviter's name (or e-mail when they gave no name); null when their account is gone. */
  invitedBy: string | null;
  expiresAt: string;
  /** The address already has an account: accepting asks for its password instead of a new one. */
  hasAccount: boolean;
}

/** Why an invitation cannot be used. */
export type InvitationProblem = 'unknown' | 'used' | 'expired';
