import { Fragment } from 'react';
import { cn } from './cn';

/**
 * An email address that wraps where a reader expects, before the @ and at dots ("editor" / "@scale-pro" /
 * ".test"), and inside a part only when that part alone is wider than its box.
 */
export function EmailAddress({ email, className }: { email: string; className?: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <span className={cn('[overflow-wrap:anywhere]', className)}>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
