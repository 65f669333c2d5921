import { useEffect, useState, type SubmitEvent } from 'react';
import { invitationWelcome, type Notice } from '../../lib/auth-messages';
import { fetchInvitation, requestInvitationAcceptance } from '../../lib/back-office/auth-api';
import type { InvitationDetails } from '../../schemas/auth';
import { FullNameSchema, NewPasswordSchema } from '../../schemas/auth';
import { toast } from '../../stores/toast';
import { enterWithSession } from './enter-admin';
import FormField, { fieldErrors, SubmitButton } from './FormField';

type State = { kind: 'loading' } | { kind: 'problem'; notice: Notice } | { kind: 'ready'; invitation: InvitationDetails };

const roleLabel = (role: string) => role.charAt(0).toUpperCase() + role.slice(1);

/**
 * `/auth?invite={token}`: shows who invited the person, to which organization and role. A new address
 * chooses a name and password and the account is created; an address that already has an account gives its
 * password and joins. Either way they are signed in (admins to /admin, others to the site).
 */
export default function InvitationForm({ token, onSignIn }: { token: string; onSignIn: () => void }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    let current = true;
    fetchInvitation(token).then((result) => {
      if (!current) return;
      setState('invitation' in result ? { kind: 'ready', invitation: result.invitation } : { kind: 'problem', notice: result.failure });
    });
    return () => {
      current = false;
    };
  }, [token]);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.kind !== 'ready') return;
    const form = new FormData(event.currentTarget);
    let fullName: string | undefined;
    let password: string;
    if (state.invitation.hasAccount) {
      password = String(form.get('password') ?? '');
      if (!password) {
        setErrors({ password: 'Password is required' });
        return;
      }
    } else {
      const name = FullNameSchema.safeParse(form.get('fullName'));
      const passwords = NewPasswordSchema.safeParse({ newPassword: form.get('newPassword'), confirmPassword: form.get('confirmPassword') });
      if (!name.success || !passwords.success) {
        setErrors({ ...(name.success ? {} : { fullName: name.error.issues[0]?.message ?? 'Full name is required' }), ...(passwords.success ? {} : fieldErrors(passwords.error.issues)) });
        return;
      }
      fullName = name.data;
      password = passwords.data.newPassword;
    }
    setErrors({});
    setBusy(true);
    const result = await requestInvitationAcceptance(token, fullName, password);
    if ('failure' in result) {
      if (result.failure.status === 404 || result.failure.status === 410) setState({ kind: 'problem', notice: result.failure });
      else toast({ title: result.failure.title, description: result.failure.description, variant: 'destructive' });
      setBusy(false);
      return;
    }
    const failure = await enterWithSession(result.session, {
      notice: invitationWelcome(result.organization.name, result.role),
      organizationId: result.organization.id,
    });
    if (failure) {
      // The invitation is used up by now (the membership exists): what is left is signing in again.
      toast({ title: failure.title, description: failure.description, variant: 'destructive' });
      onSignIn();
    }
  }

  if (state.kind === 'loading') return <p className="text-muted-foreground">Checking your invitation...</p>;
  if (state.kind === 'problem') {
    return (
      <div className="space-y-4">
        <div role="alert" className="rounded-md border border-red-700 p-4">
          <p className="font-semibold">{state.notice.title}</p>
          <p className="mt-1 text-sm">{state.notice.description}</p>
        </div>
        <button type="button" onClick={onSignIn} className="w-full text-sm text-primary underline-offset-4 hover:underline">
          Go to sign in
        </button>
      </div>
    );
  }

  const { invitation } = state;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p data-testid="invitation-summary">
        {invitation.invitedBy ?? 'An administrator'} invited you to join <strong>{invitation.organization.name}</strong> as{' '}
        <strong>{roleLabel(invitation.role)}</strong>.
      </p>
      <FormField label="Email" name="email" type="email" value={invitation.email} readOnly autoComplete="username" />
      {invitation.hasAccount ? (
        <>
          <p className="text-sm text-muted-foreground">This email already has an account. Enter its password to join.</p>
          <FormField label="Password" name="password" type="password" autoComplete="current-password" required error={errors.password} disabled={busy} />
          <SubmitButton busy={busy} label="Accept Invitation" busyLabel="Joining..." />
        </>
      ) : (
        <>
          <FormField label="Full Name" name="fullName" autoComplete="name" required error={errors.fullName} disabled={busy} />
          <FormField label="Password" name="newPassword" type="password" autoComplete="new-password" required error={errors.newPassword} disabled={busy} />
          <FormField label="Confirm Password" name="confirmPassword" type="password" autoComplete="new-password" required error={errors.confirmPassword} disabled={busy} />
          <SubmitButton busy={busy} label="Accept Invitation" busyLabel="Creating Account..." />
        </>
      )}
    </form>
  );
}
