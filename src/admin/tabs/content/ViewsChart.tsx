import { countWords } from '../../../lib/back-office/count-words';
import type { DayViews } from '../../../lib/back-office/dashboard-stats';

const BAR_WIDTH = 10;
const BAR_GAP = 2;
const HEIGHT = 100;

/** '2026-11-23' as 'Nov 23' (the day is a UTC date: formatted in UTC so it never shifts). */
function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * Views per day as bars, one per day, zero days included. The SVG is one image to assistive technology
 * (its title says the total and the busiest day); the same numbers are in a table for screen readers. The
 * bars take the theme's primary color, so they follow light and dark themes.
 */
export function ViewsChart({ days, label }: { days: DayViews[]; label: string }) {
  const total = days.reduce((sum, day) => sum + day.views, 0);
  const busiest = days.reduce<DayViews | null>((best, day) => (day.views > (best?.views ?? 0) ? day : best), null);
  const max = Math.max(1, busiest?.views ?? 0);
  const width = days.length * (BAR_WIDTH + BAR_GAP) - BAR_GAP;
  const summary = busiest
    ? `${label}: ${countWords(total, 'view')} in total, most on ${shortDay(busiest.day)} (${busiest.views}).`
    : `${label}: no views yet.`;
  return (
    <figure className="space-y-1" data-testid="views-chart">
      <div className="flex justify-between text-xs text-muted-foreground" aria-hidden="true">
        <span>{max} max</span>
        <span>{total} total</span>
      </div>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${Math.max(width, 1)} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-32 w-full border-b border-border"
      >
        <title>{summary}</title>
        {days.map((day, index) => {
          const height = day.views === 0 ? 0 : Math.max(2, (day.views / max) * HEIGHT);
          return (
            <rect
              key={day.day}
              data-day={day.day}
              data-views={day.views}
              x={index * (BAR_WIDTH + BAR_GAP)}
              y={HEIGHT - height}
              width={BAR_WIDTH}
              height={height}
              className="fill-primary"
            >
              <title>{`${shortDay(day.day)}: ${countWords(day.views, 'view')}`}</title>
            </rect>
          );
        })}
      </svg>
      {days.length > 0 && (
        <figcaption className="flex justify-between text-xs text-muted-foreground" aria-hidden="true">
          <span>{shortDay(days[0]!.day)}</span>
          <span>{shortDay(days[days.length - 1]!.day)}</span>
        </figcaption>
      )}
      <table className="sr-only">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Views</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{shortDay(day.day)}</th>
              <td>{day.views}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
