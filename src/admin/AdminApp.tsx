import { Suspense } from 'react';
import BackOfficeShell from './BackOfficeShell';
import SystemOverview from './components/SystemOverview';
import { Skeleton } from './components/ui/Skeleton';
import { TabPanel, Tabs } from './components/ui/Tabs';
import { ADMIN_TABS, openAdminTab, resolveAdminTab } from './tabs';
import type { BackOfficeAccess } from './use-back-office-access';
import { useUrlParam } from './use-url-param';

const TAB_ID_PREFIX = 'admin';

/**
 * The dashboard (`/admin`, client-only), for admins of the organization chosen in the header (the shell
 * sends editors and viewers to blog management): the eight tabs (selected by `?tab=`, so reload and Back keep
 * it; each tab's module loads only when first shown) and 'System Overview'. Opening the dashboard is not an
 * audit event: sign-ins and actions are.
 */
export default function AdminApp() {
  return <BackOfficeShell title="Admin Dashboard">{(access) => <Dashboard access={access} />}</BackOfficeShell>;
}

function Dashboard({ access }: { access: BackOfficeAccess }) {
  const { user, organization } = access;
  const [tabParam] = useUrlParam('tab');
  const selected = resolveAdminTab(tabParam);
  const tab = ADMIN_TABS.find((candidate) => candidate.id === selected)!;
  return (
    <>
      <Tabs items={ADMIN_TABS} value={selected} onChange={(id) => openAdminTab(resolveAdminTab(id))} idPrefix={TAB_ID_PREFIX} label="Dashboard sections" />
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
