import { useState } from 'react';
import { countStaff } from '../../lib/back-office/users';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $staffChanged, notifyStaffChanged } from '../stores/staff';
import CreateUserDialog from './users/CreateUserDialog';
import InviteDialog from './users/InviteDialog';
import { Button } from '../components/ui/Button';
import { StatCard } from '../components/ui/Card';
import { TabPanel, Tabs } from '../components/ui/Tabs';
import { useLiveReload } from '../use-live-reload';
import { useLoad } from '../use-load';
import { useUrlParam } from '../use-url-param';
import type { AdminTabProps } from './index';
import { InvitationsPanel } from './users/InvitationsPanel';
import { MembersPanel } from './users/MembersPanel';

/**
 * User Management: the members of the chosen organization (its memberships: role and
 * status there), with counts, search, filter, bulk actions, edit and reset mails; invitations with their
 * state, resend and revoke. Every change bumps $staffChanged so the System Overview counts again; the counts and
 * lists also follow changes made elsewhere (useLiveReload).
 */
export default function UsersTab({ organization }: AdminTabProps) {
  const client = supabaseBrowser();
  const [view, setView] = useUrlParam('view');
  const [dialog, setDialog] = useUrlParam('dialog');
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const staff = useLoad(() => countStaff(client, organization.id), [client, organization.id]);
  useLiveReload(staff.reload, $staffChanged);
  const counts = staff.value ?? null;

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
          <InvitationsPanel organizationId={organization.id} />
        </TabPanel>
      ) : (
        <TabPanel idPrefix="users" id="users">
          <MembersPanel organizationId={organization.id} filters={{ search, role, onSearch: setSearch, onRole: setRole }} />
        </TabPanel>
      )}
      <CreateUserDialog open={dialog === 'create-user'} organizationId={organization.id} onClose={() => setDialog(null)} onCreated={notifyStaffChanged} />
      <InviteDialog open={dialog === 'invite'} organizationId={organization.id} onClose={() => setDialog(null)} onInvited={notifyStaffChanged} />
    </div>
  );
}
