import { loadSystemCounters, type SystemCounters } from '../../lib/back-office/dashboard-stats';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $staffChanged } from '../stores/staff';
import { StatCard } from './ui/Card';
import { ErrorState } from './ui/EmptyState';
import { useLiveReload } from '../use-live-reload';
import { useLoad } from '../use-load';

const LABELS: Array<[keyof SystemCounters, string]> = [
  ['totalPosts', 'Total Posts'],
  ['published', 'Published'],
  ['totalUsers', 'Total Users'],
  ['totalViews', 'Total Views'],
];

/**
 * 'System Overview' below the tabs: four counters of the current organization, loaded again whenever the
 * Users tab changes members ($staffChanged) and kept current with changes made elsewhere (useLiveReload).
 * Total Users counts memberships, as the Users tab does.
 */
export default function SystemOverview({ organizationId }: { organizationId: string }) {
  const counters = useLoad(() => loadSystemCounters(supabaseBrowser(), organizationId), [organizationId]);
  // The old figures stay until the new ones come.
  useLiveReload(counters.reload, $staffChanged);

  return (
    <section aria-labelledby="system-overview-title" className="mt-10">
      <h2 id="system-overview-title" className="mb-4 text-xl font-semibold">
        System Overview
      </h2>
      {counters.state === 'error' ? (
        <ErrorState message="The counters could not be loaded." onRetry={counters.reload} />
      ) : (
        <div className="grid grid-cols-2 gap-4 md:grid-cols-4" data-testid="system-overview">
          {LABELS.map(([key, label]) => (
            <StatCard key={key} label={label} value={counters.value?.[key] ?? null} loading={!counters.value} />
          ))}
        </div>
      )}
    </section>
  );
}
