import { useEffect, useState } from 'react';
import { calendarDays, INCOMPLETE_LINK, loadClientCalendar, tokenFromHash, type ClientCalendarAnswer } from '../lib/client-calendar';
import { publicSupabaseConfig } from '../lib/supabase-config';

/**
 * The read-only calendar a client opens from the link an admin made (/client-calendar#<token>): the site's
 * upcoming posts by day, each with its time and whether it is queued or at a time of its own, in the site's time
 * zone. Nothing else: no drafts, no content, no other site. A link that is not valid (unknown, expired or
 * revoked) shows the database's one refusal; no sign-in is offered, as there is nothing here to sign in to.
 */
export default function ClientCalendar() {
  // The page is client-only: the address is there from the first render, and a link has one token for good.
  const [token] = useState(() => tokenFromHash(window.location.hash));
  const [answer, setAnswer] = useState<ClientCalendarAnswer | { kind: 'loading' }>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (!token) return;
    let latest = true;
    void loadClientCalendar(token, publicSupabaseConfig()).then((loaded) => latest && setAnswer(loaded));
    return () => {
      latest = false;
    };
  }, [token, attempt]);

  function retry() {
    setAnswer({ kind: 'loading' });
    setAttempt((n) => n + 1);
  }

  if (!token) return <Notice>{INCOMPLETE_LINK}</Notice>;
  if (answer.kind === 'loading') return <p className="text-muted-foreground" role="status">Loading the calendar...</p>;
  if (answer.kind === 'refused') return <Notice>{answer.message}</Notice>;
  if (answer.kind === 'failed') {
    return (
      <Notice>
        The calendar could not be loaded. Check your connection and{' '}
        <button type="button" className="font-semibold text-primary underline underline-offset-2" onClick={retry}>
          try again
        </button>
        .
      </Notice>
    );
  }

  const { site, link, posts } = answer.calendar;
  const days = calendarDays(posts, site.time_zone);
  const until = new Date(link.expires_at).toLocaleDateString('en-US', { timeZone: site.time_zone, month: 'long', day: 'numeric', year: 'numeric' });
  return (
    <div data-testid="client-calendar">
      <p className="text-sm font-semibold tracking-wide text-primary uppercase">Publishing calendar</p>
      <h1 className="mt-2 text-3xl font-bold">Upcoming posts on {site.name}</h1>
      <p className="mt-3 text-muted-foreground">
        Times are in the site&rsquo;s time zone, {site.time_zone.replaceAll('_', ' ')}. Queued posts take the publishing queue&rsquo;s next
        free times, so their dates can move as posts are added. This link, made for {link.label}, works until {until}.
      </p>
      {days.length === 0 ? (
        <p className="mt-10 rounded-lg border border-border p-6 text-center">Nothing is scheduled yet. New posts appear here as soon as they are planned.</p>
      ) : (
        <ol className="mt-10 space-y-8" aria-label="Upcoming posts by day">
          {days.map((day) => (
            <li key={day.key}>
              <h2 className="text-lg font-semibold">{day.label}</h2>
              <ul className="mt-3 divide-y divide-border rounded-lg border border-border">
                {day.posts.map((post, index) => (
                  <li key={`${post.at}-${index}`} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 p-4" data-testid="client-calendar-post">
                    <time dateTime={post.at} className="w-20 shrink-0 text-sm text-muted-foreground tabular-nums">
                      {post.time}
                    </time>
                    <span className="min-w-0 flex-1 font-medium break-words">{post.title}</span>
                    <span className="rounded-full border border-border px-2.5 py-0.5 text-xs font-medium">{post.queued ? 'Queued' : 'Scheduled'}</span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Notice({ children }: { children: React.ReactNode }) {
  return (
    <div role="alert" className="rounded-lg border border-border p-6">
      <h1 className="text-xl font-semibold">This calendar cannot be shown</h1>
      <p className="mt-2 text-muted-foreground">{children}</p>
    </div>
  );
}
