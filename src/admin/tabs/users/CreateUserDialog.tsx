import { useState, type FormEvent } from 'react';
import { generatePassword, requestCreateUser } from '../../../lib/back-office/users';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import type { Role } from '../../../schemas/user';
import { ROLE_OPTIONS } from './RoleBadge';
import { toast } from '../../../stores/toast';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Field, Input, Textarea } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';

const EMPTY = { email: '', full_name: '', role: 'viewer' as Role, password: '', phone: '', bio: '' };

/** Create New User: the account is created by `POST /api/admin/users`. */
export default function CreateUserDialog({
  open,
  organizationId,
  onClose,
  onCreated,
}: {
  open: boolean;
  organizationId: string;
  onClose: () => void;
  onCreated: () => void;
}) {
  const [form, setForm] = useState(EMPTY);
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof typeof EMPTY) => (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      await requestCreateUser(supabaseBrowser(), organizationId, { ...form, phone: form.phone || undefined, bio: form.bio || undefined });
      toast({ title: 'User Created Successfully', description: `User ${form.email} has been created and a password reset link has been sent.` });
      setForm(EMPTY);
      onCreated();
      onClose();
    } catch (error) {
      toast({ title: 'Error', description: error instanceof Error ? error.message : 'Failed to create user.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title="Create New User" description="Create a staff account in this organization.">
      <form onSubmit={submit} className="space-y-4">
        <p className="rounded-md border border-border bg-muted p-3 text-sm">
          Security notice: share the temporary password through a safe channel. The user also receives a password reset link
          and should choose their own password.
        </p>
        <Field label="Email Address*">{(p) => <Input {...p} type="email" required value={form.email} onChange={set('email')} autoComplete="off" />}</Field>
        <Field label="Full Name*">{(p) => <Input {...p} required value={form.full_name} onChange={set('full_name')} />}</Field>
        <Field label="Role*" error={form.role === 'admin' ? 'Warning: the admin role gives full access, including user management.' : undefined}>
          {(p) => <Select {...p} aria-invalid={undefined} options={ROLE_OPTIONS} value={form.role} onChange={set('role')} />}
        </Field>
        <Field label="Temporary Password*">
          {(p) => (
            <div className="flex gap-2">
              <Input {...p} type={showPassword ? 'text' : 'password'} required value={form.password} onChange={set('password')} autoComplete="new-password" />
              <Button variant="outline" size="sm" onClick={() => setShowPassword(!showPassword)} aria-pressed={showPassword}>
                {showPassword ? 'Hide' : 'Show'}
              </Button>
              <Button variant="outline" size="sm" onClick={() => { setForm({ ...form, password: generatePassword() }); setShowPassword(true); }}>
                Generate
              </Button>
            </div>
          )}
        </Field>
        <Field label="Phone">{(p) => <Input {...p} type="tel" value={form.phone} onChange={set('phone')} />}</Field>
        <Field label="Bio">{(p) => <Textarea {...p} rows={3} value={form.bio} onChange={set('bio')} />}</Field>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 text-xs text-muted-foreground">
          <dt className="font-semibold">Viewer</dt><dd>can view content and basic access</dd>
          <dt className="font-semibold">Editor</dt><dd>can create, edit and manage content</dd>
          <dt className="font-semibold">Admin</dt><dd>full access including user management</dd>
        </dl>
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose} disabled={busy}>Cancel</Button>
          <Button type="submit" disabled={busy || !form.email || !form.full_name || !form.password}>
            {busy ? 'Creating...' : 'Create User'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
