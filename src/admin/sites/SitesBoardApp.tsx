import { useMemo, useState } from 'react';
import type { MemberRole } from '../../lib/back-office/memberships';
import {
  BOARD_STATE_LABELS, boardPollMs, boardRow, type BoardFilter, type BoardRow, type BoardSort, type BoardState, filterBoard, loadSitesBoard, sortBoard,
} from '../../lib/back-office/sites-board';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { Badge, type BadgeVariant } from '../components/ui/Badge';
import { Button } from '../components/ui/Button';
import { EmptyState, ErrorState } from '../components/ui/EmptyState';
import { Input } from '../components/ui/Input';
import { RelativeTime } from '../components/ui/RelativeTime';
import { Select } from '../components/ui/Select';
import { Skeleton } from '../components/ui/Skeleton';
import { PhoneLabel, Table, Td, Th } from '../components/ui/Table';
import { DEPLOY_STATUS_POLL_MS } from '../stores/deploy-facts';
import { switchOrganization } from '../stores/organization';
import BackOfficeShell from '../BackOfficeShell';
import { useLiveReload } from '../use-live-reload';
import { useLoad } from '../use-load';
import { useUrlParam } from '../use-url-param';
import { takeFirstRead } from './first-read';
import SitesCalendar from './SitesCalendar';

/**
 * /admin/sites: the sites board. Every site the person belongs to on one screen (one organization per client
 * site), with its state now, its last build, its posts going out in the next 7 days and published this month,
 * its views, IndexNow failures, deploys against its hosting team's budget, and the first problem to act on;
 * sorted (by a column's header, or on a phone, where the rows are cards, by a choice) and filtered by any of them. It reads again while
 * the page is visible: as often as the header's build status for a few sites, less often for many (boardPollMs). Open switches the back office to that organization and opens it. Beside it, the calendar
 * across the same sites (SitesCalendar.tsx).
 */
export default function SitesBoardApp() {
  return <BackOfficeShell title="All sites">{() => <AllSites />}</BackOfficeShell>;
}

/** The board, or (`?view=calendar`) the calendar across the same sites. */
function AllSites() {
  const [view, setView] = useUrlParam('view');
  const calendar = view === 'calendar';
  return (
    <>
      <div role="group" aria-label="View" className="mb-6 inline-flex rounded-md border border-border">
        {[
          { id: null, label: 'Board' },
          { id: 'calendar', label: 'Calendar' },
        ].map((each) => (
          <button
            key={each.label}
            type="button"
            aria-pressed={(each.id === 'calendar') === calendar}
            onClick={() => setView(each.id)}
            className="px-4 py-2 text-sm font-medium aria-pressed:bg-muted focus-visible:outline-2 focus-visible:outline-primary"
          >
            {each.label}
          </button>
        ))}
      </div>
      {calendar ? <SitesCalendar /> : <SitesBoard />}
    </>
  );
}

const STATE_BADGES: Record<BoardState, BadgeVariant> = {
  live: 'success',
  building: 'info',
  requested: 'info',
  waiting_budget: 'warning',
  waiting: 'neutral',
  failed: 'destructive',
  no_hook: 'warning',
  not_built: 'warning',
  no_build: 'neutral',
};

const ROLE_NAMES: Record<MemberRole, string> = { admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };

const STATE_FILTERS = [{ value: 'all', label: 'Every state' }, ...Object.entries(BOARD_STATE_LABELS).map(([value, label]) => ({ value, label }))];
const ROLE_FILTERS = [{ value: 'all', label: 'Any role' }, ...Object.entries(ROLE_NAMES).map(([value, label]) => ({ value, label }))];

/** The columns, in order: what each is called, and what it sorts by. */
const COLUMNS: { sort: BoardSort; label: string; numeric?: boolean }[] = [
  { sort: 'name', label: 'Site' },
  { sort: 'state', label: 'State' },
  { sort: 'lastBuild', label: 'Last build' },
  { sort: 'queued', label: 'Going out in 7 days', numeric: true },
  { sort: 'published', label: 'Published this month', numeric: true },
  { sort: 'views', label: 'Views this month', numeric: true },
  { sort: 'indexnow', label: 'IndexNow failures', numeric: true },
  { sort: 'deploys', label: 'Deploys this cycle', numeric: true },
  { sort: 'problem', label: 'First problem' },
];

/** One formatter for the board's thousands of figures (a `toLocaleString` call makes one each time). */
const NUMBER = new Intl.NumberFormat('en-US');
const number = (value: number) => NUMBER.format(value);

function SitesBoard() {
  const board = useLoad(async () => (await takeFirstRead()) ?? loadSitesBoard(supabaseBrowser()), []);
  useLiveReload(board.reload, undefined, boardPollMs(board.value?.length ?? 0, DEPLOY_STATUS_POLL_MS));
  const [sort, setSort] = useState<{ by: BoardSort; descending: boolean }>({ by: 'problem', descending: false });
  const [filter, setFilter] = useState<BoardFilter>({ text: '', state: 'all', problemsOnly: false, role: 'all' });
  const rows = useMemo(() => (board.value ?? []).map((site) => boardRow(site)), [board.value]);
  const shown = useMemo(() => sortBoard(filterBoard(rows, filter), sort.by, sort.descending), [rows, filter, sort]);
  const problems = rows.filter((row) => row.problem).length;

  function sortBy(by: BoardSort) {
    setSort((current) => ({ by, descending: current.by === by ? !current.descending : false }));
  }

  return (
    <>
      <h2 className="text-xl font-semibold">Your sites</h2>
      <p className="mt-2 max-w-3xl text-sm text-muted-foreground">
        Every site you belong to, each in the role you have there. Sites with a problem to act on come first; choose a
        column to sort by it. Open a site to manage it.
      </p>
      {board.state === 'error' && !board.value ? (
        <ErrorState message="Your sites could not be loaded." onRetry={board.reload} />
      ) : !board.value ? (
        <Skeleton rows={4} label="Loading your sites..." />
      ) : (
        <>
          <p className="mt-4 text-sm" role="status" data-testid="sites-summary">
            {number(rows.length)} {rows.length === 1 ? 'site' : 'sites'}; {problems === 0 ? 'nothing to act on.' : `${number(problems)} with a problem to act on.`}
          </p>
          <div className="mt-4 flex flex-wrap items-end gap-3">
            <label className="text-sm">
              <span className="block font-medium">Find a site</span>
              <Input type="search" value={filter.text} onChange={(event) => setFilter({ ...filter, text: event.target.value })} placeholder="Name, slug or domain" className="mt-1 w-64" />
            </label>
            <Select aria-label="State" options={STATE_FILTERS} value={filter.state} onChange={(event) => setFilter({ ...filter, state: event.target.value as BoardFilter['state'] })} />
            <Select aria-label="Your role" options={ROLE_FILTERS} value={filter.role} onChange={(event) => setFilter({ ...filter, role: event.target.value as BoardFilter['role'] })} />
            <Select
              aria-label="Sort by"
              className="sm:hidden"
              options={COLUMNS.flatMap((column) => [
                { value: `${column.sort}:asc`, label: `${column.label} ↑` },
                { value: `${column.sort}:desc`, label: `${column.label} ↓` },
              ])}
              value={`${sort.by}:${sort.descending ? 'desc' : 'asc'}`}
              onChange={(event) => {
                const [by, direction] = event.target.value.split(':') as [BoardSort, string];
                setSort({ by, descending: direction === 'desc' });
              }}
            />
            <label className="flex items-center gap-2 py-2 text-sm">
              <input type="checkbox" checked={filter.problemsOnly} onChange={(event) => setFilter({ ...filter, problemsOnly: event.target.checked })} />
              Only sites with a problem
            </label>
          </div>
          {shown.length === 0 ? (
            <div className="mt-6">
              <EmptyState title={rows.length === 0 ? 'You belong to no site yet.' : 'No site matches these filters.'} />
            </div>
          ) : (
            <div className="mt-6">
              <Table stacked>
                <caption className="sr-only">Your sites</caption>
                <thead className="max-sm:hidden">
                  <tr>
                    {COLUMNS.map((column) => (
                      <Th key={column.sort} aria-sort={sort.by === column.sort ? (sort.descending ? 'descending' : 'ascending') : undefined} className={column.numeric ? 'text-right' : undefined}>
                        <button type="button" onClick={() => sortBy(column.sort)} className="font-medium hover:text-foreground focus-visible:outline-2 focus-visible:outline-primary">
                          {column.label}
                          {sort.by === column.sort ? (sort.descending ? ' ↓' : ' ↑') : ''}
                        </button>
                      </Th>
                    ))}
                    <Th>
                      <span className="sr-only">Open</span>
                    </Th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((row) => (
                    <SiteRow key={row.site.organization_id} row={row} />
                  ))}
                </tbody>
              </Table>
            </div>
          )}
        </>
      )}
    </>
  );
}

function SiteRow({ row }: { row: BoardRow }) {
  const { site, budget } = row;
  function open() {
    switchOrganization(site.organization_id);
    window.location.assign(site.role === 'admin' ? '/admin' : '/admin/blog');
  }
  return (
    <tr data-testid="site-row" data-organization-id={site.organization_id}>
      <Td>
        <span className="font-medium">{site.name}</span>
        <span className="block text-xs text-muted-foreground">
          {site.domain ?? site.slug} · {ROLE_NAMES[site.role]} · {site.time_zone}
        </span>
      </Td>
      <Td>
        <Badge variant={STATE_BADGES[row.state]} title={row.detail} className="whitespace-nowrap">
          {BOARD_STATE_LABELS[row.state]}
        </Badge>
      </Td>
      <Td>
        <PhoneLabel>Last build: </PhoneLabel>
        {row.lastBuild ? (
          <>
            {row.lastBuild.state === 'failed' ? 'Failed ' : row.lastBuild.state === 'building' ? 'Started ' : ''}
            <RelativeTime date={row.lastBuild.at} />
          </>
        ) : (
          <span className="text-muted-foreground">None yet</span>
        )}
      </Td>
      <Td className="sm:text-right">
        <PhoneLabel>Going out in 7 days: </PhoneLabel>
        {number(site.queued_next_7_days)}
      </Td>
      <Td className="sm:text-right">
        <PhoneLabel>Published this month: </PhoneLabel>
        {number(site.published_this_month)}
      </Td>
      <Td className="sm:text-right">
        <PhoneLabel>Views this month: </PhoneLabel>
        {number(site.views_this_month)}
      </Td>
      <Td className="sm:text-right">
        <PhoneLabel>IndexNow failures: </PhoneLabel>
        {number(site.indexnow_failures)}
      </Td>
      <Td className="sm:text-right">
        <PhoneLabel>Deploys this cycle: </PhoneLabel>
        {budget ? (
          <>
            {number(budget.deploys)} ({number(budget.credits)} credits)
            <span className="block text-xs text-muted-foreground">
              {budget.teamName}: {number(budget.teamUsed)} of {number(budget.teamBudget)} builds
            </span>
          </>
        ) : (
          <span className="text-muted-foreground">No budget set</span>
        )}
      </Td>
      <Td className="max-w-xs" data-testid="site-problem">
        {row.problem ?? <span className="text-muted-foreground">Nothing to act on</span>}
      </Td>
      <Td>
        <Button variant="outline" onClick={open} aria-label={`Open ${site.name}`}>
          Open
        </Button>
      </Td>
    </tr>
  );
}
