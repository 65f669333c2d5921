import { useId, type ComponentProps, type InputHTMLAttributes, type ReactNode } from 'react';
import { cn } from './cn';

const FIELD = 'w-full rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-primary disabled:opacity-60';

/** A text input. Prefer `Field` so it gets a label. */
export function Input({ className, ...rest }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(FIELD, className)} {...rest} />;
}

/** A multiline input (a `ref` reaches the textarea: the post editor inserts at its caret). */
export function Textarea({ className, ...rest }: ComponentProps<'textarea'>) {
  return <textarea className={cn(FIELD, className)} {...rest} />;
}

/**
 * A labelled control: renders the label, the control (given the generated id through the render prop) and
 * an optional hint or error (announced as an alert), wired with aria-describedby.
 */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: (props: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children({ id, 'aria-describedby': hint || error ? hintId : undefined, 'aria-invalid': error ? true : undefined })}
      {(hint || error) && (
        <p id={hintId} role={error ? 'alert' : undefined} className={cn('text-xs', error ? 'text-red-700' : 'text-muted-foreground')}>
          {error ?? hint}
        </p>
      )}
    </div>
  );
}
