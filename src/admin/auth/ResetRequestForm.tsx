import { useState, type SubmitEvent } from 'react';
import { requestPasswordReset } from '../../lib/back-office/auth-api';
import { PasswordResetRequestSchema } from '../../schemas/auth';
import { toast } from '../../stores/toast';
import FormField, { fieldErrors, SubmitButton } from './FormField';

/** 'Forgot your password?': mails a reset link leading back to /auth (same answer for any address). */
export default function ResetRequestForm({ onBack }: { onBack: () => void }) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = PasswordResetRequestSchema.safeParse({ email: new FormData(event.currentTarget).get('email') });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    const result = await requestPasswordReset(parsed.data.email);
    setBusy(false);
    toast({ title: result.title, description: result.description, variant: result.ok ? 'default' : 'destructive' });
    if (result.ok) onBack();
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-muted-foreground">Enter your email and we will send you a link to set a new password.</p>
      <FormField label="Email" name="email" type="email" autoComplete="email" required error={errors.email} disabled={busy} />
      <SubmitButton busy={busy} label="Send Reset Email" busyLabel="Sending..." />
      <button type="button" onClick={onBack} className="w-full text-sm text-primary underline-offset-4 hover:underline">
        Back to sign in
      </button>
    </form>
  );
}
