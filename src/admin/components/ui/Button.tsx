import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from 'react';
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

/** Look of a Button or ButtonLink. */
interface ButtonLook {
  variant?: ButtonVariant;
  size?: keyof typeof SIZES;
}

function buttonClasses({ variant = 'default', size = 'md' }: ButtonLook, className: string | undefined): string {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-md font-medium focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-primary disabled:cursor-not-allowed disabled:opacity-60',
    VARIANTS[variant],
    SIZES[size],
    className,
  );
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonLook {}

/** The back office button. Defaults to `type="button"` so it never submits a form by accident. */
export function Button({ variant, size, className, type = 'button', ...rest }: ButtonProps) {
  return <button type={type} className={buttonClasses({ variant, size }, className)} {...rest} />;
}

export interface ButtonLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement>, ButtonLook {
  href: string;
}

/** A link that looks like a Button: for actions that go to another page (so it opens in a new tab too). */
export function ButtonLink({ variant, size, className, ...rest }: ButtonLinkProps) {
  return <a className={buttonClasses({ variant, size }, className)} {...rest} />;
}
