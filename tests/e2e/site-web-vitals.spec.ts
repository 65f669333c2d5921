import { expect, test } from './fixtures';

type Sent = [command: string, event: string, params: { name: string; value: number; rating: string }];

test('web vitals go to the analytics function as web_vitals events when it exists', async ({ page }) => {
  await page.addInitScript(() => {
    const sent: unknown[] = [];
    Object.assign(window, { sent, gtag: (...args: unknown[]) => sent.push(args) });
  });
  await page.goto('/about');
  await expect.poll(async () => (await page.evaluate(() => (window as unknown as { sent: Sent[] }).sent)).map(([, , p]) => p.name).sort(), { timeout: 15_000 }).toEqual(
    expect.arrayContaining(['FCP', 'TTFB']),
  );
  const sent = await page.evaluate(() => (window as unknown as { sent: Sent[] }).sent);
  for (const [command, event, params] of sent) {
    expect([command, event]).toEqual(['event', 'web_vitals']);
    expect(params.value).toBeGreaterThanOrEqual(0);
    expect(['good', 'needs-improvement', 'poor']).toContain(params.rating);
  }
});

test('pages without an analytics function never load the web-vitals code', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(request.url()));
  await page.goto('/about');
  await page.waitForLoadState('networkidle');
  expect(scripts.some((url) => url.includes('web-vitals'))).toBe(false);
  expect(scripts.length).toBeGreaterThan(0);
});
