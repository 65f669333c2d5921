import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from './cn';

/** One tab of a Tabs list. */
export interface TabItem {
  id: string;
  label: string;
}

/** Id of the tab element and of its panel, so `TabPanel` and `Tabs` agree. */
export const tabIds = (prefix: string, id: string) => ({ tab: `${prefix}-tab-${id}`, panel: `${prefix}-panel-${id}` });

/**
 * An accessible tablist (WAI-ARIA tabs pattern, automatic activation): arrows, Home and End move between
 * tabs; only the selected tab is in the tab order. The caller owns the selected id (e.g. in the URL).
 */
export function Tabs({
  items,
  value,
  onChange,
  idPrefix,
  label,
  className,
}: {
  items: readonly TabItem[];
  value: string;
  onChange: (id: string) => void;
  idPrefix: string;
  label: string;
  className?: string;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);

  function onKeyDown(event: KeyboardEvent, index: number) {
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight' ? (index === last ? 0 : index + 1)
      : event.key === 'ArrowLeft' ? (index === 0 ? last : index - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : null;
    if (next === null) return;
    event.preventDefault();
    onChange(items[next]!.id);
    refs.current[next]?.focus();
  }

  return (
    <div role="tablist" aria-label={label} className={cn('flex flex-wrap gap-1 rounded-lg bg-muted p-1', className)}>
      {items.map((item, index) => {
        const selected = item.id === value;
        const ids = tabIds(idPrefix, item.id);
        return (
          <button
            key={item.id}
            ref={(element) => {
              refs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={ids.tab}
            aria-selected={selected}
            aria-controls={ids.panel}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(item.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={cn(
              'rounded-md px-3 py-1.5 text-sm font-medium focus-visible:outline-2 focus-visible:outline-primary',
              selected ? 'bg-background shadow-sm' : 'text-muted-foreground hover:text-foreground',
            )}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}

/** The panel of the selected tab. */
export function TabPanel({ idPrefix, id, children }: { idPrefix: string; id: string; children: ReactNode }) {
  const ids = tabIds(idPrefix, id);
  return (
    <div role="tabpanel" id={ids.panel} aria-labelledby={ids.tab} tabIndex={0} className="mt-6 focus-visible:outline-2 focus-visible:outline-primary">
      {children}
    </div>
  );
}
