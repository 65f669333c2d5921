/**
 * Sends each web vital to the page's analytics function as a `web_vitals` event.
 * Loaded by BaseLayout only when `window.gtag` exists, so pages without analytics never download it.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { rateMetric } from './web-vitals.ts';

/** The analytics function (Google's gtag.js), as far as this module calls it. */
export type Gtag = (command: 'event', name: string, params: Record<string, unknown>) => void;

/** Reports LCP, INP, CLS, FCP and TTFB with their ratings, each when the browser has measured it. */
export function reportWebVitals(gtag: Gtag): void {
  const send = (metric: Metric) =>
    gtag('event', 'web_vitals', { name: metric.name, value: metric.value, rating: rateMetric(metric.name, metric.value) });
  onLCP(send);
  onINP(send);
  onCLS(send);
  onFCP(send);
  onTTFB(send);
}
