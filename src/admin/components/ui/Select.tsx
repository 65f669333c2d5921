import type { SelectHTMLAttributes } from 'react';
import { cn } from './cn';

/** One choice of a Select. */
export interface SelectOption {
  value: string;
  label: string;
}

/** A native select (keyboard and screen-reader support for free). Give it a label or aria-label. */
export function Select({
  options,
  className,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { options: readonly SelectOption[] }) {
  return (
    <select
      className={cn(
        'rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-primary disabled:opacity-60',
        className,
      )}
      {...rest}
    >
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
