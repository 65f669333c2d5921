import { cn } from './cn';

/** Placeholder blocks while a list loads; announced once as `label` to screen readers. */
export function Skeleton({ rows = 3, label = 'Loading...', className }: { rows?: number; label?: string; className?: string }) {
  return (
    <div role="status" aria-live="polite" className={cn('space-y-2', className)}>
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} aria-hidden="true" className="h-10 animate-pulse rounded-md bg-muted" />
      ))}
    </div>
  );
}
