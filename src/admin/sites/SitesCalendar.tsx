import { useMemo, useState } from 'react';
import {
  calendarRange, type CalendarPost, type CalendarSite, type CalendarView, dayIn, loadSitesCalendar, mayMove, movePostToDay, siteColour, stepAnchor,
} from '../../lib/back-office/sites-calendar';
import { supabaseBrowser } from '../../lib/back-office/supabase-browser';
import { formatInTimeZone, timeZoneLabel } from '../../lib/back-office/zoned-time';
import { toast } from '../../stores/toast';
import { Button } from '../components/ui/Button';
import { Dialog, DialogFooter } from '../components/ui/Dialog';
import { ErrorState } from '../components/ui/EmptyState';
import { Input } from '../components/ui/Input';
import { Skeleton } from '../components/ui/Skeleton';
import { cn } from '../components/ui/cn';
import { useLiveReload } from '../use-live-reload';
import { useLoad } from '../use-load';
import { useUrlParam } from '../use-url-param';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The person's own time zone: the calendar's days and times are theirs. */
const ownZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const clock = (iso: string, timeZone: string) => new Date(iso).toLocaleTimeString('en-US', { timeZone, hour: 'numeric', minute: '2-digit' });

/**
 * Every scheduled and queued post of the person's sites, by week or by month (in the address: `range`, `at`),
 * in the person's time zone; each site in its colour, each post with its time at the site in the site's zone.
 * Editors and admins move a post to another day; viewers only look.
 */
export default function SitesCalendar() {
  const zone = useMemo(() => ownZone(), []);
  const [rangeParam, setRange] = useUrlParam('range');
  const [atParam, setAt] = useUrlParam('at');
  const view: CalendarView = rangeParam === 'week' ? 'week' : 'month';
  const today = dayIn(new Date(), zone);
  const anchor = atParam && /^\d{4}-\d{2}-\d{2}$/.test(atParam) ? atParam : today;
  const range = useMemo(() => calendarRange(view, anchor, zone), [view, anchor, zone]);
  const calendar = useLoad(() => loadSitesCalendar(supabaseBrowser(), range.from, range.to), [range], []);
  useLiveReload(calendar.reload);
  const [moving, setMoving] = useState<CalendarPost | null>(null);

  const sites = calendar.value?.sites ?? [];
  const byDay = useMemo(() => {
    const days = new Map<string, CalendarPost[]>();
    for (const post of calendar.value?.posts ?? []) {
      const day = dayIn(post.published_at, zone);
      days.set(day, [...(days.get(day) ?? []), post]);
    }
    return days;
  }, [calendar.value, zone]);

  return (
    <section aria-labelledby="calendar-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="calendar-title" className="text-xl font-semibold" data-testid="calendar-title">
          {range.title}
        </h2>
        <div className="flex flex-wrap items-center gap-2">
          <Button variant="outline" onClick={() => setAt(stepAnchor(view, anchor, -1))} aria-label={view === 'week' ? 'Previous week' : 'Previous month'}>
            ←
          </Button>
          <Button variant="outline" onClick={() => setAt(null)}>
            Today
          </Button>
          <Button variant="outline" onClick={() => setAt(stepAnchor(view, anchor, 1))} aria-label={view === 'week' ? 'Next week' : 'Next month'}>
            →
          </Button>
          <div role="group" aria-label="Show" className="flex rounded-md border border-border">
            {(['week', 'month'] as const).map((each) => (
              <button
                key={each}
                type="button"
                aria-pressed={view === each}
                onClick={() => setRange(each)}
                className="px-3 py-2 text-sm font-medium aria-pressed:bg-muted focus-visible:outline-2 focus-visible:outline-primary"
              >
                {each === 'week' ? 'Week' : 'Month'}
              </button>
            ))}
          </div>
        </div>
      </div>
      <p className="mt-2 text-sm text-muted-foreground">
        Days and times in your time zone, {zone} ({timeZoneLabel(zone)}); each post also says its time at its site.
      </p>
      {sites.length > 0 && (
        <ul aria-label="Sites" className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {sites.map((site) => (
            <li key={site.organization_id} className="flex items-center gap-2">
              <span aria-hidden="true" className={cn('inline-block size-3 rounded-full', siteColour(sites, site.organization_id))} />
              <span>
                {site.name} <span className="text-muted-foreground">({site.time_zone}{mayMove(site) ? '' : ', view only'})</span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {calendar.state === 'error' && !calendar.value ? (
        <ErrorState message="The calendar could not be loaded." onRetry={calendar.reload} />
      ) : !calendar.value ? (
        <Skeleton rows={4} label="Loading the calendar..." />
      ) : (
        <ol className={cn('mt-4 grid gap-px overflow-hidden rounded-md border border-border bg-border', 'grid-cols-1 sm:grid-cols-7')} data-testid="calendar-days">
          {range.days.map((day, index) => {
            const posts = byDay.get(day.date) ?? [];
            // On a phone the month shows only days with posts; a week shows every day.
            const hiddenOnPhone = view === 'month' && posts.length === 0;
            return (
              <li
                key={day.date}
                data-date={day.date}
                className={cn('min-h-24 bg-background p-2', !day.inMonth && 'bg-muted/40 text-muted-foreground', hiddenOnPhone && 'max-sm:hidden')}
              >
                <p className={cn('text-xs font-medium', day.date === today && 'text-primary')}>
                  <span className={cn(index >= 7 && 'sm:hidden')}>{WEEKDAYS[index % 7]} </span>
                  {Number(day.date.slice(8))}
                  {day.date === today && <span className="sr-only"> (today)</span>}
                </p>
                <ul className="mt-1 space-y-1">
                  {posts.map((post) => (
                    <CalendarEntry key={post.id} post={post} sites={sites} zone={zone} onMove={() => setMoving(post)} />
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
      )}
      {moving && (
        <MoveDialog
          post={moving}
          site={sites.find((site) => site.organization_id === moving.organization_id)!}
          onClose={() => setMoving(null)}
          onMoved={() => {
            setMoving(null);
            calendar.reload();
          }}
        />
      )}
    </section>
  );
}

function CalendarEntry({ post, sites, zone, onMove }: { post: CalendarPost; sites: CalendarSite[]; zone: string; onMove: () => void }) {
  const site = sites.find((each) => each.organization_id === post.organization_id);
  const siteZone = site?.time_zone ?? zone;
  return (
    <li className="rounded-md border border-border p-1.5 text-xs" data-testid="calendar-post" data-post-id={post.id}>
      <span className="flex items-start gap-1.5">
        <span aria-hidden="true" className={cn('mt-1 inline-block size-2 shrink-0 rounded-full', siteColour(sites, post.organization_id))} />
        <span className="min-w-0">
          <span className="block font-medium break-words">{post.title}</span>
          <span className="block text-muted-foreground">
            <time dateTime={post.published_at}>{clock(post.published_at, zone)}</time>
            {siteZone !== zone && ` (${clock(post.published_at, siteZone)} ${timeZoneLabel(siteZone, new Date(post.published_at))} at the site)`}
            {' · '}
            {site?.name}
            {post.queued ? ' · queued' : ''}
          </span>
        </span>
      </span>
      {mayMove(site) && (
        <button type="button" onClick={onMove} className="mt-1 text-xs font-medium text-primary underline-offset-2 hover:underline" aria-label={`Move ${post.title}`}>
          Move
        </button>
      )}
    </li>
  );
}

function MoveDialog({ post, site, onClose, onMoved }: { post: CalendarPost; site: CalendarSite; onClose: () => void; onMoved: () => void }) {
  const [day, setDay] = useState(dayIn(post.published_at, site.time_zone));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function move() {
    setSaving(true);
    setError(null);
    try {
      const at = await movePostToDay(supabaseBrowser(), post.id, day);
      toast({ title: 'Post moved', description: `${post.title} now goes out ${formatInTimeZone(at, site.time_zone)} (${timeZoneLabel(site.time_zone, new Date(at))}).` });
      onMoved();
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Move "${post.title}"`}
      description={
        post.queued
          ? `It takes the first slot of ${site.name}'s publishing queue on that day (or the next day the queue has a slot), and the queue moves along.`
          : `It keeps its time of day, in ${site.name}'s time zone (${site.time_zone}).`
      }
    >
      <label className="block text-sm font-medium">
        Day, in {site.time_zone}
        <Input type="date" value={day} min={dayIn(new Date(), site.time_zone)} onChange={(event) => setDay(event.target.value)} className="mt-1" required />
      </label>
      {error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={move} disabled={saving || !day}>
          {saving ? 'Moving...' : 'Move'}
        </Button>
      </DialogFooter>
    </Dialog>
  );
}
