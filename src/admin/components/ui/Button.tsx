import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn';

/** Visual weight of a button; `destructive` for actions that remove or deactivate. */
export type ButtonVariant = 'default' | 'secondary' | 'outline' | 'destructive' | 'ghost';

const VARIANTS: Record<ButtonVariant, string> = {
  default: 'bg-primary text-primary-foreground hover:opacity-90',
  secondary: 'bg-muted text-foreground hover:opacity-90',
  outline: 'border border-border bg-background hover:bg-muted',
  destructive: 'bg-red-700 text-white hover:bg-red-800',
  ghost: 'hover:bg-muted',
};

const SIZES = { sm: 'px-3 py-1.5 text-sm', md: 'px-4 py-2 text-sm' } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
}

/** The back office button. Defaults to `type="button"` so it never submits a form by accident. */
export function Button({ variant = 'default', size = 'md', className, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      type={type}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-md font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-60',
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...rest}
    />
  );
}
