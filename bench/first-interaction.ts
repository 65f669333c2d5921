/**
 * The first interaction with each island, per island and route template, on a phone-sized page under
 * Lighthouse's mobile conditions (150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU slowed 4×:
 * tests/fixtures/mobile-conditions.ts): the time from the visitor's press (its `pointerdown`, or `keydown` for typing) until the
 * page has painted the visible change, the median of RUNS fresh loads (a new browser context each, so nothing is
 * cached); and the JavaScript (gzip) loaded before the interaction and once the page has settled after it.
 * Budget: 200 ms, what Interaction to Next Paint counts as good.
 *
 * "Painted" is the first frame after the change: the change is watched for in the page (a MutationObserver),
 * then the next animation frame and a message after it, which runs once that frame was presented.
 */
import type { Browser, Page } from '@playwright/test';
import { responseBytes, responseKind } from './browser.ts';
import { figure, median, type Figure } from './measure.ts';
import { MOBILE_CPU_SLOWDOWN, emulateMobileConditions } from '../tests/fixtures/mobile-conditions.ts';

const RUNS = 3;
const BUDGET_MS = 200;
const KB = 1024;

/** One island's first interaction: where, what the visitor does, and the visible change waited for. */
interface Interaction {
  island: string;
  /** A route of the template measured (its first route in path order). */
  route: string;
  /** Does the interaction; `pointerdown` or `keydown` marks its start in the page. */
  act: (page: Page) => Promise<void>;
  /** The visible change waited for (see `watchFirstInteraction`). */
  change: Change;
}

/** The visible changes: the theme switched, "Link copied" shown, the booking dialog open, the typed letter in the box. */
type Change = 'theme' | 'copied' | 'dialog' | 'typed';

/** Result of one island on one route: milliseconds per load, JavaScript (gzip KB) before and after. */
export interface InteractionResult {
  island: string;
  route: string;
  ms: number[];
  jsBefore: number[];
  jsAfter: number[];
  error?: string;
}

const themeToggle = (route: string): Interaction => ({
  island: 'theme toggle',
  route,
  act: (page) => page.getByRole('banner').getByRole('button', { name: /^Switch to .* theme$/ }).click(),
  change: 'theme',
});

/** The interactions measured, given the routes the site has (one route per template for the theme toggle). */
export function interactionsFor(routes: string[]): Interaction[] {
  const interactions = routes.map(themeToggle);
  const post = routes.find((route) => /^\/blog\/(?!search$|page\/|category\/|tag\/)[^/]+$/.test(route));
  if (post) {
    interactions.push({
      island: 'share button',
      route: post,
      act: (page) => page.getByRole('button', { name: 'Share' }).click(),
      change: 'copied',
    });
  }
  if (routes.includes('/')) {
    interactions.push({
      island: 'booking dialog',
      route: '/',
      act: (page) => page.getByRole('button', { name: 'Schedule Free Consultation' }).first().click(),
      change: 'dialog',
    });
  }
  if (routes.includes('/blog/search')) {
    interactions.push({
      island: 'search box',
      route: '/blog/search?q=marketing',
      act: (page) => page.getByRole('searchbox', { name: 'Search articles' }).press('s'),
      change: 'typed',
    });
  }
  return interactions;
}

/**
 * Registered before any page script (self-contained: Playwright sends its source): notes when the visitor
 * pressed, and resolves once the change is painted.
 */
function watchFirstInteraction(change: Change) {
  // Headless Chromium offers a share sheet that never opens: the button then copies, as on a desktop without one.
  if (change === 'copied') Object.defineProperty(navigator, 'share', { value: undefined });
  const changed = () => {
    if (change === 'theme') return document.documentElement.dataset.themeChoice !== 'system';
    if (change === 'copied') return [...document.querySelectorAll('[role="status"]')].some((status) => status.textContent?.includes('Link copied'));
    if (change === 'dialog') return Boolean(document.querySelector('booking-dialog dialog[open]'));
    // The box shows the page's query (`marketing`); the letter is typed where the caret is.
    return (document.querySelector<HTMLInputElement>('#blog-search-query')?.value ?? '').replace('marketing', '') === 's';
  };
  const state = window as unknown as { __pressedAt?: number; __painted?: Promise<number> };
  for (const type of ['pointerdown', 'keydown']) {
    addEventListener(type, (event) => void (state.__pressedAt ??= event.timeStamp), { capture: true, once: true });
  }
  state.__painted = new Promise((resolve) => {
    const check = () => {
      if (state.__pressedAt === undefined || !changed()) return;
      observer.disconnect();
      // The frame that shows the change, then a message, which runs after that frame was presented.
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve(performance.now());
        channel.port2.postMessage(null);
      });
    };
    const observer = new MutationObserver(check);
    const start = () => observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    if (document.documentElement) start();
    else addEventListener('DOMContentLoaded', start);
    // Typing changes an input's value, not the DOM: look on the input event too.
    addEventListener('input', check, { capture: true });
  });
}

async function oneLoad(browser: Browser, baseUrl: string, interaction: Interaction): Promise<{ ms: number; jsBefore: number; jsAfter: number }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, colorScheme: 'light' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  try {
    const page = await context.newPage();
    await emulateMobileConditions(page);
    // Other hosts (the booking provider's calendar, offline here) are refused at once: only the site is measured.
    await page.route((url) => url.origin !== new URL(baseUrl).origin, (route) => route.abort());
    let js = 0;
    const counted: Promise<void>[] = [];
    page.on('response', (response) => {
      if (responseKind(response) === 'js') counted.push(responseBytes(response).then(({ gzip }) => void (js += gzip)));
    });
    // Settled once a second passes with no new response (Playwright's `networkidle` is reached once per load,
    // so it would not wait for the island's code fetched after the interaction).
    const settle = async () => {
      await page.waitForLoadState('networkidle', { timeout: 60_000 });
      for (let seen = -1; seen !== counted.length; ) {
        seen = counted.length;
        await page.waitForTimeout(1000);
      }
      await Promise.all(counted);
    };
    await page.addInitScript(watchFirstInteraction, interaction.change);
    await page.goto(baseUrl + interaction.route, { waitUntil: 'load', timeout: 60_000 });
    await settle();
    const jsBefore = js;
    await interaction.act(page);
    const ms = await page.evaluate(async () => {
      const state = window as unknown as { __pressedAt?: number; __painted?: Promise<number> };
      const painted = await Promise.race([state.__painted!, new Promise<number>((_, fail) => setTimeout(() => fail(new Error('no visible change within 15 s')), 15_000))]);
      return painted - state.__pressedAt!;
    });
    await settle();
    return { ms, jsBefore: jsBefore / KB, jsAfter: js / KB };
  } finally {
    await context.close();
  }
}

/** Every interaction, RUNS fresh loads each, one at a time (the CPU slowdown needs the machine to itself). */
export async function measureFirstInteractions(browser: Browser, baseUrl: string, routes: string[]): Promise<InteractionResult[]> {
  const results: InteractionResult[] = [];
  for (const interaction of interactionsFor(routes)) {
    const result: InteractionResult = { island: interaction.island, route: interaction.route, ms: [], jsBefore: [], jsAfter: [] };
    try {
      for (let run = 0; run < RUNS; run++) {
        const load = await oneLoad(browser, baseUrl, interaction);
        result.ms.push(load.ms);
        result.jsBefore.push(load.jsBefore);
        result.jsAfter.push(load.jsAfter);
      }
    } catch (error) {
      result.error = (error as Error).message.split('\n')[0]!;
    }
    console.error(`pages: first interaction, ${interaction.island} on ${interaction.route}: ${result.error ?? `${Math.round(median(result.ms))} ms`}`);
    results.push(result);
  }
  return results;
}

const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

export function interactionTable(results: InteractionResult[]): string {
  const rows = results.map((r) =>
    `| ${r.island} | ${r.route} | ${r.error ? `**failed: ${r.error.replaceAll('|', '/')}**` : round(median(r.ms))} | ${r.ms.map((ms) => round(ms)).join(', ')} | ` +
    `${r.jsBefore.length ? round(median(r.jsBefore), 1) : '—'} | ${r.jsAfter.length ? round(median(r.jsAfter), 1) : '—'} |`);
  return [
    '## First interaction with each island',
    '',
    `On a 390×844 page under Lighthouse's mobile conditions (150 ms round trip, 1.6 Mbps down, CPU slowed ${MOBILE_CPU_SLOWDOWN}×): from the ` +
      `press to the painted change (the theme switched, "Link copied" shown, the dialog open, the typed letter in the box), median of ${RUNS} fresh loads ` +
      `(budget ${BUDGET_MS} ms); JavaScript in KB gzip before the interaction and once the page settled after it.`,
    '',
    '| island | route | ms (median) | runs | JS before | JS after |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** The slowest island's median (budget 200 ms), and how many first interactions failed to show their change. */
export function interactionFigures(results: InteractionResult[]): Figure[] {
  const measured = results.filter((r) => !r.error && r.ms.length);
  const slowest = [...measured].sort((a, b) => median(a.ms) - median(b.ms)).at(-1);
  return [
    ...(slowest ? [figure(`First interaction until painted, slowest island (${slowest.island} on ${slowest.route})`, 'ms', slowest.ms, BUDGET_MS)] : []),
    figure('First interactions that showed no change', 'islands', [results.length - measured.length], 0),
  ];
}
