import { Suspense, useState } from 'react';
import BackOfficeShell from './BackOfficeShell';
import { ConfirmDialog } from './components/ui/ConfirmDialog';
import { $unsavedChanges } from './stores/unsaved-changes';
import SystemOverview from './components/SystemOverview';
import { Skeleton } from './components/ui/Skeleton';
import { TabPanel, Tabs } from './components/ui/Tabs';
import { ADMIN_TABS, type AdminTabId, openAdminTab, resolveAdminTab } from './tabs';
import type { BackOfficeAccess } from './use-back-office-access';
import { useUrlParam } from './use-url-param';

const TAB_ID_PREFIX = 'admin';

/**
 * The dashboard (`/admin`, client-only), for admins of the organization chosen in the header (the shell
 * sends editors and viewers to blog management): the eight tabs (selected by `?tab=`, so reload and Back keep
 * it; each tab's module loads only when first shown) and 'System Overview'. A tab with unsaved changes
 * ($unsavedChanges: Settings) is not left without asking. Opening the dashboard is not an audit event: sign-ins
 * and actions are.
 */
export default function AdminApp() {
  return <BackOfficeShell title="Admin Dashboard">{(access) => <Dashboard access={access} />}</BackOfficeShell>;
}

function Dashboard({ access }: { access: BackOfficeAccess }) {
  const { user, organization } = access;
  const [tabParam] = useUrlParam('tab');
  const selected = resolveAdminTab(tabParam);
  const tab = ADMIN_TABS.find((candidate) => candidate.id === selected)!;
  const [leavingFor, setLeavingFor] = useState<AdminTabId | null>(null);
  const choose = (id: AdminTabId) => ($unsavedChanges.get() ? setLeavingFor(id) : openAdminTab(id));
  return (
    <>
      <Tabs items={ADMIN_TABS} value={selected} onChange={(id) => choose(resolveAdminTab(id))} idPrefix={TAB_ID_PREFIX} label="Dashboard sections" />
      <ConfirmDialog
        open={leavingFor !== null}
        title="Unsaved changes"
        description={`You have unsaved changes in ${$unsavedChanges.get() ?? 'this tab'}. Leave without saving?`}
        confirmLabel="Leave"
        destructive
        onConfirm={() => {
          $unsavedChanges.set(null);
          if (leavingFor) openAdminTab(leavingFor);
          setLeavingFor(null);
        }}
        onCancel={() => setLeavingFor(null)}
      />
      <TabPanel idPrefix={TAB_ID_PREFIX} id={selected}>
        {tab.Component ? (
          <Suspense fallback={<Skeleton label={`Loading ${tab.label}...`} />}>
            <tab.Component key={`${tab.id}:${organization.id}`} user={user} organization={organization} />
          </Suspense>
        ) : (
          <p className="text-muted-foreground">The {tab.label} tab is not available in this build yet.</p>
        )}
      </TabPanel>
      <SystemOverview key={organization.id} organizationId={organization.id} />
    </>
  );
}
