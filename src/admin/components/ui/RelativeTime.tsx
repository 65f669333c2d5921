import { formatRelativeTime } from './relative-time';

/** The exact time in the tooltip, as `toLocaleString()` words it; one formatter for every row of a long list. */
const EXACT = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });

/** A relative time with the exact date in `dateTime` and the tooltip. */
export function RelativeTime({ date }: { date: string }) {
  return (
    <time dateTime={date} title={EXACT.format(new Date(date))}>
      {formatRelativeTime(date)}
    </time>
  );
}
