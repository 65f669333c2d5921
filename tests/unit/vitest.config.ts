import { getViteConfig } from 'astro/config';

// Astro's Vite config, so tests can import `.astro` components, islands and `astro:*` modules.
export default getViteConfig({
  test: {
    name: 'unit',
    include: ['tests/unit/**/*.test.{ts,tsx}'],
    reporters: process.env.TEST_REPORT_FILE ? ['default', 'json'] : ['default'],
    outputFile: process.env.TEST_REPORT_FILE,
  },
});
