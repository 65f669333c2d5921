import { useState, type FormEvent } from 'react';
import { requestInvitation, type SentInvitation } from '../../../lib/back-office/users';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import type { Role } from '../../../schemas/user';
import { ROLE_OPTIONS } from './RoleBadge';
import { toast } from '../../../stores/toast';
import { Button } from '../../components/ui/Button';
import { Dialog } from '../../components/ui/Dialog';
import { Field, Input } from '../../components/ui/Input';
import { Select } from '../../components/ui/Select';

/**
 * Send Invitation: creates and mails the invitation through `POST /api/admin/invitations`, then says
 * whether the email went out and shows the link to copy (the only way to pass it on when it did not).
 */
export default function InviteDialog({ open, organizationId, onClose, onInvited }: { open: boolean; organizationId: string; onClose: () => void; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const [sent, setSent] = useState<SentInvitation | null>(null);
  const [busy, setBusy] = useState(false);

  function close() {
    setEmail('');
    setRole('viewer');
    setSent(null);
    onClose();
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const created = await requestInvitation(supabaseBrowser(), organizationId, { email, role });
      setSent(created);
      toast(created.mail === 'sent'
        ? { title: 'Invitation Sent', description: created.message }
        : { title: 'Invitation Created', description: created.message, variant: 'destructive' });
      onInvited();
    } catch (error) {
      toast({ title: 'Error', description: error instanceof Error ? error.message : 'Failed to send invitation.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={close} title="Send Invitation" description="Invite a person to join this organization.">
      {sent ? (
        <div className="space-y-3">
          <p data-testid="invitation-mail-status" role={sent.mail === 'sent' ? 'status' : 'alert'}
            className={sent.mail === 'sent' ? 'text-sm' : 'rounded-md border border-destructive/50 bg-destructive/10 p-3 text-sm'}>
            {sent.message}
          </p>
          <Field label="Invitation link (valid 7 days)">{(p) => <Input {...p} readOnly value={sent.link} data-testid="invitation-link" />}</Field>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => navigator.clipboard.writeText(sent.link).then(() => toast({ title: 'Copied!' }))}>Copy Link</Button>
            <Button onClick={close}>Done</Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4">
          <Field label="Email Address*">{(p) => <Input {...p} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}</Field>
          <Field label="Role*">{(p) => <Select {...p} options={ROLE_OPTIONS} value={role} onChange={(e) => setRole(e.target.value as Role)} />}</Field>
          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={close} disabled={busy}>Cancel</Button>
            <Button type="submit" disabled={busy || !email}>{busy ? 'Sending...' : 'Send Invitation'}</Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
