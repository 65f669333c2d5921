import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from './cn';

/**
 * Under the sm breakpoint a stacked table shows each body row as a card (a grid the rows' own classes lay out)
 * instead of scrolling sideways, so every cell and action stays on a phone's screen. The header is the table's
 * own to hide there (`max-sm:hidden`) or to keep as a row of what a card does not repeat (select all).
 */
const STACKED = cn(
  'max-sm:block max-sm:[&>tbody]:grid max-sm:[&>tbody]:gap-3',
  'max-sm:[&>tbody>tr]:grid max-sm:[&>tbody>tr]:gap-x-3 max-sm:[&>tbody>tr]:gap-y-2 max-sm:[&>tbody>tr]:rounded-md',
  'max-sm:[&>tbody>tr]:border max-sm:[&>tbody>tr]:border-border max-sm:[&>tbody>tr]:p-3',
  // Cells need no display of their own: grid and flex items are blocks, and `hidden` ones stay hidden.
  'max-sm:[&>*>tr>*]:border-0 max-sm:[&>*>tr>*]:p-0 max-sm:[&>*>tr>*]:min-w-0',
);

/**
 * A table that scrolls sideways on narrow screens, or with `stacked` shows its rows as cards there. Give it a
 * caption (visible or sr-only).
 */
export function Table({ className, stacked = false, ...rest }: HTMLAttributes<HTMLTableElement> & { stacked?: boolean }) {
  return (
    <div className={stacked ? 'sm:overflow-x-auto' : 'overflow-x-auto'}>
      <table className={cn('w-full border-collapse text-sm', stacked && STACKED, className)} {...rest} />
    </div>
  );
}

export function Th({ className, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={cn('border-b border-border px-3 py-2 text-left font-medium text-muted-foreground', className)} {...rest} />;
}

export function Td({ className, ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={cn('border-b border-border px-3 py-2 align-middle', className)} {...rest} />;
}

/** What a cell is, said on a phone, where a stacked table's rows are cards without the table's header. */
export function PhoneLabel({ children }: { children: string }) {
  return <span className="text-muted-foreground sm:hidden">{children}</span>;
}
