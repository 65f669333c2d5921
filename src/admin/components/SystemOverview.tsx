import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { loadSystemCounters, type SystemCounters } from '../../lib/back-office/dashboard-stats';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { $staffChanged } from '../../stores/staff';
import { StatCard } from './ui/Card';
import { ErrorState } from './ui/EmptyState';

const LABELS: Array<[keyof SystemCounters, string]> = [
  ['totalPosts', 'Total Posts'],
  ['published', 'Published'],
  ['totalUsers', 'Total Users'],
  ['totalViews', 'Total Views'],
];

/**
 * 'System Overview' below the tabs: four counters of the current organization, loaded again whenever the
 * Users tab changes members ($staffChanged). Total Users counts memberships, as the Users tab does.
 */
export default function SystemOverview({ organizationId }: { organizationId: string }) {
  const [counters, setCounters] = useState<SystemCounters | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const staffChanged = useStore($staffChanged);

  useEffect(() => {
    let current = true;
    loadSystemCounters(supabaseBrowser(), organizationId).then(
      (loaded) => current && setCounters(loaded),
      (failure: Error) => current && setError(failure.message),
    );
    return () => {
      current = false;
    };
  }, [organizationId, attempt, staffChanged]);

  return (
    <section aria-labelledby="system-overview-title" className="mt-10">
      <h2 id="system-overview-title" className="mb-4 text-xl font-semibold">
        System Overview
      </h2>
      {error ? (
        <ErrorState message={error} onRetry={() => {
            setError(null);
            setAttempt((n) => n + 1);
          }} />
      ) : (
        <div className="grid grid-cols-2 gap-4 md:grid-cols-4" data-testid="system-overview">
          {LABELS.map(([key, label]) => (
            <StatCard key={key} label={label} value={counters?.[key] ?? null} loading={!counters} />
          ))}
        </div>
      )}
    </section>
  );
}
