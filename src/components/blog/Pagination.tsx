import { pageItems } from '../../lib/site/pagination';

interface Props {
  current: number;
  total: number;
  /** The address of a page: list pages link to their prerendered pages, search to `?q=…&page=n`. */
  hrefFor: (page: number) => string;
}

const item = 'flex h-10 min-w-10 items-center justify-center rounded-md border border-border px-3 text-sm font-medium';

/** Previous, numbered pages (first, last, current ± 1, ellipses) and Next, as plain links. Nothing for one page. */
export default function Pagination({ current, total, hrefFor }: Props) {
  if (total <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-10">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        <li>
          {current > 1 ? (
            <a href={hrefFor(current - 1)} rel="prev" className={`${item} hover:bg-muted`}>Previous</a>
          ) : (
            <span aria-disabled="true" className={`${item} text-muted-foreground opacity-60`}>Previous</span>
          )}
        </li>
        {pageItems(current, total).map((entry) =>
          entry.kind === 'ellipsis' ? (
            <li key={entry.key} aria-hidden="true" className="px-1 text-muted-foreground">…</li>
          ) : (
            <li key={entry.page}>
              <a
                href={hrefFor(entry.page)}
                aria-current={entry.current ? 'page' : undefined}
                aria-label={`Page ${entry.page}`}
                className={entry.current ? `${item} border-primary bg-primary text-primary-foreground` : `${item} hover:bg-muted`}
              >
                {entry.page}
              </a>
            </li>
          ),
        )}
        <li>
          {current < total ? (
            <a href={hrefFor(current + 1)} rel="next" className={`${item} hover:bg-muted`}>Next</a>
          ) : (
            <span aria-disabled="true" className={`${item} text-muted-foreground opacity-60`}>Next</span>
          )}
        </li>
      </ul>
    </nav>
  );
}
