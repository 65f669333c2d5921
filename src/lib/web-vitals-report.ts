/**
 * Sends each web vital to the page's analytics function as a `web_vitals` event (spec section 7).
 * Loaded by BaseLayout only when `window.gtag` exists, so pages without analytics never download it.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type Metric } from 'web-vitals';
import { rateMetric } from './web-vitals.ts';

type Gtag = (command: 'event', name: string, params: Record<string, unknown>) => void;

export function reportWebVitals(gtag: Gtag): void {
  const send = (metric: Metric) =>
    gtag('event', 'web_vitals', { name: metric.name, value: metric.value, rating: rateMetric(metric.name, metric.value) });
  onLCP(send);
  onINP(send);
  onCLS(send);
  onFCP(send);
  onTTFB(send);
}
