/**
 * The client calendar page's script (src/pages/client-calendar.astro): reads the link's token after `#`, asks what
 * it shows (src/lib/client-calendar.ts) and writes the site's upcoming posts by day into the page, every text as
 * text (never HTML). A refused link shows the database's one refusal; no answer offers another try.
 */
import { calendarDays, type ClientCalendar, INCOMPLETE_LINK, loadClientCalendar, tokenFromHash } from '../lib/client-calendar.ts';
import { publicSupabaseConfig } from '../lib/supabase-config.ts';

const root = document.querySelector<HTMLElement>('[data-client-calendar]')!;

/** An element with its classes and text (or children). */
function element(tag: string, className: string, content?: string | Node[]): HTMLElement {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (typeof content === 'string') made.textContent = content;
  else if (content) made.append(...content);
  return made;
}

function notice(message: string, retry?: () => void) {
  const text = element('p', 'mt-2 text-muted-foreground', message);
  if (retry) {
    const again = element('button', 'ml-1 font-semibold text-primary underline underline-offset-2', 'Try again');
    again.setAttribute('type', 'button');
    again.addEventListener('click', retry);
    text.append(again);
  }
  const box = element('div', 'rounded-lg border border-border p-6', [element('h1', 'text-xl font-semibold', 'This calendar cannot be shown'), text]);
  box.setAttribute('role', 'alert');
  root.replaceChildren(box);
}

function show({ site, link, posts }: ClientCalendar) {
  const until = new Date(link.expires_at).toLocaleDateString('en-US', { timeZone: site.time_zone, month: 'long', day: 'numeric', year: 'numeric' });
  const parts: Node[] = [
    element('p', 'text-sm font-semibold tracking-wide text-primary uppercase', 'Publishing calendar'),
    element('h1', 'mt-2 text-3xl font-bold', `Upcoming posts on ${site.name}`),
    element(
      'p',
      'mt-3 text-muted-foreground',
      `Times are in the site’s time zone, ${site.time_zone.replaceAll('_', ' ')}. Queued posts take the publishing queue’s next free times, ` +
        `so their dates can move as posts are added. This link, made for ${link.label}, works until ${until}.`,
    ),
  ];
  const days = calendarDays(posts, site.time_zone);
  if (days.length === 0) {
    parts.push(element('p', 'mt-10 rounded-lg border border-border p-6 text-center', 'Nothing is scheduled yet. New posts appear here as soon as they are planned.'));
  } else {
    const list = element(
      'ol',
      'mt-10 space-y-8',
      days.map((day) =>
        element('li', '', [
          element('h2', 'text-lg font-semibold', day.label),
          element(
            'ul',
            'mt-3 divide-y divide-border rounded-lg border border-border',
            day.posts.map((post) => {
              const time = element('time', 'w-20 shrink-0 text-sm text-muted-foreground tabular-nums', post.time);
              time.setAttribute('datetime', post.at);
              const item = element('li', 'flex flex-wrap items-baseline gap-x-4 gap-y-1 p-4', [
                time,
                element('span', 'min-w-0 flex-1 font-medium break-words', post.title),
                element('span', 'rounded-full border border-border px-2.5 py-0.5 text-xs font-medium', post.queued ? 'Queued' : 'Scheduled'),
              ]);
              item.dataset.testid = 'client-calendar-post';
              return item;
            }),
          ),
        ]),
      ),
    );
    list.setAttribute('aria-label', 'Upcoming posts by day');
    parts.push(list);
  }
  root.replaceChildren(...parts);
  root.dataset.testid = 'client-calendar';
}

async function load(token: string) {
  root.replaceChildren(element('p', 'text-muted-foreground', 'Loading the calendar...'));
  const answer = await loadClientCalendar(token, publicSupabaseConfig());
  if (answer.kind === 'shown') show(answer.calendar);
  else if (answer.kind === 'refused') notice(answer.message);
  else notice('The calendar could not be loaded. Check your connection.', () => void load(token));
}

const token = tokenFromHash(window.location.hash);
if (token) void load(token);
else notice(INCOMPLETE_LINK);
