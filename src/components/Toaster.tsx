import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';

/** What the Toaster shows of a toast (src/stores/toast.ts's Toast has these, and its duration). */
export interface ShownToast {
  id: number;
  title: string;
  description?: string;
  variant: 'default' | 'destructive';
}

/**
 * The toast store hands itself over when it mounts the Toaster (src/scripts/mount-toaster.ts), so the Toaster
 * imports no store and nothing circles back to it.
 */
export interface ToasterProps {
  /** The toast on screen, or null. */
  toast: ReadableAtom<ShownToast | null>;
  /** Hides the toast with this id (only if it is still the one on screen). */
  dismiss: (id: number) => void;
}

/**
 * The current toast (one at a time), with a dismiss button, inside the polite live region that
 * src/scripts/mount-toaster.ts puts on the page with the first toast.
 */
export default function Toaster({ toast, dismiss }: ToasterProps) {
  const current = useStore(toast);
  if (!current) return null;
  const destructive = current.variant === 'destructive';
  return (
    <div
      key={current.id}
      data-toast-variant={current.variant}
      className={`pointer-events-auto flex items-start gap-3 rounded-lg border p-4 shadow-lg ${
        destructive ? 'border-red-700 bg-red-700 text-white' : 'border-border bg-background text-foreground'
      }`}
    >
      <div className="flex-1">
        <p className="font-semibold">{current.title}</p>
        {current.description && <p className="mt-1 text-sm">{current.description}</p>}
      </div>
      <button
        type="button"
        onClick={() => dismiss(current.id)}
        aria-label="Dismiss notification"
        className="rounded p-1 leading-none hover:opacity-80 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-current"
      >
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="M18 6 6 18M6 6l12 12" />
        </svg>
      </button>
    </div>
  );
}
