import { describe, expect, it } from 'vitest';
import { rateMetric, type MetricName, type Rating } from '../../../../src/lib/site/web-vitals';

describe('rateMetric', () => {
  it.each<[MetricName, number, Rating]>([
    ['LCP', 2500, 'good'],
    ['LCP', 2501, 'needs-improvement'],
    ['LCP', 4001, 'poor'],
    ['INP', 200, 'good'],
    ['INP', 501, 'poor'],
    ['CLS', 0.1, 'good'],
    ['CLS', 0.2, 'needs-improvement'],
    ['CLS', 0.26, 'poor'],
    ['FCP', 1800, 'good'],
    ['FCP', 3000, 'needs-improvement'],
    ['FCP', 3001, 'poor'],
    ['TTFB', 800, 'good'],
    ['TTFB', 1801, 'poor'],
  ])('%s %d is %s', (name, value, rating) => expect(rateMetric(name, value)).toBe(rating));
});
