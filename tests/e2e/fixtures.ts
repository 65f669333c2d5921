import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { CspViolations } from './support/csp-violations';

/**
 * Every test's `page` comes from `browser.newContext()` (which @axe-core/playwright needs), and every
 * same-origin page the test opened is checked with axe afterwards: no serious or critical violations.
 * The test also fails on any Content-Security-Policy violation in any page it opened (in this context or
 * in contexts it creates itself), named by directive and blocked URI.
 */
export const test = base.extend<{ page: Page }>({
  page: async ({ browser, baseURL }, use) => {
    const context = await browser.newContext({ baseURL });
    const csp = new CspViolations(baseURL!);
    await csp.watch(context);
    const listen = (other: BrowserContext) => csp.listen(other);
    browser.on('context', listen);
    const page = await context.newPage();
    const visited = new Set<string>();
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame() && frame.url().startsWith(baseURL ?? '')) visited.add(frame.url());
    });
    try {
      await use(page);
      for (const url of visited) {
        const checkPage = await context.newPage();
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

/** Fails with the rule ids and targets of every serious or critical axe violation on the page. */
export async function expectNoSeriousAxeViolations(page: Page) {
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
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
