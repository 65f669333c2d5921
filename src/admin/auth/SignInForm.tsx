import { useState, type SubmitEvent } from 'react';
import { toast } from '../../stores/toast';
import { signInAndEnter } from './enter-admin';
import FormField, { fieldErrors, SubmitButton } from './FormField';

/**
 * Email and password; active admins continue to /admin (or, with `next`, every active member to that blog
 * management path), everyone else sees why not. The schema (and Zod with it) loads on the first submit, so the
 * page's first screen needs neither.
 */
export default function SignInForm({ next, onForgotPassword }: { next: string | null; onForgotPassword: () => void }) {
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { SignInSchema } = await import('../../schemas/auth');
    const parsed = SignInSchema.safeParse({ email: form.get('email'), password: form.get('password') });
    if (!parsed.success) {
      setErrors(fieldErrors(parsed.error.issues));
      return;
    }
    setErrors({});
    setBusy(true);
    const failure = await signInAndEnter(parsed.data.email, parsed.data.password, next);
    if (failure) {
      toast({ title: failure.title, description: failure.description, variant: 'destructive' });
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormField label="Email" name="email" type="email" autoComplete="username" required error={errors.email} disabled={busy} />
      <FormField label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} disabled={busy} />
      <SubmitButton busy={busy} label="Sign In" busyLabel="Signing In..." />
      <button type="button" onClick={onForgotPassword} className="w-full text-sm text-primary underline-offset-4 hover:underline">
        Forgot your password?
      </button>
    </form>
  );
}
