import { getViteConfig } from 'astro/config';

// Astro's Vite config, so tests can import `.astro` components, islands and `astro:*` modules.
export default getViteConfig({
  test: {
    name: 'unit',
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    // Under `npm test` also its summary (tests/vitest-reporter.ts), which tests/run.ts reads.
    reporters: process.env.TEST_REPORT_FILE ? ['default', './tests/vitest-reporter.ts'] : ['default'],
  },
});
