/**
 * Holding back the islands' code at the network (islands-before-react.spec.ts, blog-search.spec.ts): what the
 * page does before React arrives can then only come from the server's markup and its plain scripts.
 */
import type { Page, Route } from '@playwright/test';

/** Island code: the React runtime, Astro's React renderer, an island component (chunks are named after their modules). */
const ISLAND_CODE = /^\/_astro\/(react|client|jsx-runtime|ThemeToggle|NewsletterForm|ShareButton|BlogSearch|Toaster)\.[\w-]+\.js$/;

/** Holds every request for island code until `release`; `held` counts the requests waiting. */
export async function holdIslandCode(page: Page) {
  const waiting: Route[] = [];
  let released = false;
  let held = 0;
  await page.route((url) => ISLAND_CODE.test(url.pathname), (route) => {
    if (released) return route.continue();
    held++;
    waiting.push(route);
  });
  return {
    held: () => held,
    release: async () => {
      released = true;
      // A request of a page already left (the search submitted) cannot go on any more, and need not.
      for (const route of waiting.splice(0)) await route.continue().catch(() => undefined);
    },
  };
}

