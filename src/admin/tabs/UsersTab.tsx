import { useEffect, useRef, useState } from 'react';
import {
  changeRole, countStaff, LastAdminError, listInvitations, listStaff, recentActivity, requestInvitationAction, requestPasswordReset, setActive,
  type InvitationRow, type InvitationState, type StaffProfile,
} from '../../lib/back-office/users';
import { activitySentence } from '../../lib/back-office/activity-sentences';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import type { Role } from '../../schemas/user';
import { notifyStaffChanged } from '../../stores/staff';
import { toast } from '../../stores/toast';
import BulkActionsBar from '../components/BulkActionsBar';
import CreateUserDialog from '../components/CreateUserDialog';
import EditMemberDialog from '../components/EditMemberDialog';
import InviteDialog from '../components/InviteDialog';
import { RoleBadge } from '../components/RoleBadge';
import { Badge, type BadgeVariant } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import { StatCard } from '../components/ui/Card';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { Dialog } from '../components/ui/Dialog';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Input } from '../components/ui/Input';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import { Table, Td, Th } from '../components/ui/Table';
import { TabPanel, Tabs } from '../components/ui/Tabs';
import { useDebounced } from '../use-debounced';
import { useLoad } from '../use-load';
import { useUrlParam } from '../use-url-param';
import type { AdminTabProps } from './index';

const ROLE_FILTER = [{ value: '', label: 'All Roles' }, { value: 'admin', label: 'Admin' }, { value: 'editor', label: 'Editor' }, { value: 'viewer', label: 'Viewer' }];
const ROLE_OPTIONS = ROLE_FILTER.slice(1);
const STATE_BADGE: Record<InvitationState, BadgeVariant> = { pending: 'outline', accepted: 'success', expired: 'neutral', revoked: 'destructive' };
const STATE_LABEL: Record<InvitationState, string> = { pending: 'Pending', accepted: 'Accepted', expired: 'Expired', revoked: 'Revoked' };

/** How long typing in the search box pauses before the members are asked again (ms). */
const SEARCH_DELAY_MS = 250;

/** An action waiting for the admin's confirmation. */
type Pending = { kind: 'reset'; member: StaffProfile } | { kind: 'revoke'; invitation: InvitationRow };

/**
 * User Management (spec back-office 2): the members of the chosen organization (its memberships: role and
 * status there), with counts, search, filter, bulk actions, edit and reset mails; invitations with their
 * state, resend and revoke. Every change bumps $staffChanged so the System Overview counts again.
 */
export default function UsersTab({ organization }: AdminTabProps) {
  const client = supabaseBrowser();
  const [view, setView] = useUrlParam('view');
  const [dialog, setDialog] = useUrlParam('dialog');
  const [detailId, setDetailId] = useUrlParam('user');
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [editing, setEditing] = useState<StaffProfile | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [pendingBusy, setPendingBusy] = useState(false);
  const [resentLink, setResentLink] = useState<{ email: string; link: string; message: string } | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busyId, setBusyId] = useState<string | null>(null);
  // Typing pauses before the members are asked again.
  const query = useDebounced(search, SEARCH_DELAY_MS);
  const members = useLoad(
    () => listStaff(client, organization.id, { search: query, role: (role || undefined) as Role | undefined }),
    [client, organization.id, query, role],
    [organization.id],
  );
  const countLoad = useLoad(() => countStaff(client, organization.id), [client, organization.id]);
  const counts = countLoad.value ?? null;
  // An invitation list that cannot be read shows as empty (the failure is logged).
  const invitationList = useLoad(() => listInvitations(client, organization.id), [client, organization.id]);
  const invitations = invitationList.state === 'error' ? [] : (invitationList.value ?? null);
  const users = members.state === 'error' ? null : (members.value ?? null);
  const error = members.state === 'error' ? 'Failed to fetch users' : null;
  const reloadMembers = members.reload;
  const reloadInvitations = invitationList.reload;
  /** After a change: this tab's lists and counts load again, and the counters elsewhere too. */
  const changed = () => {
    reloadMembers();
    reloadInvitations();
    countLoad.reload();
    notifyStaffChanged();
  };

  async function updateOne(target: StaffProfile, change: { role: Role } | { is_active: boolean }) {
    setBusyId(target.id);
    try {
      if ('role' in change) {
        await changeRole(client, organization.id, [target.id], change.role);
        toast({ title: 'Role Updated', description: `User role changed to ${change.role}` });
      } else {
        await setActive(client, organization.id, [target.id], change.is_active);
        toast({ title: 'User Status Updated', description: `User ${change.is_active ? 'activated' : 'deactivated'} successfully` });
      }
      changed();
    } catch (failure) {
      const fallback = 'role' in change ? 'Failed to update user role' : 'Failed to update user status';
      toast({ title: 'Error', description: failure instanceof LastAdminError ? failure.message : fallback, variant: 'destructive' });
    } finally {
      setBusyId(null);
    }
  }

  async function confirmPending(action: Pending) {
    setPendingBusy(true);
    try {
      if (action.kind === 'reset') {
        const answer = await requestPasswordReset(client, organization.id, action.member.id);
        toast({ title: 'Password Reset Sent', description: answer.message });
      } else {
        const answer = await requestInvitationAction(client, organization.id, action.invitation.id, 'revoke');
        toast({ title: 'Invitation Revoked', description: answer.message });
        changed();
      }
    } catch (failure) {
      toast({ title: 'Error', description: failure instanceof Error ? failure.message : 'The request failed.', variant: 'destructive' });
    } finally {
      setPendingBusy(false);
      setPending(null);
    }
  }

  async function resend(invitation: InvitationRow) {
    setBusyId(invitation.id);
    try {
      const answer = await requestInvitationAction(client, organization.id, invitation.id, 'resend');
      if (answer.mail === 'sent') toast({ title: 'Invitation Resent', description: answer.message });
      else setResentLink({ email: invitation.email, link: answer.link ?? '', message: answer.message });
      changed();
    } catch (failure) {
      toast({ title: 'Error', description: failure instanceof Error ? failure.message : 'Failed to resend the invitation.', variant: 'destructive' });
    } finally {
      setBusyId(null);
    }
  }

  const visible = users ?? [];
  const chosen = visible.filter((row) => selected.has(row.id));
  const detail = visible.find((row) => row.id === detailId) ?? null;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-2xl font-semibold">User Management</h2>
          <p className="text-sm text-muted-foreground">Manage staff accounts, roles and invitations of {organization.name}.</p>
        </div>
        <div className="flex gap-2">
          <Button onClick={() => setDialog('create-user')}>Create User</Button>
          <Button variant="outline" onClick={() => setDialog('invite')}>Send Invitation</Button>
        </div>
      </div>
      <div className="grid grid-cols-2 gap-4 md:grid-cols-5">
        <StatCard label="Total Users" value={counts?.total ?? null} loading={!counts} />
        <StatCard label="Admins" value={counts?.admins ?? null} loading={!counts} />
        <StatCard label="Editors" value={counts?.editors ?? null} loading={!counts} />
        <StatCard label="Active" value={counts?.active ?? null} loading={!counts} />
        <StatCard label="Pending Invites" value={counts?.pendingInvites ?? null} loading={!counts} />
      </div>
      <Tabs items={[{ id: 'users', label: 'Users' }, { id: 'invitations', label: 'Invitations' }]} value={view === 'invitations' ? 'invitations' : 'users'}
        onChange={(id) => setView(id === 'users' ? null : id)} idPrefix="users" label="User lists" />
      {view === 'invitations' ? (
        <TabPanel idPrefix="users" id="invitations">
          {!invitations ? <Skeleton /> : invitations.length === 0 ? <EmptyState title="No invitations yet" /> : (
            <Table>
              <caption className="sr-only">Invitations</caption>
              <thead><tr><Th>Email</Th><Th>Role</Th><Th>Status</Th><Th className="hidden sm:table-cell">Invited</Th><Th><span className="sr-only">Actions</span></Th></tr></thead>
              <tbody>
                {invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <Td className="max-w-[12rem] break-all">{invitation.email}</Td><Td><RoleBadge role={invitation.role} /></Td>
                    <Td><Badge variant={STATE_BADGE[invitation.state]} data-testid="invitation-state">{STATE_LABEL[invitation.state]}</Badge></Td>
                    <Td className="hidden sm:table-cell"><RelativeTime date={invitation.created_at} /></Td>
                    <Td>
                      {(invitation.state === 'pending' || invitation.state === 'expired') && (
                        <div className="flex flex-wrap gap-1">
                          <Button size="sm" variant="outline" disabled={busyId === invitation.id} aria-label={`Resend invitation to ${invitation.email}`}
                            onClick={() => void resend(invitation)}>Resend</Button>
                          <Button size="sm" variant="destructive" disabled={busyId === invitation.id} aria-label={`Revoke invitation to ${invitation.email}`}
                            onClick={() => setPending({ kind: 'revoke', invitation })}>Revoke</Button>
                        </div>
                      )}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </TabPanel>
      ) : (
        <TabPanel idPrefix="users" id="users">
          <div className="mb-4 flex flex-wrap gap-2">
            <Input type="search" aria-label="Search users" placeholder="Search by email or name..." value={search} onChange={(e) => setSearch(e.target.value)} className="max-w-sm" />
            <Select aria-label="Filter by role" options={ROLE_FILTER} value={role} onChange={(e) => setRole(e.target.value)} />
          </div>
          {chosen.length > 0 && (
            <BulkActionsBar organizationId={organization.id} selected={chosen} onClear={() => setSelected(new Set())} onDone={() => { setSelected(new Set()); changed(); }} />
          )}
          {error ? <ErrorState message={error} onRetry={members.reload} /> : !users ? <Skeleton /> : users.length === 0 ? <EmptyState title="No users found matching your criteria." /> : (
            <Table>
              <caption className="sr-only">Users</caption>
              <thead>
                <tr>
                  <Th><SelectAll total={visible.length} chosen={chosen.length} onChange={(all) => setSelected(all ? new Set(visible.map((row) => row.id)) : new Set())} /></Th>
                  <Th>User</Th><Th>Role</Th><Th>Status</Th><Th className="hidden sm:table-cell">Joined</Th><Th><span className="sr-only">Actions</span></Th>
                </tr>
              </thead>
              <tbody>
                {users.map((row) => (
                  <tr key={row.id}>
                    <Td>
                      <input type="checkbox" aria-label={`Select ${row.email}`} checked={selected.has(row.id)}
                        onChange={(e) => { const next = new Set(selected); if (e.target.checked) next.add(row.id); else next.delete(row.id); setSelected(next); }} />
                    </Td>
                    <Td>
                      <button type="button" className="max-w-[11rem] text-left hover:underline sm:max-w-none" onClick={() => setDetailId(row.id)}>
                        <span className="block font-medium">{row.full_name || row.email}</span>
                        <span className="block break-all text-xs text-muted-foreground">{row.email}</span>
                      </button>
                    </Td>
                    <Td>
                      <div className="flex items-center gap-2">
                        <span className="hidden sm:inline"><RoleBadge role={row.role} /></span>
                        <Select aria-label={`Role of ${row.email}`} options={ROLE_OPTIONS} value={row.role} disabled={busyId === row.id}
                          onChange={(e) => void updateOne(row, { role: e.target.value as Role })} />
                      </div>
                    </Td>
                    <Td>
                      <label className="flex items-center gap-2 text-sm">
                        <input type="checkbox" role="switch" checked={row.is_active} disabled={busyId === row.id}
                          onChange={(e) => void updateOne(row, { is_active: e.target.checked })} />
                        {row.is_active ? 'Active' : 'Inactive'}
                      </label>
                    </Td>
                    <Td className="hidden sm:table-cell"><RelativeTime date={row.joined_at} /></Td>
                    <Td>
                      <div className="flex flex-wrap gap-1">
                        <Button size="sm" variant="outline" aria-label={`Edit ${row.email}`} onClick={() => setEditing(row)}>Edit</Button>
                        <Button size="sm" variant="outline" aria-label={`Reset Password for ${row.email}`} onClick={() => setPending({ kind: 'reset', member: row })}>Reset Password</Button>
                      </div>
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </TabPanel>
      )}
      <CreateUserDialog open={dialog === 'create-user'} organizationId={organization.id} onClose={() => setDialog(null)} onCreated={changed} />
      <InviteDialog open={dialog === 'invite'} organizationId={organization.id} onClose={() => setDialog(null)} onInvited={changed} />
      <EditMemberDialog member={editing} organizationId={organization.id} onClose={() => setEditing(null)} onSaved={changed} />
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'reset' ? 'Send Password Reset' : 'Revoke Invitation'}
        description={pending?.kind === 'reset'
          ? `Send a password reset email to ${pending.member.email}?`
          : pending ? `Revoke the invitation of ${pending.invitation.email}? Its link will stop working.` : ''}
        confirmLabel={pending?.kind === 'reset' ? 'Send Email' : 'Revoke'}
        destructive={pending?.kind === 'revoke'}
        busy={pendingBusy}
        onCancel={() => setPending(null)}
        onConfirm={() => pending && void confirmPending(pending)}
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
      <UserDetailDialog organizationId={organization.id} profile={detail} onClose={() => setDetailId(null)} />
    </div>
  );
}

/** The header checkbox: checked when all are selected, mixed (indeterminate) when some are. */
function SelectAll({ total, chosen, onChange }: { total: number; chosen: number; onChange: (all: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = chosen > 0 && chosen < total;
  }, [chosen, total]);
  return <input ref={ref} type="checkbox" aria-label="Select all users" checked={total > 0 && chosen === total} onChange={(e) => onChange(e.target.checked)} />;
}

/** A user's details and their last 10 activities in the organization. */
function UserDetailDialog({ organizationId, profile, onClose }: { organizationId: string; profile: StaffProfile | null; onClose: () => void }) {
  return (
    <Dialog open={profile !== null} onClose={onClose} title={profile?.full_name || profile?.email || 'User'} description={profile?.email}>
      {profile && (
        <div className="space-y-4 text-sm">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="font-medium">Role</dt><dd><RoleBadge role={profile.role} /></dd>
            <dt className="font-medium">Status</dt><dd>{profile.is_active ? 'Active' : 'Inactive'}</dd>
            <dt className="font-medium">Phone</dt><dd>{profile.phone || '—'}</dd>
            <dt className="font-medium">Bio</dt><dd>{profile.bio || '—'}</dd>
            <dt className="font-medium">Joined</dt><dd><RelativeTime date={profile.created_at} /></dd>
          </dl>
          <h3 className="font-semibold">Recent activity</h3>
          <RecentActivity key={profile.id} organizationId={organizationId} userId={profile.id} />
        </div>
      )}
    </Dialog>
  );
}

/** The user's last 10 activities in the organization; keyed by user, so each user starts from the loading state. */
function RecentActivity({ organizationId, userId }: { organizationId: string; userId: string }) {
  const load = useLoad(() => recentActivity(supabaseBrowser(), organizationId, userId), [organizationId, userId]);
  const activity = load.value;
  if (load.state === 'error') return <ErrorState message="Failed to fetch activity" onRetry={load.reload} />;
  if (!activity) return <Skeleton rows={2} />;
  if (activity.length === 0) return <p className="text-muted-foreground">No activities found</p>;
  return (
    <ul className="space-y-1">
      {activity.map((entry) => (
        <li key={entry.id} className="flex justify-between gap-2">
          <span>{activitySentence(entry)}</span>
          <RelativeTime date={entry.created_at} />
        </li>
      ))}
    </ul>
  );
}
