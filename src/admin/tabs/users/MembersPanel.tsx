import { useEffect, useRef, useState } from 'react';
import {
  changeRole, LastAdminError, listStaff, recentActivity, requestPasswordReset, setActive, type StaffProfile,
} from '../../../lib/back-office/users';
import { activitySentence } from '../../../lib/back-office/activity-sentences';
import { supabaseBrowser } from '../../../lib/back-office/supabase-browser';
import type { Role } from '../../../schemas/user';
import { $staffChanged, notifyStaffChanged } from '../../stores/staff';
import { toast } from '../../../stores/toast';
import BulkActionsBar from './BulkActionsBar';
import EditMemberDialog from './EditMemberDialog';
import { RoleBadge } from './RoleBadge';
import { Button } from '../../components/ui/Button';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog';
import { Dialog } from '../../components/ui/Dialog';
import { EmailAddress } from '../../components/ui/EmailAddress';
import { EmptyState, ErrorState } from '../../components/ui/EmptyState';
import { Input } from '../../components/ui/Input';
import { RelativeTime } from '../../components/ui/RelativeTime';
import { Select } from '../../components/ui/Select';
import { Skeleton } from '../../components/ui/Skeleton';
import { Table, Td, Th } from '../../components/ui/Table';
import { useDebounced } from '../../use-debounced';
import { useLiveReload } from '../../use-live-reload';
import { useLoad } from '../../use-load';
import { useUrlParam } from '../../use-url-param';

const ROLE_FILTER = [{ value: '', label: 'All Roles' }, { value: 'admin', label: 'Admin' }, { value: 'editor', label: 'Editor' }, { value: 'viewer', label: 'Viewer' }];
const ROLE_OPTIONS = ROLE_FILTER.slice(1);

/** How long typing in the search box pauses before the members are asked again (ms). */
const SEARCH_DELAY_MS = 250;

/** The search and the role filter, kept by the tab so they survive a look at the invitations. */
export interface MemberFilters {
  search: string;
  role: string;
  onSearch: (search: string) => void;
  onRole: (role: string) => void;
}

/**
 * The organization's members (their memberships: role and status there): search, role filter, selection with
 * bulk actions, role and status changes in place, edit, password reset mails, and a member's details with
 * their recent activity. Reloads whenever members or invitations change, here ($staffChanged) or elsewhere
 * (useLiveReload).
 */
export function MembersPanel({ organizationId, filters }: { organizationId: string; filters: MemberFilters }) {
  const client = supabaseBrowser();
  const { search, role } = filters;
  const [detailId, setDetailId] = useUrlParam('user');
  const [editing, setEditing] = useState<StaffProfile | null>(null);
  const [resetting, setResetting] = useState<StaffProfile | null>(null);
  const [resetBusy, setResetBusy] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [busyId, setBusyId] = useState<string | null>(null);
  // Deactivating ends the member's access at once: asked first. Activating is not.
  const [deactivating, setDeactivating] = useState<StaffProfile | null>(null);
  // Typing pauses before the members are asked again.
  const query = useDebounced(search, SEARCH_DELAY_MS);
  const members = useLoad(
    () => listStaff(client, organizationId, { search: query, role: (role || undefined) as Role | undefined }),
    [client, organizationId, query, role],
    [organizationId],
  );
  useLiveReload(members.reload, $staffChanged);
  const users = members.state === 'error' ? null : (members.value ?? null);
  const error = members.state === 'error' ? 'Failed to fetch users' : null;

  async function updateOne(target: StaffProfile, change: { role: Role } | { is_active: boolean }) {
    setBusyId(target.id);
    try {
      if ('role' in change) {
        await changeRole(client, organizationId, [target.id], change.role);
        toast({ title: 'Role Updated', description: `User role changed to ${change.role}` });
      } else {
        await setActive(client, organizationId, [target.id], change.is_active);
        toast({ title: 'User Status Updated', description: `User ${change.is_active ? 'activated' : 'deactivated'} successfully` });
      }
      notifyStaffChanged();
    } catch (failure) {
      const fallback = 'role' in change ? 'Failed to update user role' : 'Failed to update user status';
      toast({ title: 'Error', description: failure instanceof LastAdminError ? failure.message : fallback, variant: 'destructive' });
    } finally {
      setBusyId(null);
    }
  }

  async function sendReset(member: StaffProfile) {
    setResetBusy(true);
    try {
      const answer = await requestPasswordReset(client, organizationId, member.id);
      toast({ title: 'Password Reset Sent', description: answer.message });
    } catch (failure) {
      toast({ title: 'Error', description: failure instanceof Error ? failure.message : 'The request failed.', variant: 'destructive' });
    } finally {
      setResetBusy(false);
      setResetting(null);
    }
  }

  const visible = users ?? [];
  const chosen = visible.filter((row) => selected.has(row.id));
  const detail = visible.find((row) => row.id === detailId) ?? null;

  return (
    <>
      <div className="mb-4 flex flex-wrap gap-2">
        <Input type="search" aria-label="Search users" placeholder="Search by email or name..." value={search} onChange={(e) => filters.onSearch(e.target.value)} className="max-w-sm" />
        <Select aria-label="Filter by role" options={ROLE_FILTER} value={role} onChange={(e) => filters.onRole(e.target.value)} />
      </div>
      {chosen.length > 0 && (
        <BulkActionsBar organizationId={organizationId} selected={chosen} onClear={() => setSelected(new Set())} onDone={() => { setSelected(new Set()); notifyStaffChanged(); }} />
      )}
      {error ? <ErrorState message={error} onRetry={members.reload} /> : !users ? <Skeleton /> : users.length === 0 ? <EmptyState title="No users found matching your criteria." /> : (
        <Table stacked>
          <caption className="sr-only">Users</caption>
          <thead className="max-sm:mb-2 max-sm:block">
            <tr className="max-sm:flex">
              <Th><SelectAll total={visible.length} chosen={chosen.length} onChange={(all) => setSelected(all ? new Set(visible.map((row) => row.id)) : new Set())} /></Th>
              <Th className="max-sm:hidden">User</Th><Th className="max-sm:hidden">Role</Th><Th className="max-sm:hidden">Status</Th>
              <Th className="hidden sm:table-cell">Joined</Th><Th className="max-sm:hidden"><span className="sr-only">Actions</span></Th>
            </tr>
          </thead>
          <tbody>
            {users.map((row) => (
              // On a phone each member is a card: the checkbox beside the name, then role and status, then the actions.
              <tr key={row.id} data-testid="member-row" className="max-sm:grid-cols-[auto_auto_minmax(0,1fr)] max-sm:items-center">
                <Td className="max-sm:self-start max-sm:pt-0.5">
                  <input type="checkbox" aria-label={`Select ${row.email}`} checked={selected.has(row.id)}
                    onChange={(e) => { const next = new Set(selected); if (e.target.checked) next.add(row.id); else next.delete(row.id); setSelected(next); }} />
                </Td>
                <Td className="max-sm:col-span-2">
                  <button type="button" className="max-w-full text-left hover:underline" onClick={() => setDetailId(row.id)}>
                    <span className="block font-medium">{row.full_name || row.email}</span>
                    <EmailAddress email={row.email} className="block text-xs text-muted-foreground" />
                  </button>
                </Td>
                <Td className="max-sm:col-start-2">
                  <div className="flex items-center gap-2">
                    <span className="hidden sm:inline"><RoleBadge role={row.role} /></span>
                    <Select aria-label={`Role of ${row.email}`} options={ROLE_OPTIONS} value={row.role} disabled={busyId === row.id}
                      onChange={(e) => void updateOne(row, { role: e.target.value as Role })} />
                  </div>
                </Td>
                <Td>
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" role="switch" checked={row.is_active} disabled={busyId === row.id}
                      onChange={(e) => (e.target.checked ? void updateOne(row, { is_active: true }) : setDeactivating(row))} />
                    {row.is_active ? 'Active' : 'Inactive'}
                  </label>
                </Td>
                <Td className="hidden sm:table-cell"><RelativeTime date={row.joined_at} /></Td>
                <Td className="max-sm:col-span-2 max-sm:col-start-2">
                  <div className="flex flex-wrap gap-1">
                    <Button size="sm" variant="outline" aria-label={`Edit ${row.email}`} onClick={() => setEditing(row)}>Edit</Button>
                    <Button size="sm" variant="outline" aria-label={`Reset Password for ${row.email}`} onClick={() => setResetting(row)}>Reset Password</Button>
                  </div>
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <EditMemberDialog member={editing} organizationId={organizationId} onClose={() => setEditing(null)} onSaved={notifyStaffChanged} />
      <ConfirmDialog
        open={resetting !== null}
        title="Send Password Reset"
        description={resetting ? `Send a password reset email to ${resetting.email}?` : ''}
        confirmLabel="Send Email"
        busy={resetBusy}
        onCancel={() => setResetting(null)}
        onConfirm={() => resetting && void sendReset(resetting)}
      />
      <ConfirmDialog
        open={deactivating !== null}
        title="Deactivate this member?"
        description={deactivating ? `${deactivating.full_name?.trim() || deactivating.email} loses access to this organization at once: they can no longer sign in or publish here (their application passwords stop working too) until an admin activates them again.` : ''}
        confirmLabel="Deactivate"
        destructive
        busy={deactivating !== null && busyId === deactivating.id}
        onCancel={() => setDeactivating(null)}
        onConfirm={() => {
          if (deactivating) void updateOne(deactivating, { is_active: false }).finally(() => setDeactivating(null));
        }}
      />
      <UserDetailDialog organizationId={organizationId} profile={detail} onClose={() => setDetailId(null)} />
    </>
  );
}

/** The header checkbox: checked when all are selected, mixed (indeterminate) when some are. */
function SelectAll({ total, chosen, onChange }: { total: number; chosen: number; onChange: (all: boolean) => void }) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = chosen > 0 && chosen < total;
  }, [chosen, total]);
  // The table's header row is hidden on a phone but for this box, so there it says what it does.
  return (
    <label className="flex items-center gap-2">
      <input ref={ref} type="checkbox" aria-label="Select all users" checked={total > 0 && chosen === total} onChange={(e) => onChange(e.target.checked)} />
      <span aria-hidden="true" className="sm:hidden">Select all</span>
    </label>
  );
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
  if (activity.length === 0) return <p className="text-muted-foreground">No recent activity</p>;
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
