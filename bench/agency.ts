/**
 * The `agency` area: the sites board and the calendar at agency size, on the production-like served site of the
 * `pages` and `admin` areas (served-site.ts: its own backend with the project's migrations and seed) with
 * 500 organizations (each its own hosting team, as site:add makes them) of 200 posts each, a third of them
 * scheduled or queued over the next 45 days and the rest published over the last year, one recorded build and a
 * month of views each; one person is a member of all 500 (admin, editor or viewer in turn), signed in through
 * the app's sign-in. Measured through the REST API as that person, after warm-up: `sites_board()` and a month of
 * `sites_calendar()` (the 42 days of the month's grid), each one request and one SQL statement whatever the
 * number of sites; budget: p95 at most 300 ms each. Then the page: BENCH_AGENCY_PAGE_RUNS (default 9) cold visits to
 * /admin/sites in a fresh browser context (signed in through /auth once), from navigation start until the board
 * shows its 500 rows; budget: the median at most 1,000 ms (usable within a second). The posts are written with the triggers off (a hundred
 * thousand audit entries and rebuild requests are not what is measured); everything the two reads use is there.
 */
import type { Browser, BrowserContext } from '@playwright/test';
import { createClient } from '@supabase/supabase-js';
import pg from 'pg';
import { LOCAL_SUPABASE } from '../src/lib/server/service-config.ts';
import { signIn } from '../src/lib/server/sign-in.ts';
import { signedInState } from './admin.ts';
import { launchChromium } from './browser.ts';
import { figure, percentile, type AreaReport } from './measure.ts';
import { withServedSite } from './served-site.ts';

const SITES = 500;
const POSTS_PER_SITE = 200;
const RUNS = 40;
const BUDGET_MS = 300;
const PAGE_RUNS = Number(process.env.BENCH_AGENCY_PAGE_RUNS ?? 9);
const PAGE_BUDGET_MS = 1000;
const PASSWORD = 'Agency-Bench-2026';

/**
 * 500 sites, their posts, builds and views, and one person in all of them, into the backend at `apiUrl` (its
 * Postgres at `dbUrl`, as a user that may turn the triggers off); answers that person's address.
 */

export async function seedAgency(apiUrl: string, dbUrl: string): Promise<string> {
  const service = createClient(apiUrl, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } });
  const email = 'agency-owner@agency.test';
  const { data: created, error } = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
  if (error || !created.user) throw new Error(`creating the agency's person: ${error?.message}`);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  try {
    // Organizations and memberships through their triggers (each organization gets its hosting team).
    await db.query(
      `insert into public.organizations (name, slug)
       select format('Client site %s', lpad(n::text, 3, '0')), format('client-site-%s', n) from generate_series(1, $1) n`,
      [SITES],
    );
    await db.query(
      `insert into public.organization_memberships (user_id, organization_id, role)
       select $1, o.id, (array['admin', 'editor', 'viewer'])[1 + (row_number() over (order by o.slug))::int % 3]
       from public.organizations o where o.slug like 'client-site-%'`,
      [created.user.id],
    );
    // Posts, builds and views as rows: the triggers' side effects are not what the reads measure.
    await db.query(`set session_replication_role = replica`);
    await db.query(
      `insert into public.blog_posts (organization_id, title, slug, content, content_source, status, published_at, queued)
       select o.id, format('Post %s of %s', i, o.name), format('post-%s', i), '<p>Agency.</p>', '<p>Agency.</p>',
              case when i % 3 = 0 then 'scheduled' else 'published' end,
              case when i % 3 = 0 then now() + ((i * 5) % (45 * 24)) * interval '1 hour' + interval '1 hour'
                   else now() - (i * interval '41 hours') end,
              i % 6 = 0
       from public.organizations o cross join generate_series(1, $1) i
       where o.slug like 'client-site-%'`,
      [POSTS_PER_SITE],
    );
    await db.query(
      `insert into public.site_deploys (organization_id, source, external_id, state, started_at, finished_at, url)
       select o.id, 'netlify', 'bench-' || o.slug, 'succeeded', now() - interval '2 hours', now() - interval '119 minutes', 'https://' || o.slug || '.example'
       from public.organizations o where o.slug like 'client-site-%'`,
    );
    await db.query(
      `insert into public.post_view_days (post_id, organization_id, day, views)
       select p.id, p.organization_id, d::date, 3
       from public.blog_posts p cross join generate_series(now() - interval '20 days', now(), interval '1 day') d
       where p.slug in ('post-1', 'post-2') and p.organization_id in (select id from public.organizations where slug like 'client-site-%')`,
    );
    await db.query(`set session_replication_role = origin`);
    await db.query('analyze');
  } finally {
    await db.end();
  }
  return email;
}

/** Times a read RUNS times after 5 warm-up calls; checks each answer. */
async function timed(call: () => Promise<{ error: unknown; data: unknown }>, check: (data: unknown) => void): Promise<number[]> {
  for (let i = 0; i < 5; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const { data, error } = await call();
    times.push(performance.now() - started);
    if (error) throw new Error(`agency read failed: ${JSON.stringify(error)}`);
    check(data);
  }
  return times;
}

/** One cold visit to the board: ms from navigation start until it shows every site's row. */
async function coldBoardVisit(browser: Browser, baseURL: string, storageState: Awaited<ReturnType<BrowserContext['storageState']>>): Promise<number> {
  const context = await browser.newContext({ baseURL, storageState });
  try {
    const page = await context.newPage();
    await page.goto('/admin/sites', { waitUntil: 'commit' });
    const shown = await page.waitForFunction(
      (sites) => document.querySelectorAll('[data-testid="site-row"]').length === sites && performance.now(),
      SITES,
      { timeout: 30_000, polling: 'raf' },
    );
    return (await shown.jsonValue()) as number;
  } finally {
    await context.close();
  }
}

export async function measureAgency(): Promise<AreaReport> {
  return withServedSite(async ({ baseUrl, apiUrl, dbUrl }) => {
    const seeding = performance.now();
    // As the backend's superuser: the seed turns the triggers off for its rows.
    const email = await seedAgency(apiUrl, dbUrl.replace('//postgres:', '//supabase_admin:'));
    const seededIn = performance.now() - seeding;
    const auth = { url: apiUrl, anonKey: LOCAL_SUPABASE.anonKey };
    const service = createClient(apiUrl, LOCAL_SUPABASE.serviceRoleKey, { auth: { persistSession: false } });
    const outcome = await signIn(service, auth, { email, password: PASSWORD }, { ip: null, userAgent: 'bench' });
    if (outcome.kind !== 'granted') throw new Error(`the agency's person could not sign in: ${outcome.kind}`);
    const client = createClient(apiUrl, LOCAL_SUPABASE.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    await client.auth.setSession(outcome.session);

    const board = await timed(
      async () => client.rpc('sites_board'),
      (data) => {
        if ((data as unknown[]).length !== SITES) throw new Error(`the board answered ${(data as unknown[]).length} sites`);
      },
    );
    const now = new Date();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - ((new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).getUTCDay() + 6) % 7) * 86_400_000);
    const to = new Date(from.getTime() + 42 * 86_400_000);
    let posts = 0;
    const calendar = await timed(
      async () => client.rpc('sites_calendar', { p_from: from.toISOString(), p_to: to.toISOString() }),
      (data) => {
        posts = (data as { posts: unknown[] }).posts.length;
        if ((data as { sites: unknown[] }).sites.length !== SITES) throw new Error('the calendar answered another number of sites');
      },
    );

    const browser = await launchChromium();
    const visits: number[] = [];
    try {
      const state = await signedInState(browser, baseUrl, { email, password: PASSWORD });
      for (let run = 0; run < PAGE_RUNS; run++) visits.push(await coldBoardVisit(browser, baseUrl, state));
    } finally {
      await browser.close();
    }

    const p95 = (runs: number[]) => Math.round(percentile(runs, 95));
    return {
      figures: [
        figure(`Agency: the sites board of ${SITES} sites, p95 of ${RUNS} reads`, 'ms', [p95(board)], BUDGET_MS),
        figure(`Agency: a month of the calendar across ${SITES} sites, p95 of ${RUNS} reads`, 'ms', [p95(calendar)], BUDGET_MS),
        figure(`Agency: /admin/sites cold, navigation to its ${SITES} rows shown`, 'ms', visits, PAGE_BUDGET_MS),
      ],
      markdown:
        `## Agency: every client site on one screen\n\n${SITES} organizations of ${POSTS_PER_SITE} posts each (a third scheduled or queued), one person ` +
        `a member of all of them. One request each, one SQL statement: the board ${p95(board)} ms at p95 (median ${Math.round(percentile(board, 50))} ms), ` +
        `a month's grid of the calendar (${posts.toLocaleString('en-US')} posts) ${p95(calendar)} ms at p95 (median ${Math.round(percentile(calendar, 50))} ms). ` +
        `The board's page, cold, shows its ${SITES} rows ${Math.round(percentile(visits, 50))} ms after navigation starts (median of ${PAGE_RUNS}; slowest ${Math.round(Math.max(...visits))} ms). ` +
        `Seeding took ${Math.round(seededIn / 1000)} s.`,
      detail: {
        sites: SITES,
        postsPerSite: POSTS_PER_SITE,
        board: { p50: percentile(board, 50), p95: percentile(board, 95) },
        calendar: { p50: percentile(calendar, 50), p95: percentile(calendar, 95), posts },
        page: { runs: visits },
      },
    };
  });
}
