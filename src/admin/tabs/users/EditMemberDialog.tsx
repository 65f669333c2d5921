import { useState, type FormEvent } from 'react';
import { LastAdminError, updateMember, type StaffProfile } from '../../../lib/back-office/users';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { MemberEditSchema, type Role } from '../../../schemas/user';
import { toast } from '../../../stores/toast';
import { ROLE_OPTIONS } from './RoleBadge';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Field, Input } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';

/**
 * Edit User: an admin sets a member's name, phone and role in this organization. One SQL call checks the
 * caller, saves and logs `profile_updated_by_admin` with what changed.
 */
export default function EditMemberDialog({ member, organizationId, onClose, onSaved }: {
  member: StaffProfile | null;
  organizationId: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <Dialog open={member !== null} onClose={onClose} title="Edit User" description={member?.email}>
      {member && <EditMemberForm key={member.id} member={member} organizationId={organizationId} onClose={onClose} onSaved={onSaved} />}
    </Dialog>
  );
}

/** The form, keyed by member: each member starts from their own values. */
function EditMemberForm({ member, organizationId, onClose, onSaved }: {
  member: StaffProfile;
  organizationId: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form, setForm] = useState({ full_name: member.full_name ?? '', phone: member.phone ?? '', role: member.role as Role });
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = MemberEditSchema.safeParse(form);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      setProblem(issue?.path[0] === 'phone' ? 'Enter a valid phone number.' : (issue?.message ?? 'Check the fields.'));
      return;
    }
    setProblem(null);
    setBusy(true);
    try {
      const changes = await updateMember(supabaseBrowser(), organizationId, member.id, parsed.data);
      toast(Object.keys(changes).length
        ? { title: 'User Updated', description: `${parsed.data.full_name || member.email} was updated.` }
        : { title: 'No Changes', description: 'Nothing was changed.' });
      onSaved();
      onClose();
    } catch (error) {
      toast({ title: 'Error', description: error instanceof LastAdminError ? error.message : 'Failed to update the user.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <Field label="Full Name">{(p) => <Input {...p} maxLength={120} value={form.full_name} onChange={(e) => setForm({ ...form, full_name: e.target.value })} />}</Field>
      <Field label="Phone">{(p) => <Input {...p} type="tel" value={form.phone} onChange={(e) => setForm({ ...form, phone: e.target.value })} />}</Field>
      <Field label="Role">{(p) => <Select {...p} options={ROLE_OPTIONS} value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value as Role })} />}</Field>
      {problem && <p role="alert" className="text-sm text-red-700">{problem}</p>}
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onClose} disabled={busy}>Cancel</Button>
        <Button type="submit" disabled={busy}>{busy ? 'Saving...' : 'Save Changes'}</Button>
      </div>
    </form>
  );
}
