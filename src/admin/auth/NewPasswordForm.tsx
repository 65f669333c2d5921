import { useState, type SubmitEvent } from 'react';
import { updatePassword } from '../../lib/back-office/auth-api';
import { NewPasswordSchema } from '../../schemas/auth';
import { endRecovery, signOut } from '../stores/session';
import { toast } from '../../stores/toast';
import { signInAndEnter } from './enter-admin';
import FormField, { fieldErrors, SubmitButton } from './FormField';

/**
 * The set-new-password form a reset link opens. After saving, the recovery session is ended and the user
 * goes on like a sign-in with the new password (admins to /admin).
 */
export default function NewPasswordForm({ email, next, onDone }: { email: string; next: string | null; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const parsed = NewPasswordSchema.safeParse({ newPassword: form.get('newPassword'), confirmPassword: form.get('confirmPassword') });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    const refused = await updatePassword(parsed.data.newPassword);
    if (refused) {
      toast({ ...refused, variant: 'destructive' });
      setBusy(false);
      return;
    }
    endRecovery();
    await signOut();
    const failure = await signInAndEnter(email, parsed.data.newPassword, next);
    if (failure) {
      toast({ title: failure.title, description: failure.description, variant: 'destructive' });
      onDone();
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-muted-foreground">
        Choose a new password for <span className="font-medium text-foreground">{email}</span>: at least 8 characters with
        upper and lower case letters and a number.
      </p>
      <FormField label="New Password" name="newPassword" type="password" autoComplete="new-password" required error={errors.newPassword} disabled={busy} />
      <FormField label="Confirm New Password" name="confirmPassword" type="password" autoComplete="new-password" required error={errors.confirmPassword} disabled={busy} />
      <SubmitButton busy={busy} label="Set New Password" busyLabel="Saving..." />
    </form>
  );
}
