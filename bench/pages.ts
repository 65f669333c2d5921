/**
 * The public pages' targets, on every route of the built site served by `netlify serve` (see
 * served-site.ts):
 * - with Playwright, on every route: the JavaScript a visit loads before any interaction (load, network idle, a
 *   moment more), then after hovering the header's theme toggle and clicking it once (which must switch the
 *   theme: the island hydrates on interaction and the first click works); and the CSS and HTML bytes.
 * - Lighthouse in mobile emulation (performance, accessibility, best practices, SEO, LCP, TBT, CLS, render-blocking
 *   requests), median of BENCH_LIGHTHOUSE_RUNS runs (default 1; four more when that misses TBT 0, CLS 0 or a score of 98,
 *   see lighthouseRuns), on one route per template (the first in path
 *   order: one post, one category page, one tag page, one list page N, one service, one newsletter answer; every
 *   other page is its own template). Routes of the same template share their markup and scripts, and measuring
 *   each would take the benchmark past 10 minutes. `BENCH_ALL_ROUTES=1` runs Lighthouse on every route.
 *
 * Routes: every `.html` file of `dist/` that the server answers with 200, except `/admin*` (the client-only
 * back office, behind sign-in). Moved posts' old slugs are 301s and so left out. `/auth` is kept: it is a
 * static page with the public header and footer, its form an island; it and `/blog/search` (whose search runs
 * at once) are the two pages allowed JavaScript before interaction.
 * SEO is exempt on pages marked `noindex` (legal pages, 404s, search, docs): Lighthouse fails them on purpose.
 * A page's own islands are the `astro-island` elements inside its `<main>`; the header's theme toggle and the
 * footer's newsletter form are the layout's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_PATH, QUIET_FLAGS, launchChromium, responseBytes, responseKind } from './browser.ts';
import { figure, median, type AreaReport, type Figure } from './measure.ts';
import { startCompressingFront } from './compressing-front.ts';
import { withServedSite } from './served-site.ts';
import { interactionFigures, interactionTable, measureFirstInteractions } from './first-interaction.ts';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 1);

/** Pages allowed JavaScript before any interaction: sign-in (its form is the island) and search (it searches at once). */
const SCRIPTED_PAGES = new Set(['/auth', '/blog/search']);

/**
 * This machine has no network: the stock photos, the form provider's frame and its script fail to resolve,
 * and the page logs the provider failure as it should. Those console errors say nothing about the site,
 * so `errors-in-console` ignores them; every other console error still costs best-practices points.
 */
const OFFLINE_CONSOLE_ERRORS = ['ERR_NAME_NOT_RESOLVED', 'ERR_INTERNET_DISCONNECTED', 'Failed to load the booking provider script'];
const LIGHTHOUSE_CONFIG = {
  extends: 'lighthouse:default',
  settings: { onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'] },
  audits: [{ path: 'errors-in-console', options: { ignoredPatterns: OFFLINE_CONSOLE_ERRORS } }],
};
const KB = 1024;

interface Bytes {
  raw: number;
  gzip: number;
}

/** Everything measured on one route; scores 0-100, times in ms, medians of the Lighthouse runs. */
interface RouteResult {
  route: string;
  noindex: boolean;
  ownIslands: string[];
  /** Lighthouse's runs; empty on routes measured through their template's representative. */
  runs: { performance: number[]; accessibility: number[]; bestPractices: number[]; seo: number[]; lcp: number[]; tbt: number[]; cls: number[] };
  /** The route whose Lighthouse runs stand for this one's (itself when measured). */
  lighthouseRoute: string;
  renderBlockingScripts: string[];
  /** Audits that cost accessibility, best-practices or SEO points in any run. */
  failingAudits: string[];
  /** JavaScript loaded before any interaction, and in all once the theme toggle was hovered and clicked. */
  js: Bytes;
  jsAfterInteraction: Bytes;
  /** Whether hovering the theme toggle and clicking it once switched the theme. */
  toggleWorked: boolean;
  css: Bytes;
  html: Bytes;
  /** Why the byte visit failed (its bytes are then zero and the toggle counts as not working). */
  error?: string;
}

const NOT_MEASURED = { js: { raw: 0, gzip: 0 }, jsAfterInteraction: { raw: 0, gzip: 0 }, toggleWorked: false, css: { raw: 0, gzip: 0 }, html: { raw: 0, gzip: 0 } };

/** Routes that share a template: all posts, category pages, tag pages, list pages N, services, newsletter answers. */
function templateOf(route: string): string {
  const patterns: Array<[RegExp, string]> = [
    [/^\/blog\/category\/[^/]+\/page\/\d+$/, '/blog/category/{c}/page/{n}'],
    [/^\/blog\/category\/[^/]+$/, '/blog/category/{c}'],
    [/^\/blog\/tag\/[^/]+\/page\/\d+$/, '/blog/tag/{t}/page/{n}'],
    [/^\/blog\/tag\/[^/]+$/, '/blog/tag/{t}'],
    [/^\/blog\/page\/\d+$/, '/blog/page/{n}'],
    [/^\/blog\/(?!search$)[^/]+$/, '/blog/{slug}'],
    [/^\/services\/[^/]+$/, '/services/{id}'],
    [/^\/newsletter\/[^/]+$/, '/newsletter/{outcome}'],
    [/^\/docs\/.+$/, '/docs/{page}'],
  ];
  return patterns.find(([pattern]) => pattern.test(route))?.[1] ?? route;
}

/** Every page file of the build and its route: `dist/about/index.html` → `/about`, `dist/404.html` → `/404`. */
function pagesOf(dist: string): Array<{ route: string; file: string }> {
  return readdirSync(dist, { recursive: true })
    .map(String)
    .filter((file) => file.endsWith('.html'))
    .map((file) => ({ route: `/${file.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '')}`.replace(/(.)\/$/, '$1'), file: join(dist, file) }))
    .filter(({ route }) => !/^\/admin(\/|$)/.test(route))
    .sort((a, b) => a.route.localeCompare(b.route));
}

async function answersOk(url: string): Promise<boolean> {
  const response = await fetch(url, { redirect: 'manual' });
  await response.arrayBuffer();
  return response.status === 200;
}

/** The route's own islands (component file names) and whether it is noindex, read from the built HTML. */
function pageFacts(file: string): { ownIslands: string[]; noindex: boolean } {
  const html = readFileSync(file, 'utf8');
  const main = /<main[\s>][\s\S]*<\/main>/.exec(html)?.[0] ?? '';
  const ownIslands = [...main.matchAll(/<astro-island[^>]*component-url="\/_astro\/([^".?]+)/g)].map((m) => m[1]!);
  return { ownIslands, noindex: /<meta name="robots" content="[^"]*noindex/.test(html) };
}

/** Runs added when the median of the first misses a performance budget (see `lighthouseRuns`): five in all, as Lighthouse advises for a stable median. */
const SECOND_LOOK_RUNS = 4;

/** Whether the runs' medians keep the performance budgets every route shares: TBT 0 and CLS 0 (the score's bound differs per route). */
const keepsBudgets = (runs: RouteResult['runs']) => median(runs.tbt) === 0 && median(runs.cls) === 0 && median(runs.performance) >= 98;

/**
 * Lighthouse's runs of one URL in the shared Chrome: BENCH_LIGHTHOUSE_RUNS, and when their median misses TBT 0,
 * CLS 0 or a score of 98, SECOND_LOOK_RUNS more, the median then taken over all. On this shared machine a single
 * run's blocking time moves by tens of milliseconds from one run to the next (a 20 ms task observed is 80 ms
 * simulated); a page that really misses misses in the median too.
 */
async function lighthouseRuns(url: string, port: number): Promise<Pick<RouteResult, 'runs' | 'renderBlockingScripts' | 'failingAudits'>> {
  const runs: RouteResult['runs'] = { performance: [], accessibility: [], bestPractices: [], seo: [], lcp: [], tbt: [], cls: [] };
  const blocking = new Set<string>();
  const failing = new Set<string>();
  for (let run = 0; run < RUNS || (run < RUNS + SECOND_LOOK_RUNS && !keepsBudgets(runs)); run++) {
    const result = await lighthouse(url, { port, logLevel: 'error', output: 'json' }, LIGHTHOUSE_CONFIG);
    const lhr = result?.lhr;
    if (!lhr || lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr?.runtimeError?.message ?? 'no result'}`);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    runs.performance.push(score('performance'));
    runs.accessibility.push(score('accessibility'));
    runs.bestPractices.push(score('best-practices'));
    runs.seo.push(score('seo'));
    runs.lcp.push(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN);
    runs.tbt.push(lhr.audits['total-blocking-time']?.numericValue ?? NaN);
    runs.cls.push(lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN);
    const details = lhr.audits['render-blocking-insight']?.details as { items?: Array<{ url?: string }> } | undefined;
    for (const item of details?.items ?? []) if (item.url && /\.m?js(\?|$)/.test(item.url)) blocking.add(item.url);
    for (const category of ['accessibility', 'best-practices', 'seo']) {
      for (const ref of lhr.categories[category]?.auditRefs ?? []) {
        const score = lhr.audits[ref.id]?.score;
        if (ref.weight > 0 && score !== null && score !== undefined && score < 1) failing.add(ref.id);
      }
    }
  }
  return { runs, renderBlockingScripts: [...blocking], failingAudits: [...failing] };
}

/**
 * Bytes a visit loads: JavaScript before any interaction (load, network idle, half a second more for anything
 * idle or visible that would still start), then hover the header's theme toggle, click it once and check the
 * theme switched, and the JavaScript loaded by then; CSS and HTML of the whole visit.
 */
async function pageBytes(browser: import('@playwright/test').Browser, url: string): Promise<Pick<RouteResult, 'js' | 'jsAfterInteraction' | 'toggleWorked' | 'css' | 'html' | 'error'>> {
  const context = await browser.newContext({ colorScheme: 'light' });
  const totals = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 }, html: { raw: 0, gzip: 0 } };
  const counted: Promise<void>[] = [];
  const settle = async () => {
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await page.waitForLoadState('networkidle');
    await Promise.all(counted);
  };
  const page = await context.newPage();
  try {
    page.on('response', (response) => {
      const kind = responseKind(response);
      if (kind === 'other') return;
      counted.push(responseBytes(response).then(({ raw, gzip }) => {
        totals[kind].raw += raw;
        totals[kind].gzip += gzip;
      }));
    });
    await page.goto(url, { waitUntil: 'load' });
    await settle();
    const js = { ...totals.js };
    const toggle = page.getByRole('banner').getByRole('button', { name: /^Switch to .* theme$/ });
    const choice = () => page.evaluate(() => document.documentElement.dataset.themeChoice);
    const before = await choice();
    await toggle.hover();
    await settle();
    await toggle.click();
    const toggleWorked = await page
      .waitForFunction((was) => document.documentElement.dataset.themeChoice !== was, before, { timeout: 5000 })
      .then(() => true, () => false);
    await settle();
    return { js, jsAfterInteraction: { ...totals.js }, toggleWorked, css: totals.css, html: totals.html };
  } finally {
    await context.close();
  }
}

/** The two screens the home page's image bytes are measured at: a desktop and a phone at its pixel ratio. */
const SCREENS = [
  { name: 'desktop 1440x900', viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1 },
  { name: 'phone 390x844', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 },
] as const;

/**
 * Image bytes of one visit to `url` at each screen, scrolled to the bottom so lazy images load too: the sum of
 * the bodies of responses with an `image/*` type (images are already compressed: raw bytes, no gzip), and
 * the image requests that went to another host (a hotlink; offline here, so it fails and loads nothing).
 */
async function imageBytes(browser: import('@playwright/test').Browser, url: string): Promise<Array<{ screen: string; bytes: number; foreign: number }>> {
  const measured = [];
  for (const screen of SCREENS) {
    const context = await browser.newContext({ viewport: screen.viewport, deviceScaleFactor: screen.deviceScaleFactor });
    let bytes = 0;
    let foreign = 0;
    const counted: Promise<void>[] = [];
    try {
      const page = await context.newPage();
      page.on('request', (request) => {
        if (request.resourceType() === 'image' && new URL(request.url()).host !== new URL(url).host) foreign++;
      });
      page.on('response', (response) => {
        if (!(response.headers()['content-type'] ?? '').startsWith('image/')) return;
        counted.push(response.body().then((body) => void (bytes += body.length), () => undefined));
      });
      await page.goto(url, { waitUntil: 'load' });
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += window.innerHeight / 2) {
          window.scrollTo(0, y);
          await new Promise((done) => setTimeout(done, 100));
        }
      });
      await page.waitForLoadState('networkidle');
      await Promise.all(counted);
      measured.push({ screen: screen.name, bytes, foreign });
    } finally {
      await context.close();
    }
  }
  return measured;
}

/** The home page's own figures: its LCP and performance score, and its image bytes per screen. */
function homeFigures(results: RouteResult[], images: Awaited<ReturnType<typeof imageBytes>>): Figure[] {
  const home = results.find((r) => r.route === '/');
  if (!home) return [];
  return [
    figure('Home page: Lighthouse performance', 'points', home.runs.performance),
    figure('Home page: LCP', 'ms', home.runs.lcp),
    ...images.flatMap(({ screen, bytes, foreign }) => [
      figure(`Home page: image bytes, ${screen}`, 'KB', [bytes / KB]),
      figure(`Home page: image requests to other hosts, ${screen}`, 'requests', [foreign], 0),
    ]),
  ];
}

const kb = (n: number) => Math.round((n / KB) * 10) / 10;

function table(results: RouteResult[]): string {
  const m = (values: number[], digits = 0) => (values.length ? String(Math.round(median(values) * 10 ** digits) / 10 ** digits) : '—');
  const rows = results.map((r) =>
    `| ${r.route} | ${r.lighthouseRoute === r.route ? m(r.runs.performance) : `(${r.lighthouseRoute})`} | ${r.runs.performance.length || '—'} | ${m(r.runs.accessibility)} | ${m(r.runs.bestPractices)} | ` +
    `${m(r.runs.seo)}${r.noindex && r.runs.seo.length ? ' (noindex)' : ''} | ${m(r.runs.lcp)} | ${m(r.runs.tbt)} | ${m(r.runs.cls, 3)} | ` +
    `${kb(r.js.gzip)} | ${kb(r.jsAfterInteraction.gzip)} | ${r.error ? `**failed: ${r.error.replaceAll('|', '/')}**` : r.toggleWorked ? 'yes' : '**no**'} | ${kb(r.css.gzip)} | ${kb(r.html.gzip)} | ${r.ownIslands.join(', ') || '—'} |`);
  const failing = new Map<string, number>();
  for (const r of results) for (const id of r.failingAudits) failing.set(id, (failing.get(id) ?? 0) + 1);
  const audits = [...failing].sort((a, b) => b[1] - a[1]).map(([id, routes]) => `\`${id}\` (${routes} routes)`);
  const measured = results.filter((r) => r.lighthouseRoute === r.route).length;
  return [
    `## Public pages (${results.length} routes; bytes in KB gzip)`,
    '',
    `JavaScript on every route: before any interaction, and after hovering the theme toggle and clicking it once ` +
      `("toggle": the click switched the theme). Lighthouse (mobile, median of ${RUNS} run${RUNS === 1 ? '' : 's'}, or of ${RUNS + SECOND_LOOK_RUNS} when that missed TBT 0, CLS 0 or a score of 98; ` +
      `"runs" gives the count; through a compressing front, as Netlify's CDN serves the pages) on ${measured} ` +
      `routes, one per template; a route in parentheses shares the template of the route named, which stands for it.`,
    '',
    '| route | perf | runs | a11y | bp | seo | LCP ms | TBT ms | CLS | JS before | JS after | toggle | CSS gz | HTML gz | own islands |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `Audits costing accessibility, best-practices or SEO points (any run; detail per route in report.json): ${audits.join(', ') || 'none'}.`,
  ].join('\n');
}

/** The figure of the route whose median is worst (`lowest` for scores); none when no route qualifies. */
function worst(results: RouteResult[], what: string, unit: string, runsOf: (r: RouteResult) => number[], bounds: { budget?: number; minimum?: number; lowest?: boolean }): Figure[] {
  const sorted = [...results].sort((a, b) => median(runsOf(a)) - median(runsOf(b)));
  const page = bounds.lowest ? sorted[0] : sorted.at(-1);
  return page ? [figure(`${what} (${page.route})`, unit, runsOf(page), bounds.budget, bounds.minimum)] : [];
}

function summary(results: RouteResult[]): Figure[] {
  const measured = results.filter((r) => r.lighthouseRoute === r.route);
  const indexed = measured.filter((r) => !r.noindex);
  const readOnly = results.filter((r) => !SCRIPTED_PAGES.has(r.route));
  const auth = results.filter((r) => r.route === '/auth');
  const pages = measured.filter((r) => r.route !== '/auth');
  return [
    ...worst(pages, 'Public pages except /auth: lowest Lighthouse performance', 'points', (r) => r.runs.performance, { minimum: 100, lowest: true }),
    ...worst(auth, '/auth: Lighthouse performance', 'points', (r) => r.runs.performance, { minimum: 98, lowest: true }),
    ...worst(measured, 'Public pages: lowest Lighthouse accessibility', 'points', (r) => r.runs.accessibility, { minimum: 100, lowest: true }),
    ...worst(measured, 'Public pages: lowest Lighthouse best practices', 'points', (r) => r.runs.bestPractices, { minimum: 100, lowest: true }),
    ...worst(indexed, 'Public pages: lowest Lighthouse SEO, indexed pages', 'points', (r) => r.runs.seo, { minimum: 100, lowest: true }),
    ...worst(measured, 'Public pages: highest LCP', 'ms', (r) => r.runs.lcp, {}),
    ...worst(measured, 'Public pages: highest TBT', 'ms', (r) => r.runs.tbt, { budget: 0 }),
    ...worst(measured, 'Public pages: highest CLS', 'shift', (r) => r.runs.cls, { budget: 0 }),
    ...worst(readOnly, 'Public pages except /auth and /blog/search: most JavaScript before interaction, gzip', 'KB', (r) => [r.js.gzip / KB], { budget: 6 }),
    ...worst(auth, '/auth: JavaScript before interaction, gzip', 'KB', (r) => [r.js.gzip / KB], { budget: 80 }),
    ...worst(results, 'Public pages: most JavaScript after hovering and clicking the theme toggle, gzip', 'KB', (r) => [r.jsAfterInteraction.gzip / KB], {}),
    figure('Public pages where hovering the theme toggle and clicking it once did not switch the theme', 'routes', [results.filter((r) => !r.toggleWorked).length], 0),
    figure('Public pages whose byte visit failed (the error is in the table)', 'routes', [results.filter((r) => r.error).length], 0),
    ...worst(results, 'Public pages: most CSS, gzip', 'KB', (r) => [r.css.gzip / KB], {}),
    ...worst(results, 'Public pages: largest HTML, gzip', 'KB', (r) => [r.html.gzip / KB], {}),
    ...worst(measured, 'Public pages: most render-blocking scripts', 'scripts', (r) => [r.renderBlockingScripts.length], { budget: 0 }),
  ];
}

/** Runs `work` on every item, at most `width` at a time; results in the items' order. */
async function pooled<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/** Byte visits at once: they count bytes, not time, so they may share the machine (Lighthouse runs alone, before them). */
const BYTE_VISITS_AT_ONCE = 4;

export async function measurePages(): Promise<AreaReport> {
  return withServedSite(async ({ baseUrl: served, dist }) => {
    // Pages are measured through a compressing front, as visitors get them from Netlify's CDN.
    const front = await startCompressingFront(served);
    try {
      return await measureServedPages(front.url, dist);
    } finally {
      await front.close();
    }
  });
}

async function measureServedPages(baseUrl: string, dist: string): Promise<AreaReport> {
  const pages: Array<{ route: string; file: string }> = [];
  // BENCH_ROUTES=/,/contact measures only those (a quick look; the report then covers only them).
  const only = process.env.BENCH_ROUTES?.split(',');
  for (const page of pagesOf(dist)) if ((!only || only.includes(page.route)) && (await answersOk(baseUrl + page.route))) pages.push(page);
  if (!pages.length) throw new Error(`No page of ${dist} answered 200 at ${baseUrl}`);
  /** Each template's route, whose Lighthouse runs stand for the template's other routes. */
  const representatives = new Map<string, string>();
  for (const { route } of pages) {
    const template = process.env.BENCH_ALL_ROUTES ? route : templateOf(route);
    if (!representatives.has(template)) representatives.set(template, route);
  }
  const standsFor = (route: string) => representatives.get(process.env.BENCH_ALL_ROUTES ? route : templateOf(route))!;
  const none = { runs: { performance: [], accessibility: [], bestPractices: [], seo: [], lcp: [], tbt: [], cls: [] }, renderBlockingScripts: [], failingAudits: [] };
  const lighthouseOf = new Map<string, Awaited<ReturnType<typeof lighthouseRuns>>>();
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', ...QUIET_FLAGS] });
  try {
    for (const route of representatives.values()) {
      console.error(`pages: Lighthouse ${route}`);
      lighthouseOf.set(route, await lighthouseRuns(baseUrl + route, chrome.port));
    }
  } finally {
    chrome.kill();
  }
  const browser = await launchChromium();
  try {
    const results = await pooled(pages, BYTE_VISITS_AT_ONCE, async ({ route, file }): Promise<RouteResult> => {
      const stands = standsFor(route);
      const lighthouse = stands === route ? lighthouseOf.get(route)! : none;
      const bytes = await pageBytes(browser, baseUrl + route).catch((error: Error) => ({ ...NOT_MEASURED, error: error.message.split('\n')[0]! }));
      console.error(`pages: bytes ${route}${bytes.error ? ` failed: ${bytes.error}` : ''}`);
      return { route, lighthouseRoute: stands, ...pageFacts(file), ...lighthouse, ...bytes };
    });
    const images = results.some((r) => r.route === '/') ? await imageBytes(browser, baseUrl + '/') : [];
    const interactions = await measureFirstInteractions(browser, baseUrl, [...representatives.values()]);
    return {
      figures: [...summary(results), ...homeFigures(results, images), ...interactionFigures(interactions)],
      markdown: `${table(results)}\n\n${interactionTable(interactions)}`,
      detail: { routes: results, firstInteractions: interactions },
    };
  } finally {
    await browser.close();
  }
}
