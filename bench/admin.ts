/**
 * The back office's first screen, on the site served by `netlify serve` (see served-site.ts): the
 * seeded admin signs in through /auth once; then, BENCH_ADMIN_RUNS times (default 5), a cold navigation to
 * /admin in a fresh browser context (empty cache, the signed-in session carried over) until the dashboard's
 * 'System Overview' counters show numbers. Figures: the JavaScript (gzip) loaded until then, budget 200 KB;
 * the time from navigation start to the counters shown, read from the page's own clock, budget 2,000 ms (a
 * signed-in admin should see numbers within two seconds on localhost).
 */
import type { Browser, BrowserContext } from '@playwright/test';
import { launchChromium, responseBytes, responseKind } from './browser.ts';
import { figure, type Figure } from './measure.ts';
import { withServedSite } from './served-site.ts';
import { DEMO_PASSWORD } from '../tests/fixtures/demo-logins.ts';

const RUNS = Number(process.env.BENCH_ADMIN_RUNS ?? 5);
const ADMIN = { email: 'admin@scale-pro.test', password: DEMO_PASSWORD };

/** Signs in through the real /auth form, as tests/e2e/support/sign-in.ts does; returns the session to reuse. */
export async function signedInState(
  browser: Browser,
  baseURL: string,
  person: { email: string; password: string } = ADMIN,
): Promise<Awaited<ReturnType<BrowserContext['storageState']>>> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await page.goto('/auth');
    // Every island but those that wait for a visitor's interaction (the header's theme toggle, the newsletter).
    await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="interaction"])').length === 0);
    await page.getByRole('main').getByLabel('Email').fill(person.email);
    await page.getByRole('main').getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(/\/admin$/, { timeout: 30_000 });
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/** One cold visit: gzip JS bytes received before the counters showed, and ms from navigation start to then. */
async function coldVisit(browser: Browser, baseURL: string, storageState: Awaited<ReturnType<typeof signedInState>>): Promise<{ jsGzip: number; ms: number }> {
  const context = await browser.newContext({ baseURL, storageState });
  try {
    const page = await context.newPage();
    const scripts: Promise<number>[] = [];
    let shown = false;
    page.on('response', (response) => {
      if (!shown && responseKind(response) === 'js') scripts.push(responseBytes(response).then((bytes) => bytes.gzip));
    });
    await page.goto('/admin', { waitUntil: 'commit' });
    // The counters show numbers when no card is busy and each value is a number; performance.now() counts from navigation start.
    const ms = await page.waitForFunction(() => {
      const values = [...document.querySelectorAll('[data-testid="system-overview"] p + p')];
      return values.length === 4 && values.every((value) => /^\d[\d,.]*$/.test(value.textContent ?? '')) && performance.now();
    }, undefined, { timeout: 30_000, polling: 'raf' });
    shown = true;
    const bytes = await Promise.all(scripts);
    return { jsGzip: bytes.reduce((sum, n) => sum + n, 0), ms: (await ms.jsonValue()) as number };
  } finally {
    await context.close();
  }
}

export async function measureAdmin(): Promise<Figure[]> {
  return withServedSite(async ({ baseUrl }) => {
    const browser = await launchChromium();
    try {
      const state = await signedInState(browser, baseUrl);
      const visits = [];
      for (let run = 0; run < RUNS; run++) visits.push(await coldVisit(browser, baseUrl, state));
      return [
        figure('Admin first screen: JavaScript loaded until the counters show, gzip', 'KB', visits.map((v) => v.jsGzip / 1024), 200),
        figure('Admin first screen: navigation to System Overview counters shown', 'ms', visits.map((v) => v.ms), 2000),
      ];
    } finally {
      await browser.close();
    }
  });
}
