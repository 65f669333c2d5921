/**
 * The public pages' targets (issue 11), on every route of the built site served by `netlify serve` (see
 * served-site.ts): Lighthouse in mobile emulation (performance, accessibility, best practices, SEO, LCP, TBT,
 * render-blocking requests), median of BENCH_LIGHTHOUSE_RUNS runs (default 3); and, with Playwright, the
 * JavaScript, CSS and HTML bytes a visit loads once every island has hydrated.
 *
 * Routes: every `.html` file of `dist/` that the server answers with 200, except `/admin*` (the client-only
 * back office, behind sign-in). Moved posts' old slugs are 301s and so left out. `/auth` is kept: it is a
 * static page with the public header and footer, its form an island.
 * SEO is exempt on pages marked `noindex` (legal pages, 404s, search, docs): Lighthouse fails them on purpose.
 * A page's own islands are the `astro-island` elements inside its `<main>`; the header's theme toggle, the
 * footer's newsletter form and the layout's toaster are the layout's. TBT must be 0 on pages without their own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROME_PATH, QUIET_FLAGS, launchChromium, responseBytes, responseKind } from './browser.ts';
import { figure, median, type AreaReport, type Figure } from './measure.ts';
import { withServedSite } from './served-site.ts';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

/**
 * This machine has no network: the stock photos, the form provider's frame and its script fail to resolve,
 * and the page logs the provider failure as the spec asks. Those console errors say nothing about the site,
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
  runs: { performance: number[]; accessibility: number[]; bestPractices: number[]; seo: number[]; lcp: number[]; tbt: number[] };
  renderBlockingScripts: string[];
  /** Audits that cost accessibility, best-practices or SEO points in any run. */
  failingAudits: string[];
  js: Bytes;
  css: Bytes;
  html: Bytes;
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

/** Lighthouse's runs of one URL in the shared Chrome. */
async function lighthouseRuns(url: string, port: number): Promise<Pick<RouteResult, 'runs' | 'renderBlockingScripts' | 'failingAudits'>> {
  const runs: RouteResult['runs'] = { performance: [], accessibility: [], bestPractices: [], seo: [], lcp: [], tbt: [] };
  const blocking = new Set<string>();
  const failing = new Set<string>();
  for (let run = 0; run < RUNS; run++) {
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

/** Bytes a visit loads: after load, every island scrolled into view and hydrated, and the network idle. */
async function pageBytes(browser: import('@playwright/test').Browser, url: string): Promise<Pick<RouteResult, 'js' | 'css' | 'html'>> {
  const context = await browser.newContext();
  const totals = { js: { raw: 0, gzip: 0 }, css: { raw: 0, gzip: 0 }, html: { raw: 0, gzip: 0 } };
  const counted: Promise<void>[] = [];
  try {
    const page = await context.newPage();
    page.on('response', (response) => {
      const kind = responseKind(response);
      if (kind === 'other') return;
      counted.push(responseBytes(response).then(({ raw, gzip }) => {
        totals[kind].raw += raw;
        totals[kind].gzip += gzip;
      }));
    });
    await page.goto(url, { waitUntil: 'load' });
    for (const island of await page.locator('astro-island').all()) await island.scrollIntoViewIfNeeded().catch(() => undefined);
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]').length === 0, undefined, { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await Promise.all(counted);
    return totals;
  } finally {
    await context.close();
  }
}

/** The two screens the home page's image bytes are measured at (issue 19): a desktop and a phone at its pixel ratio. */
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

/** The home page's own figures (issue 19): its LCP and performance score, and its image bytes per screen. */
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
  const m = (values: number[]) => Math.round(median(values));
  const rows = results.map((r) =>
    `| ${r.route} | ${m(r.runs.performance)} | ${m(r.runs.accessibility)} | ${m(r.runs.bestPractices)} | ${m(r.runs.seo)}${r.noindex ? ' (noindex)' : ''} | ` +
    `${m(r.runs.lcp)} | ${m(r.runs.tbt)} | ${kb(r.js.gzip)} | ${kb(r.css.gzip)} | ${kb(r.html.gzip)} | ${r.ownIslands.join(', ') || '—'} |`);
  const failing = new Map<string, number>();
  for (const r of results) for (const id of r.failingAudits) failing.set(id, (failing.get(id) ?? 0) + 1);
  const audits = [...failing].sort((a, b) => b[1] - a[1]).map(([id, routes]) => `\`${id}\` (${routes} routes)`);
  return [
    `## Public pages (${results.length} routes, Lighthouse mobile, median of ${RUNS} runs; bytes in KB gzip)`,
    '',
    '| route | perf | a11y | bp | seo | LCP ms | TBT ms | JS gz | CSS gz | HTML gz | own islands |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
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
  const indexed = results.filter((r) => !r.noindex);
  const withoutOwnIslands = results.filter((r) => !r.ownIslands.length);
  return [
    ...worst(results, 'Public pages: lowest Lighthouse performance', 'points', (r) => r.runs.performance, { minimum: 95, lowest: true }),
    ...worst(results, 'Public pages: lowest Lighthouse accessibility', 'points', (r) => r.runs.accessibility, { minimum: 100, lowest: true }),
    ...worst(results, 'Public pages: lowest Lighthouse best practices', 'points', (r) => r.runs.bestPractices, { minimum: 100, lowest: true }),
    ...worst(indexed, 'Public pages: lowest Lighthouse SEO, indexed pages', 'points', (r) => r.runs.seo, { minimum: 100, lowest: true }),
    ...worst(results, 'Public pages: highest LCP', 'ms', (r) => r.runs.lcp, {}),
    ...worst(withoutOwnIslands, 'Public pages without their own islands: highest TBT', 'ms', (r) => r.runs.tbt, { budget: 0 }),
    ...worst(results, 'Public pages: highest TBT', 'ms', (r) => r.runs.tbt, {}),
    ...worst(results, 'Public pages: most JavaScript, gzip', 'KB', (r) => [r.js.gzip / KB], { budget: 80 }),
    ...worst(results, 'Public pages: most CSS, gzip', 'KB', (r) => [r.css.gzip / KB], {}),
    ...worst(results, 'Public pages: largest HTML, gzip', 'KB', (r) => [r.html.gzip / KB], {}),
    ...worst(results, 'Public pages: most render-blocking scripts', 'scripts', (r) => [r.renderBlockingScripts.length], { budget: 0 }),
  ];
}

export async function measurePages(): Promise<AreaReport> {
  return withServedSite(async ({ baseUrl, dist }) => {
    const pages: Array<{ route: string; file: string }> = [];
    // BENCH_ROUTES=/,/contact measures only those (a quick look; the report then covers only them).
    const only = process.env.BENCH_ROUTES?.split(',');
    for (const page of pagesOf(dist)) if ((!only || only.includes(page.route)) && (await answersOk(baseUrl + page.route))) pages.push(page);
    if (!pages.length) throw new Error(`No page of ${dist} answered 200 at ${baseUrl}`);
    const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', ...QUIET_FLAGS] });
    const browser = await launchChromium();
    const results: RouteResult[] = [];
    let images: Awaited<ReturnType<typeof imageBytes>> = [];
    try {
      for (const { route, file } of pages) {
        const url = baseUrl + route;
        console.error(`pages: ${route}`);
        results.push({ route, ...pageFacts(file), ...(await lighthouseRuns(url, chrome.port)), ...(await pageBytes(browser, url)) });
        if (route === '/') images = await imageBytes(browser, url);
      }
    } finally {
      await browser.close();
      chrome.kill();
    }
    return { figures: [...summary(results), ...homeFigures(results, images)], markdown: table(results), detail: results };
  });
}
