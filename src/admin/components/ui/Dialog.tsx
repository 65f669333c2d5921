import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cn } from './cn';

export interface DialogProps {
  open: boolean;
  /** Called when the user closes the dialog (Escape, the close button, or the caller's Cancel). */
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  className?: string;
}

/**
 * A modal built on the native `<dialog>`: the browser traps focus, makes the page behind inert, closes on
 * Escape and gives focus back to the opener. Escape goes through `onClose` so the caller's state (and URL)
 * stays the single source of truth.
 */
export function Dialog({ open, onClose, title, description, children, className }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      className={cn(
        'm-auto w-[min(36rem,calc(100vw-2rem))] rounded-lg border border-border bg-background p-6 text-foreground shadow-xl backdrop:bg-black/50',
        className,
      )}
    >
      {open && (
        <>
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <h2 id={titleId} className="text-lg font-semibold">
                {title}
              </h2>
              {description && (
                <p id={descriptionId} className="text-sm text-muted-foreground">
                  {description}
                </p>
              )}
            </div>
            <button
              type="button"
              onClick={onClose}
              aria-label="Close"
              className="rounded-md px-2 text-xl leading-none hover:bg-muted focus-visible:outline-2 focus-visible:outline-primary"
            >
              ×
            </button>
          </div>
          {children}
        </>
      )}
    </dialog>
  );
}

/**
 * A dialog's action row that stays at the bottom of a dialog whose content scrolls (a tall preview, a grid of
 * images), so its buttons are on screen without scrolling: it cancels the dialog's padding to sit on its edge.
 */
export function DialogFooter({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('sticky -bottom-6 z-10 -mx-6 mt-6 flex flex-wrap items-center justify-end gap-3 border-t border-border bg-background px-6 py-3', className)}>
      {children}
    </div>
  );
}
