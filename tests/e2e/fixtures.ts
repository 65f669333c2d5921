import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page, type Request } from '@playwright/test';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CspViolations } from './support/csp-violations';
import { storageKey } from './support/backend';
import { SEED_ADMIN_STATE } from './support/saved-session';

/**
 * Every test's `page` comes from `browser.newContext()` (which @axe-core/playwright needs), and the
 * same-origin pages the test opened are checked with axe afterwards: no serious or critical violations. Each
 * kind of page is checked once per run and theme, signed in or not (`axeKey`), by whichever test opens it
 * first: re-opening every page after every test doubled the suite's time for checks already made.
 * The test also fails on any Content-Security-Policy violation in any page it opened (in this context or
 * in contexts it creates itself), named by directive and blocked URI.
 */
export const test = base.extend<{ page: Page; signedInAs: 'seed admin' | null }>({
  /** `seed admin`: the page starts with the seed admin's saved session (support/saved-session.ts). */
  signedInAs: [null, { option: true }],
  page: async ({ browser, baseURL, signedInAs }, use) => {
    const context = await browser.newContext({ baseURL, storageState: signedInAs === 'seed admin' ? SEED_ADMIN_STATE : undefined });
    const csp = new CspViolations(baseURL!);
    await csp.watch(context);
    const listen = (other: BrowserContext) => csp.listen(other);
    browser.on('context', listen);
    const page = await context.newPage();
    trackRequests(page);
    const visited = new Set<string>();
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().startsWith(baseURL ?? '')) visited.add(frame.url());
    });
    try {
      await use(page);
      const { origins } = await context.storageState();
      const storage = origins.find((each) => each.origin === new URL(baseURL!).origin)?.localStorage ?? [];
      for (const url of visited) {
        if (!claimAxeCheck(axeKey(url, storage))) continue;
        const checkPage = await context.newPage();
        trackRequests(checkPage);
        await checkPage.goto(url);
        await expectNoSeriousAxeViolations(checkPage);
        await checkPage.close();
      }
    } finally {
      browser.off('context', listen);
      await context.close();
    }
    expect(csp.found, `Content-Security-Policy violations:\n${csp.found.join('\n')}`).toEqual([]);
  },
});

/** Dynamic routes, as one kind of page each: a post, a category, a service, a post in the editor... */
const ROUTE_KINDS: [RegExp, string][] = [
  [/^\/blog\/(category|tag)\/[^/]+(?:\/page\/\d+)?\/?$/, '/blog/$1/:name'],
  [/^\/blog\/page\/\d+\/?$/, '/blog/page/:n'],
  [/^\/blog\/(?!search\/?$)[^/]+\/?$/, '/blog/:slug'],
  [/^\/services\/[^/]+\/?$/, '/services/:id'],
  [/^\/admin\/blog\/(edit|preview)\/[^/]+\/?$/, '/admin/blog/$1/:id'],
];

/**
 * What makes a page distinct for axe: its route (dynamic parts as one kind), the names of its query
 * parameters (`tab`'s value too: each tab is its own screen), the stored theme, and whether a session is
 * stored. Public pages are also checked one by one, in both themes, by site-pages.spec.ts.
 */
function axeKey(url: string, storage: { name: string; value: string }[]): string {
  const { pathname, searchParams } = new URL(url);
  const route = ROUTE_KINDS.reduce((path, [pattern, kind]) => path.replace(pattern, kind), pathname);
  const query = [...new Set(searchParams.keys())].sort().map((name) => (name === 'tab' ? `tab=${searchParams.get('tab')}` : name)).join('&');
  const theme = storage.find((item) => item.name === 'theme')?.value ?? 'system';
  const session = storage.some((item) => item.name === storageKey) ? 'signed in' : 'visitor';
  return `${route}?${query} ${theme} ${session}`;
}

/** The kinds of page checked in this run, shared by the workers (Playwright empties its output folder per run). */
const AXE_CHECKED = join(import.meta.dirname, '../../test-results/axe-checked.txt');

/** True for the first test to claim a kind of page in this run (it then checks it); false once claimed. */
function claimAxeCheck(key: string): boolean {
  if (existsSync(AXE_CHECKED) && readFileSync(AXE_CHECKED, 'utf8').split('\n').includes(key)) return false;
  mkdirSync(dirname(AXE_CHECKED), { recursive: true });
  appendFileSync(AXE_CHECKED, `${key}\n`);
  return true;
}

/** How long a page must have had no request in flight before axe checks it (see `settled`). */
const QUIET_MS = 250;
const quietWaits = new WeakMap<Page, () => Promise<void>>();

/**
 * Follows the page's requests (every frame's) from now on, for `settled`. Install it before the page navigates:
 * a request already in flight would go unseen.
 */
export function trackRequests(page: Page): void {
  if (quietWaits.has(page)) return;
  const inFlight = new Set<Request>();
  let changed = Date.now();
  page.on('request', (request) => {
    inFlight.add(request);
    changed = Date.now();
  });
  const ended = (request: Request) => {
    inFlight.delete(request);
    changed = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  quietWaits.set(page, async () => {
    while (inFlight.size > 0 || Date.now() - changed < QUIET_MS) await sleep(50);
  });
}

/**
 * Loaded, and no request in flight for QUIET_MS (a screen that reads its data, or an island's code that asks for
 * more, keeps it waiting). Playwright's `networkidle` is the same wait with 500 ms, which about 90 checks a run
 * spent as idle time; a page not followed by `trackRequests` still gets it.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  const quiet = quietWaits.get(page);
  await (quiet ? quiet() : page.waitForLoadState('networkidle'));
}

/**
 * `expectNoSeriousAxeViolations`, unless this kind of page (`axeKey`: route, query, stored theme, session) was
 * checked already in this run, by this or any test.
 */
export async function expectNoSeriousAxeViolationsOnce(page: Page) {
  const { origins } = await page.context().storageState();
  const storage = origins.find((each) => each.origin === new URL(page.url()).origin)?.localStorage ?? [];
  if (claimAxeCheck(axeKey(page.url(), storage))) await expectNoSeriousAxeViolations(page);
}

/**
 * Fails with the rule ids and targets of every serious or critical axe violation on the page. axe runs in the
 * page itself (`setLegacyMode`): its default run gathers every frame's results in a blank page it opens and loads
 * axe into again, a third of the check's CPU time. The frames it would add are the third parties' (booking and
 * contact form providers, embedded videos), whose content is not the site's.
 */
export async function expectNoSeriousAxeViolations(page: Page) {
  await settled(page);
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) on ${page.url()}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(serious, serious.join('\n')).toEqual([]);
}

/**
 * Islands ignore clicks until hydrated: wait until every island that hydrates on its own (`client:load`,
 * `client:idle`, a `client:visible` one in the viewport) is hydrated. `client:interaction` islands wait for the
 * visitor: the test's first hover, focus, tap or click starts them, and their plain scripts answer until they are live.
 */
export async function waitForIslands(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('astro-island[ssr]')].every((island) => {
      const client = island.getAttribute('client');
      if (client === 'interaction') return true;
      if (client !== 'visible') return false;
      const box = island.firstElementChild?.getBoundingClientRect();
      return !box || box.bottom < 0 || box.top > window.innerHeight;
    }),
  );
}

export { expect };
