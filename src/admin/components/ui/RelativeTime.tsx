import { formatRelativeTime } from './relative-time';

/** A relative time with the exact date in `dateTime` and the tooltip. */
export function RelativeTime({ date }: { date: string }) {
  return (
    <time dateTime={date} title={new Date(date).toLocaleString()}>
      {formatRelativeTime(date)}
    </time>
  );
}
