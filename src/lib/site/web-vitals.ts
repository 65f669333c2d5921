/** Web-vitals ratings. INP replaces FID, which browsers no longer report. */
export type MetricName = 'LCP' | 'INP' | 'CLS' | 'FCP' | 'TTFB';
export type Rating = 'good' | 'needs-improvement' | 'poor';

/**
 * Good-up-to and poor-above thresholds, from web.dev's Core Web Vitals table. Browsers no longer report FID
 * (100/300 ms); INP replaces it with its own published thresholds.
 */
export const VITALS_THRESHOLDS: Record<MetricName, readonly [good: number, poor: number]> = {
  LCP: [2500, 4000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  FCP: [1800, 3000],
  TTFB: [800, 1800],
};

/** How a measured value rates. */
export function rateMetric(name: MetricName, value: number): Rating {
  const [good, poor] = VITALS_THRESHOLDS[name];
  if (value <= good) return 'good';
  return value > poor ? 'poor' : 'needs-improvement';
}
