import { useState } from 'react';
import { listInvitations, requestInvitationAction, type InvitationRow, type InvitationState } from '../../../lib/back-office/users';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import { $staffChanged, notifyStaffChanged } from '../../stores/staff';
import { toast } from '../../../stores/toast';
import { RoleBadge } from './RoleBadge';
import { Badge, type BadgeVariant } from '../../components/ui/Badge';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { Dialog } from '../../components/ui/Dialog';
import { EmailAddress } from '../../components/ui/EmailAddress';
import { EmptyState } from '../../components/ui/EmptyState';
import { Input } from '../../components/ui/Input';
import { RelativeTime } from '../../components/ui/RelativeTime';
import { Skeleton } from '../../components/ui/Skeleton';
import { Table, Td, Th } from '../../components/ui/Table';
import { useLiveReload } from '../../use-live-reload';
import { useLoad } from '../../use-load';

const STATE_BADGE: Record<InvitationState, BadgeVariant> = { pending: 'outline', accepted: 'success', expired: 'neutral', revoked: 'destructive' };
const STATE_LABEL: Record<InvitationState, string> = { pending: 'Pending', accepted: 'Accepted', expired: 'Expired', revoked: 'Revoked' };

/**
 * The organization's invitations with their state; a pending or expired one can be resent (its link shown when
 * no mail could be sent) or revoked after a confirmation. Reloads whenever members or invitations change, here
 * or elsewhere (an invitee accepting shows as Accepted without a reload).
 */
export function InvitationsPanel({ organizationId }: { organizationId: string }) {
  const client = supabaseBrowser();
  const [revoking, setRevoking] = useState<InvitationRow | null>(null);
  const [revokeBusy, setRevokeBusy] = useState(false);
  const [resentLink, setResentLink] = useState<{ email: string; link: string; message: string } | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const list = useLoad(() => listInvitations(client, organizationId), [client, organizationId]);
  useLiveReload(list.reload, $staffChanged);
  // An invitation list that cannot be read shows as empty (the failure is logged).
  const invitations = list.state === 'error' ? [] : (list.value ?? null);

  async function resend(invitation: InvitationRow) {
    setBusyId(invitation.id);
    try {
      const answer = await requestInvitationAction(client, organizationId, invitation.id, 'resend');
      if (answer.mail === 'sent') toast({ title: 'Invitation Resent', description: answer.message });
      else setResentLink({ email: invitation.email, link: answer.link ?? '', message: answer.message });
      notifyStaffChanged();
    } catch (failure) {
      toast({ title: 'Error', description: failure instanceof Error ? failure.message : 'Failed to resend the invitation.', variant: 'destructive' });
    } finally {
      setBusyId(null);
    }
  }

  async function revoke(invitation: InvitationRow) {
    setRevokeBusy(true);
    try {
      const answer = await requestInvitationAction(client, organizationId, invitation.id, 'revoke');
      toast({ title: 'Invitation Revoked', description: answer.message });
      notifyStaffChanged();
    } catch (failure) {
      toast({ title: 'Error', description: failure instanceof Error ? failure.message : 'The request failed.', variant: 'destructive' });
    } finally {
      setRevokeBusy(false);
      setRevoking(null);
    }
  }

  return (
    <>
      {!invitations ? <Skeleton /> : invitations.length === 0 ? <EmptyState title="No invitations yet" /> : (
        <Table stacked>
          <caption className="sr-only">Invitations</caption>
          <thead className="max-sm:hidden">
            <tr><Th>Email</Th><Th>Role</Th><Th>Status</Th><Th className="hidden sm:table-cell">Invited</Th><Th><span className="sr-only">Actions</span></Th></tr>
          </thead>
          <tbody>
            {invitations.map((invitation) => (
              // On a phone each invitation is a card: the address, then role and state, then the actions.
              <tr key={invitation.id} className="max-sm:grid-cols-[auto_auto_1fr]">
                <Td className="max-sm:col-span-3"><EmailAddress email={invitation.email} /></Td>
                <Td><RoleBadge role={invitation.role} /></Td>
                <Td><Badge variant={STATE_BADGE[invitation.state]} data-testid="invitation-state">{STATE_LABEL[invitation.state]}</Badge></Td>
                <Td className="hidden sm:table-cell"><RelativeTime date={invitation.created_at} /></Td>
                <Td className="max-sm:col-span-3 max-sm:empty:hidden">
                  {(invitation.state === 'pending' || invitation.state === 'expired') && (
                    <div className="flex flex-wrap gap-1">
                      <Button size="sm" variant="outline" disabled={busyId === invitation.id} aria-label={`Resend invitation to ${invitation.email}`}
                        onClick={() => void resend(invitation)}>Resend</Button>
                      <Button size="sm" variant="destructive" disabled={busyId === invitation.id} aria-label={`Revoke invitation to ${invitation.email}`}
                        onClick={() => setRevoking(invitation)}>Revoke</Button>
                    </div>
                  )}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke Invitation"
        description={revoking ? `Revoke the invitation of ${revoking.email}? Its link will stop working.` : ''}
        confirmLabel="Revoke"
        destructive
        busy={revokeBusy}
        onCancel={() => setRevoking(null)}
        onConfirm={() => revoking && void revoke(revoking)}
      />
      <Dialog open={resentLink !== null} onClose={() => setResentLink(null)} title="Invitation Link" description={resentLink?.email}>
        {resentLink && (
          <div className="space-y-3">
            <p role="alert" className="text-sm" data-testid="invitation-mail-status">{resentLink.message}</p>
            <Input readOnly aria-label="Invitation link" value={resentLink.link} data-testid="invitation-link" />
            <div className="flex justify-end"><Button onClick={() => setResentLink(null)}>Done</Button></div>
          </div>
        )}
      </Dialog>
    </>
  );
}
