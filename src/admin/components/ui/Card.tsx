import type { HTMLAttributes, ReactNode } from 'react';
import { cn } from './cn';

/** A bordered panel. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section className={cn('rounded-lg border border-border bg-background p-5 shadow-sm', className)} {...rest} />;
}

/** Card title (an h3 by default, as cards sit under the tab's h2) with an optional description. */
export function CardHeader({
  title,
  description,
  level = 3,
  actions,
}: {
  title: ReactNode;
  description?: ReactNode;
  level?: 2 | 3;
  actions?: ReactNode;
}) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
      <div>
        <Heading className="text-lg font-semibold">{title}</Heading>
        {description && <p className="text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

/** A small counter card: label above a big number (the dashboard's counters; thousands grouped, 10,844). */
export function StatCard({ label, value, loading }: { label: string; value: number | string | null; loading?: boolean }) {
  return (
    <Card className="p-4">
      <p className="text-sm text-muted-foreground">{label}</p>
      <p className="mt-1 text-2xl font-bold" aria-busy={loading || undefined}>
        {loading ? '…' : typeof value === 'number' ? value.toLocaleString('en-US') : (value ?? '—')}
      </p>
    </Card>
  );
}
