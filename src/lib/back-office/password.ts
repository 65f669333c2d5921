/**
 * Changing one's own password from the Profile tab: the current password is confirmed by signing in again
 * with a separate client that keeps no session, then the password is updated under the admin's session,
 * every other session of the user is ended and `password_changed` is logged.
 */
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { z } from '../../schemas/zod.ts';
import { NewPasswordValueSchema } from '../../schemas/auth.ts';
import { logActivity } from './activity.ts';
import { publicSupabaseConfig } from '../supabase-config.ts';

/** The Change Password form: the back office's password rules, and a confirmation that must match. */
export const ChangePasswordSchema = z
  .object({
    currentPassword: z.string().min(1, 'Enter your current password'),
    newPassword: NewPasswordValueSchema,
    confirmPassword: z.string(),
  })
  .refine((value) => value.newPassword === value.confirmPassword, { message: "Passwords don't match", path: ['confirmPassword'] })
  .refine((value) => value.newPassword !== value.currentPassword, { message: 'Choose a password different from the current one', path: ['newPassword'] });
export type ChangePassword = z.infer<typeof ChangePasswordSchema>;

/** A refusal whose message is meant for the user (shown instead of the generic failure text). */
export class PasswordChangeError extends Error {}

/**
 * Changes the signed-in user's password. Throws PasswordChangeError when the current password is wrong or
 * the server refuses the new one (its message), other errors when a request fails.
 */
export async function changeOwnPassword(
  client: SupabaseClient,
  user: { id: string; email: string },
  form: ChangePassword,
  config: { url: string; anonKey: string } = publicSupabaseConfig(),
): Promise<void> {
  const verifier = createClient(config.url, config.anonKey, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
  const { error: verifyError } = await verifier.auth.signInWithPassword({ email: user.email, password: form.currentPassword });
  if (verifyError) throw new PasswordChangeError('Your current password is incorrect.');
  // The check's own session is not needed: end it at once rather than leaving it to expire.
  await verifier.auth.signOut({ scope: 'local' });
  const { error } = await client.auth.updateUser({ password: form.newPassword });
  if (error) throw new PasswordChangeError(error.message);
  const { error: signOutError } = await client.auth.signOut({ scope: 'others' });
  if (signOutError) throw new Error(`The password was changed, but ending your other sessions failed: ${signOutError.message}`);
  await logActivity(client, 'password_changed');
}
