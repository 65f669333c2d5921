import { useState, type FormEvent } from 'react';
import { Button } from '../components/ui/Button';
import { Card, CardHeader } from '../components/ui/Card';
import { Field, Input } from '../components/ui/Input';
import { ChangePasswordSchema, changeOwnPassword, PasswordChangeError, type ChangePassword } from '../../lib/password';
import { supabaseBrowser } from '../../lib/supabase-browser';
import { toast } from '../../stores/toast';
import type { AdminTabProps } from './index';

const EMPTY: ChangePassword = { currentPassword: '', newPassword: '', confirmPassword: '' };
const FIELDS: { name: keyof ChangePassword; label: string; autoComplete: string }[] = [
  { name: 'currentPassword', label: 'Current Password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New Password', autoComplete: 'new-password' },
  { name: 'confirmPassword', label: 'Confirm New Password', autoComplete: 'new-password' },
];

/** Profile: change one's own password, with the rules and tips (spec back-office 4). */
export default function ProfileTab({ user }: AdminTabProps) {
  const [values, setValues] = useState<ChangePassword>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<keyof ChangePassword, string>>>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ChangePasswordSchema.safeParse(values);
    if (!parsed.success) {
      const found: Partial<Record<keyof ChangePassword, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof ChangePassword;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await changeOwnPassword(supabaseBrowser(), { id: user.id, email: user.email ?? '' }, parsed.data);
      setValues(EMPTY);
      toast({ title: 'Success', description: 'Your password has been changed successfully.' });
    } catch (error) {
      console.error(error);
      const description = error instanceof PasswordChangeError ? error.message : 'Failed to change password. Please try again.';
      toast({ title: 'Error', description, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-semibold">Profile Settings</h2>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader title="Change Password" description={`Signed in as ${user.email ?? 'unknown'}. Your other sessions end after the change.`} />
          <form onSubmit={submit} noValidate className="space-y-4">
            {FIELDS.map((field) => (
              <Field key={field.name} label={field.label} error={errors[field.name]}>
                {(control) => (
                  <Input
                    {...control}
                    name={field.name}
                    type="password"
                    autoComplete={field.autoComplete}
                    value={values[field.name]}
                    onChange={(e) => setValues({ ...values, [field.name]: e.target.value })}
                  />
                )}
              </Field>
            ))}
            <Button type="submit" disabled={busy}>
              {busy ? 'Changing Password...' : 'Change Password'}
            </Button>
          </form>
        </Card>
        <Card>
          <CardHeader title="Security Information" />
          <h4 className="text-sm font-semibold">Password requirements</h4>
          <ul className="mb-4 list-disc pl-5 text-sm text-muted-foreground">
            <li>At least 8 characters long</li>
            <li>Contains uppercase and lowercase letters</li>
            <li>Contains at least one number</li>
            <li>Avoid using personal information</li>
          </ul>
          <h4 className="text-sm font-semibold">Security tips</h4>
          <ul className="list-disc pl-5 text-sm text-muted-foreground">
            <li>Use a unique password for your admin account</li>
            <li>Consider using a password manager</li>
            <li>Log out when using shared computers</li>
          </ul>
        </Card>
      </div>
    </div>
  );
}
