import type { HTMLAttributes } from 'react';
import { cn } from './cn';

/**
 * Badge styles: default / secondary / destructive / outline, plus the status colours (success green, warning
 * yellow, info blue, neutral grey). Every coloured one has a dark-mode shade, a deep background under light text
 * (contrast AA), so no pill stays a light patch on a dark page; statuses take the coloured ones, not `default`.
 */
export type BadgeVariant = 'default' | 'secondary' | 'destructive' | 'outline' | 'success' | 'warning' | 'info' | 'neutral';

const VARIANTS: Record<BadgeVariant, string> = {
  default: 'border-transparent bg-primary text-primary-foreground',
  secondary: 'border-transparent bg-muted text-foreground',
  destructive: 'border-transparent bg-red-700 text-white dark:bg-red-900/70 dark:text-red-100',
  outline: 'border-border text-foreground',
  success: 'border-transparent bg-green-100 text-green-900 dark:bg-green-900/60 dark:text-green-100',
  warning: 'border-transparent bg-yellow-100 text-yellow-900 dark:bg-amber-900/60 dark:text-amber-100',
  info: 'border-transparent bg-blue-100 text-blue-900 dark:bg-blue-900/60 dark:text-blue-100',
  neutral: 'border-transparent bg-gray-200 text-gray-900 dark:bg-gray-700 dark:text-gray-100',
};

/** A small label. `data-variant` lets tests check the style without reading class names. */
export function Badge({ variant = 'default', className, ...rest }: HTMLAttributes<HTMLSpanElement> & { variant?: BadgeVariant }) {
  return (
    <span
      data-variant={variant}
      className={cn('inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold', VARIANTS[variant], className)}
      {...rest}
    />
  );
}
