import { useStore } from '@nanostores/react';
import { Suspense } from 'react';
import { $organization } from '../stores/organization';
import AdminHeader from './components/AdminHeader';
import SystemOverview from './components/SystemOverview';
import { Skeleton } from './components/ui/Skeleton';
import { TabPanel, Tabs } from './components/ui/Tabs';
import { ADMIN_TABS, openAdminTab, resolveAdminTab } from './tabs';
import { useAdminAccess } from './use-admin-access';
import { useUrlParam } from './use-url-param';

const TAB_ID_PREFIX = 'admin';

/**
 * The back office (`/admin`, client-only). Shows 'Checking permissions...' until the access check passes,
 * then the header, the eight tabs (selected by `?tab=`, so reload and Back keep it; each tab's module loads
 * only when first shown) and 'System Overview'.
 */
export default function AdminApp() {
  const user = useAdminAccess();
  const { current: organization } = useStore($organization);
  const [tabParam] = useUrlParam('tab');
  const selected = resolveAdminTab(tabParam);
  const tab = ADMIN_TABS.find((candidate) => candidate.id === selected)!;

  if (!user) return <p className="p-8 text-center text-muted-foreground">Checking permissions...</p>;
  return (
    <>
      <AdminHeader user={user} />
      <main id="main" className="mx-auto max-w-7xl px-4 py-8">
        <Tabs
          items={ADMIN_TABS}
          value={selected}
          onChange={(id) => openAdminTab(resolveAdminTab(id))}
          idPrefix={TAB_ID_PREFIX}
          label="Dashboard sections"
        />
        <TabPanel idPrefix={TAB_ID_PREFIX} id={selected}>
          {!organization ? (
            <Skeleton label="Loading organization..." />
          ) : tab.Component ? (
            <Suspense fallback={<Skeleton label={`Loading ${tab.label}...`} />}>
              <tab.Component key={`${tab.id}:${organization.id}`} user={user} organization={organization} />
            </Suspense>
          ) : (
            <p className="text-muted-foreground">The {tab.label} tab is not available in this build yet.</p>
          )}
        </TabPanel>
        {organization && <SystemOverview key={organization.id} organizationId={organization.id} />}
      </main>
    </>
  );
}
