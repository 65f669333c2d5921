import { z } from './zod.ts';
import { blankAsUndefined, EmailSchema, HttpUrlSchema, ImageUrlSchema, PhoneSchema } from './common.ts';

/** Staff roles, from least to most access: viewer reads, editor writes content, admin manages everything. */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** Profile fields a user edits about themselves (the author card and contact details). */
export const ProfileDetailsSchema = z.object({
  full_name: blankAsUndefined(z.string().trim().max(120)),
  bio: blankAsUndefined(z.string().trim().max(2000)),
  phone: blankAsUndefined(PhoneSchema),
  author_title: blankAsUndefined(z.string().trim().max(120)),
  author_website: blankAsUndefined(HttpUrlSchema),
  avatar_url: blankAsUndefined(ImageUrlSchema),
});
export type ProfileDetails = z.infer<typeof ProfileDetailsSchema>;

/** The Create User dialog: email, full name, role and temporary password are required. */
export const CreateUserSchema = z.object({
  email: EmailSchema,
  full_name: z.string().trim().min(1, 'Full name is required').max(120),
  role: RoleSchema,
  password: z.string().min(8, 'Password must be at least 8 characters').max(72),
  phone: blankAsUndefined(PhoneSchema),
  bio: blankAsUndefined(z.string().trim().max(2000)),
});
export type CreateUser = z.infer<typeof CreateUserSchema>;

/** An invitation to join the current organization with a role. */
export const InvitationSchema = z.object({
  email: EmailSchema,
  role: RoleSchema.default('viewer'),
});
export type Invitation = z.infer<typeof InvitationSchema>;

/** An admin's edit of a member (Edit User dialog): name and phone (blank clears them) and the role in the organization. */
export const MemberEditSchema = z.object({
  full_name: blankAsUndefined(z.string().trim().max(120)),
  phone: blankAsUndefined(PhoneSchema),
  role: RoleSchema,
});
export type MemberEdit = z.infer<typeof MemberEditSchema>;

/** What an admin does with an invitation: send it again with a new link, or revoke it. */
export const INVITATION_ACTIONS = ['resend', 'revoke'] as const;
export const InvitationActionSchema = z.object({
  invitation_id: z.uuid(),
  action: z.enum(INVITATION_ACTIONS),
});
export type InvitationAction = z.infer<typeof InvitationActionSchema>;

/** An admin asks for a password reset mail for a member. */
export const MemberPasswordResetSchema = z.object({ user_id: z.uuid() });
export type MemberPasswordReset = z.infer<typeof MemberPasswordResetSchema>;

/** The newsletter form. */
export const NewsletterSignupSchema = z.object({ email: EmailSchema });
export type NewsletterSignup = z.infer<typeof NewsletterSignupSchema>;
